"""The verifier rejects a bad instance of every instruction kind, naming the broken rule.

Each case is IR text that reads fine (the reader checks syntax only) and breaks one type rule of one
kind; the verifier must say which, on the instruction's printed line.
"""
import re

import pytest

from loomcl import ir
from loomcl.ir import instructions as ins
from loomcl.ir import types as ty
from loomcl.ir.reader import read_module

PAIR = ty.StructType("pair", (ty.i32, ty.f32))
PARAMS = "ptr.global %p, i8 %b, i32 %i, i64 %l, f32 %f, f64 %d, <4 x f32> %v, i1 %c"

# (kind, lines of the entry block, message); the block ends in `ret` unless the lines end it
BAD = [
    ("BinaryOp", "%x = add %i, %l", "operand types differ: i32 and i64"),
    ("BinaryOp", "%x = fadd %i, %i", "fadd needs floating-point operands, not i32"),
    ("BinaryOp", "%x = sdiv %f, %f", "sdiv needs integer operands, not f32"),
    ("FNeg", "%x = fneg %i", "fneg needs floating-point operands, not i32"),
    ("Compare", "%x = cmp slt %f, %f", "cmp slt needs integer or pointer operands, not f32"),
    ("Compare", "%x = cmp olt %i, %i", "cmp olt needs floating-point operands, not i32"),
    ("Compare", "%x = cmp eq %i, %l", "operand types differ: i32 and i64"),
    ("Cast", "%x = zext %l to i32", "zext from i64 to i32 does not widen"),
    ("Cast", "%x = trunc %i to i64", "trunc from i32 to i64 does not narrow"),
    ("Cast", "%x = fpext %d to f32", "fpext from f64 to f32 does not widen"),
    ("Cast", "%x = sitofp %f to f64", "sitofp needs an integer source, not f32"),
    ("Cast", "%x = fptosi %f to f64", "fptosi needs an integer result, not f64"),
    ("Cast", "%x = ptrtoint %l to i64", "ptrtoint needs a pointer source, not i64"),
    ("Cast", "%x = addrspacecast %p to i64", "addrspacecast needs a pointer result, not i64"),
    ("Cast", "%x = bitcast %l to f32", "bitcast from i64 (64 bits) to f32 (32 bits) changes the size"),
    ("Cast", "%x = bitcast %p to i64", "bitcast from ptr.global to i64: only scalars and vectors"),
    ("Cast", "%x = fptrunc %v to f32", "fptrunc from <4 x f32> to f32 changes the number of lanes"),
    ("Cast", "%x = zext nuw nsw %i to i64", "zext has no nuw nsw form (only trunc has)"),
    ("BinaryOp", "%x = and nsw %i, %i", "and has no nsw form (only add, sub and mul have)"),
    ("Select", "%x = select %i, %f, %f", "select condition is i32, not i1"),
    ("Select", "%x = select %c, %f, %d", "select arms differ: f32 and f64"),
    ("Select", "%x = select <2 x i1> <1, 0>, %v, %v", "select condition is <2 x i1>, not i1 or <4 x i1>"),
    ("Phi", "jump next\nnext:\n%x = phi i32 [%f, entry]", "incoming value of type f32, phi is i32"),
    ("Alloca", "%x = alloca void", "allocates void, which has no size"),
    ("Load", "%x = load f32, %i", "address is i32, not a pointer"),
    ("Store", "store %f, %f", "address is f32, not a pointer"),
    ("ElementPtr", "%x = elementptr f32, %p, %f", "index is f32, not an integer"),
    ("ElementPtr", "%x = elementptr f32, %l, %i", "address is i64, not a pointer"),
    ("FieldPtr", "%x = fieldptr %pair, %p, 2", "%pair has no field 2"),
    ("AtomicRMW", "%x = atomic add %p, %f", "atomic add operates on f32, not an integer scalar of 8 bits or more"),
    ("AtomicRMW", "%x = atomic xchg %p, %v", "atomic xchg operates on <4 x f32>, not an integer or floating-point"),
    ("AtomicRMW", "%x = atomic or %i, %i", "address is i32, not a pointer"),
    ("AtomicCmpXchg", "%x = cmpxchg %p, %i, %f", "expected is i32, new is f32"),
    ("AtomicCmpXchg", "%x = cmpxchg %p, %c, %c", "cmpxchg operates on i1"),
    ("Call", "%x = call @callee(%f)", "argument types do not match @callee's parameters"),
    ("Call", "%x = call @callee()", "argument types do not match @callee's parameters"),
    ("MathCall", "%x = math.pow f32 %f", "math.pow takes 2 arguments, not 1"),
    ("MathCall", "%x = math.sqrt f32 %f, %f", "math.sqrt takes 1 argument, not 2"),
    ("MathCall", "%x = math.sqrt i32 %i", "math.sqrt gives floating-point values, not i32"),
    ("MathCall", "%x = math.smax f32 %f, %f", "math.smax gives integers, not f32"),
    ("MathCall", "%x = math.fmin f32 %f, %d", "argument 1 is f64, not the result's f32"),
    ("WorkItemQuery", "%x = local_id 3", "dimension 3 is not 0, 1 or 2"),
    ("Barrier", "barrier 8", "flags 8 are not a combination of CLK_*_MEM_FENCE (0..7)"),
    ("Fence", "fence -1", "flags -1 are not a combination of CLK_*_MEM_FENCE (0..7)"),
    ("ExtractElement", "%x = extractelement %f, i32 0", "the vector operand is f32, not a vector"),
    ("ExtractElement", "%x = extractelement %v, %f", "index is f32, not an integer"),
    ("InsertElement", "%x = insertelement %v, %i, i32 0", "inserts i32 into <4 x f32>"),
    ("ShuffleVector", "%x = shufflevector %v, %v, <0, 8>", "mask lane 8 is outside -1..7"),
    ("Broadcast", "%x = broadcast 4, %p", "broadcasts ptr.global, not an integer or float"),
    ("LaneLoad", "%x = lane.load <4 x f32>, %p, <2 x i1> <1, 0>", "mask is <2 x i1>, not <4 x i1>"),
    ("LaneLoad", "%x = lane.load f32, %p, <4 x i1> <1, 0, 1, 1>", "the result is f32, not a vector of scalars"),
    ("LaneStore", "lane.store %v, %f, <4 x i1> <1, 0, 1, 1>", "address is f32, not a pointer"),
    ("Gather", "%x = gather <4 x f32>, %p, %v, <4 x i1> <1, 0, 1, 1>", "offsets are <4 x f32>, not <4 x i64>"),
    ("Scatter", "scatter %v, %p, %v, <4 x i1> <1, 0, 1, 1>", "offsets are <4 x f32>, not <4 x i64>"),
    ("AnyLane", "%x = any.lane %v", "any.lane of <4 x f32>, not a vector of i1"),
    ("Jump", "jump nowhere", "branches to block 'nowhere' outside the function"),
    ("Branch", "branch %i, entry, entry", "branch condition is i32, not i1"),
    ("Switch", "switch %f, entry [1: entry]", "switch on f32, not an integer"),
    ("Switch", "switch %b, entry [300: entry]", "case 300 does not fit i8"),
    ("Switch", "switch %b, entry [-1: entry, 255: entry]", "case 255 appears twice"),
    ("Return", "ret %f", "returns f32 from a function returning void"),
    ("Printf", '%x = printf 0 "x"', "format id 0 is not a positive integer"),
    ("Printf", '%x = printf 1 "%p", %p', "argument 0 is ptr.global, not a number or a vector of numbers"),
    ("Unreachable", "unreachable\nret", "terminator in the middle of a block"),
    ("ArgumentExtent", "%x = argument_extent 1", "parameter 1 is not a pointer parameter of the function"),
    ("CheckAccess", "check_access 0, 4, %p, %p, %i, %l, %l, %l", "extent is i32, not i64"),
    ("CheckAccess", "check_access 0, 4, %i, %p, %l, %l, %l, %l", "address is i32, not a pointer"),
    ("CheckBarrier", "check_barrier 0, %l, %p, %l, %l, %l", "next is i64, not i32"),
    ("CheckBarrier", "check_barrier 0, %i, %p, %i, %l, %l", "a local id is i32, not i64"),
    ("ImageRead", "%x = image.read.2d.f %p, %i, %v", "coordinates of a 2d image are <4 x f32>, not 2 i32 or f32 lanes"),
    ("ImageRead", "%x = image.read.1d.f %p, %l, %f", "the sampler is i64, not i32"),
    ("ImageRead", "%x = image.read.1d.f %p, %f", "a read without a sampler takes integer coordinates"),
    ("ImageRead", "%x = image.read.1d.i %i, %i", "the image is i32, not a pointer to its descriptor"),
    ("ImageWrite", "image.write.3d.f %p, %v, %v", "writes take integer coordinates"),
    ("ImageWrite", "image.write.1d.ui %p, %i, %v", "the color is <4 x f32>, not <4 x i32>"),
    ("ImageQuery", "%x = image.width %f", "the image is f32, not a pointer to its descriptor"),
]

_TERMINATORS = ("ret", "jump", "branch", "switch", "unreachable")


def module_with(lines: str):
    body = [line.strip() for line in lines.splitlines()]
    if not body[-1].startswith(_TERMINATORS):
        body.append("ret")
    text = "\n".join(line if line.endswith(":") else "  " + line for line in body)
    return read_module(f"""func i32 @callee(f64 %a) {{
entry:
  ret i32 0
}}

kernel @k({PARAMS}) {{
entry:
{text}
}}
""", {"pair": PAIR})


@pytest.mark.parametrize("kind, lines, message", BAD, ids=[f"{k}-{i}" for i, (k, _, _) in enumerate(BAD)])
def test_verifier_rejects_a_bad_instance(kind, lines, message):
    module = module_with(lines)
    inst = next(i for i in module.functions["k"].instructions() if type(i).__name__ == kind)
    assert [m for m in inst.verify()] or kind in ("Jump", "Unreachable")
    with pytest.raises(ir.VerificationError, match=re.escape(message)):
        ir.verify_module(module)


def test_every_kind_has_a_bad_case():
    assert {kind for kind, _, _ in BAD} == {cls.__name__ for cls in ins.instruction_classes()}


def test_the_message_names_the_instruction_and_block():
    with pytest.raises(ir.VerificationError) as error:
        ir.verify_module(module_with("%x = zext %l to i32"))
    assert str(error.value) == "@k: '%x = zext %l to i32' in entry: zext from i64 to i32 does not widen"


def test_every_broken_rule_is_reported():
    with pytest.raises(ir.VerificationError) as error:
        ir.verify_module(module_with("%x = math.smin f32 %f\n%y = atomic add %p, %f"))
    assert str(error.value).splitlines() == [
        "@k: '%x = math.smin f32 %f' in entry: math.smin takes 2 arguments, not 1",
        "@k: '%x = math.smin f32 %f' in entry: math.smin gives integers, not f32",
        "@k: '%y = atomic add %p, %f' in entry: atomic add operates on f32, not an integer scalar of 8 bits or more",
    ]


def test_operands_replaced_by_values_of_another_type_are_caught():
    """The result type is fixed when an instruction is made; a pass that swaps an operand for a value
    of another type leaves a mismatch the verifier reports."""
    module = module_with("%x = add %i, %i\n%y = extractelement %v, i32 0")
    k = module.functions["k"]
    add, extract = list(k.instructions())[:2]
    add.set_operand(0, k.params[3])
    add.set_operand(1, k.params[3])
    extract.set_operand(0, ir.VectorConstant(ty.VectorType(ty.f64, 2), [ir.Constant(ty.f64, 0.0)] * 2))
    with pytest.raises(ir.VerificationError) as error:
        ir.verify_module(module)
    assert "result is i32, but the operands are i64" in str(error.value)
    assert "result is f32, but the lanes are f64" in str(error.value)


def test_good_instances_pass():
    ir.verify_module(module_with("%x = trunc nuw nsw %l to i32\n%y = bitcast %v to <2 x i64>\n"
                                 "%z = atomic xchg %p, %f\n%w = math.fma f32 %f, %f, %f\n"
                                 "switch %b, entry [-1: entry, 127: entry, 128: entry]"))
