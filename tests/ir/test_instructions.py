"""Every instruction kind prints, reads back, clones and declares its traits consistently."""
import pytest
from hypothesis import given
from hypothesis import strategies as st

from loomcl import ir
from loomcl.ir import instructions as ins
from loomcl.ir import types as ty
from loomcl.ir.printer import FunctionPrinter
from loomcl.ir.reader import ReadError, read_function, read_module

PAIR = ty.StructType("pair", (ty.i32, ty.f32))
KINDS = ins.instruction_classes()


def _binary_lines() -> list[str]:
    return [f"%b.{op.value} = {op.value} %f, f32 2.0" if op.is_float else f"%b.{op.value} = {op.value} %i, i32 3"
            for op in ins.BinaryOpcode] + ["%b.nsw = add nsw %i, i32 3", "%b.nsw.1 = mul nsw %l, %l"]


def _compare_lines() -> list[str]:
    return [f"%p.{p.value} = cmp {p.value} %f, f32 0.5" if p.is_float else f"%p.{p.value} = cmp {p.value} %i, i32 -1"
            for p in ins.Predicate]


CAST_LINES = [
    "%c.trunc = trunc nuw nsw %l to i32", "%c.trunc.1 = trunc %l to i16", "%c.zext = zext %i to i64",
    "%c.sext = sext %vi to <4 x i64>", "%c.fptrunc = fptrunc %d to f32", "%c.fpext = fpext %f to f64",
    "%c.fptosi = fptosi %f to i32", "%c.fptoui = fptoui %d to i64", "%c.sitofp = sitofp %i to f32",
    "%c.uitofp = uitofp %vi to <4 x f32>", "%c.bitcast = bitcast %f to i32",
    "%c.bitcast.1 = bitcast %v to <2 x i64>", "%c.ptrtoint = ptrtoint %p to i64",
    "%c.inttoptr = inttoptr %l to ptr.global", "%c.addrspacecast = addrspacecast %p to ptr.generic",
]


def _math_lines() -> list[str]:
    lines = []
    for m in ins.MathFunction:
        arg = "%i" if m.is_integer else "%f"
        lines.append(f"%m.{m.value} = math.{m.value} {'i32' if m.is_integer else 'f32'} {', '.join([arg] * m.arity)}")
    return lines + ["%m.vector = math.fma <4 x f32> %v, %v, <4 x f32> <1.0, 2.0, -0.0, 1e-05>"]


def _query_lines() -> list[str]:
    return [f"%q.{q.value}.{d} = {q.value} {d}" for q in ins.Query for d in range(3)]


def _atomic_lines() -> list[str]:
    return [f"%a.{op.value} = atomic {op.value} %p, %i" for op in ins.AtomicOpcode] + [
        "%a.xchg.1 = atomic xchg @tile, %f"]


OTHER_LINES = [
    "%neg = fneg %f", "%sel = select %cond, %f, undef f32", "%vsel = select <4 x i1> <1, 0, 1, 0>, %v, %v",
    "%priv = alloca [4 x f32]", "%ld = load f32, %p", "%ldv = load i32, @table volatile", "store %f, %p",
    "store %i, %p volatile", "%ep = elementptr f32, @tile, %i", "%ep.1 = elementptr i8, %priv, i64 -8",
    "%fp = fieldptr %pair, %p, 1", "%cx = cmpxchg %p, f32 0.0, %f", "%cx.1 = cmpxchg %p, %i, i32 7",
    "%r = call @twice(%i)", "call @nothing()", "barrier 3", "fence 1",
    "%ee = extractelement %v, i32 3", "%ie = insertelement %v, %f, %i", "%sh = shufflevector %v, %v, <0, 7, -1>",
    "%null = select %cond, ptr.global null, %p",
    '%pf = printf 1 "i=%d d=%f v=%v4hlf\\5C\\22\\0A", %i, %d, %v', '%pf.1 = printf 2 "no arguments"',
    "%ext = argument_extent 0", "check_access 3, 4, %p, %p, %ext, %l, i64 0, i64 0",
    "%slot = alloca i32", "check_barrier 1, i32 -1, %slot, %l, i64 0, i64 0",
    "%bc = broadcast 4, %f", "%lm = cmp olt %v, %bc", "%ll = lane.load <4 x f32>, %p, %lm",
    "lane.store %ll, %p, %lm", "%offs = sext %vi to <4 x i64>", "%ga = gather <4 x f32>, %p, %offs, %lm",
    "scatter %ga, %p, %offs, %lm", "%any = any.lane %lm",
]

MODULE = """constant @table : [4 x i32] = [1, 2, 3, 4]

func i32 @twice(i32 %x) {
entry:
  %y = add %x, %x
  ret %y
}

func void @nothing() {
entry:
  ret
}

kernel @every_kind(ptr.global %p, i32 %i, i64 %l, f32 %f, f64 %d, <4 x f32> %v, <4 x i32> %vi, i1 %cond) {
  local @tile : [16 x f32]
entry:
%BODY%
  branch %cond, loop, other
loop:
  %n = phi i32 [i32 0, entry], [%n.next, loop], [i32 5, other]
  %n.next = add %n, i32 1
  %more = cmp ult %n.next, i32 8
  branch %more, loop, out
other:
  switch %i, loop [0: out, -1: out, 2147483647: out]
out:
  jump end
end:
  ret
never:
  unreachable
}
"""


def _image_lines() -> list[str]:
    floats = {1: "%f", 2: "<2 x f32> <0.5, 1.5>", 4: "%v"}
    ints = {1: "%i", 2: "<2 x i32> <1, 2>", 4: "%vi"}
    lines = ["%ir.plain = image.read.2d.f %p, <2 x i32> <1, 2>"]
    for g in ins.ImageGeometry:
        for c in ins.ImageChannels:
            lines.append(f"%ir.{g.value}.{c.value} = image.read.{g.value}.{c.value} %p, %i, {floats[g.coordinate_lanes]}")
            color = "%v" if c is ins.ImageChannels.FLOAT else "%vi"
            lines.append(f"image.write.{g.value}.{c.value} %p, {ints[g.coordinate_lanes]}, {color}")
    return lines + [f"%iq.{f.value} = image.{f.value} %p" for f in ins.ImageProperty]


def every_kind_text() -> str:
    lines = _binary_lines() + _compare_lines() + CAST_LINES + _math_lines() + _query_lines() + _atomic_lines() \
        + _image_lines()
    return MODULE.replace("%BODY%", "\n".join("  " + line for line in lines + OTHER_LINES))


def every_kind():
    return read_module(every_kind_text(), {"pair": PAIR})


def test_every_kind_and_keyword_prints_as_read():
    module = every_kind()
    ir.verify_module(module)
    text = ir.print_module(module)
    assert text == every_kind_text()
    assert ir.print_module(read_module(text, {"pair": PAIR})) == text
    kernel = module.functions["every_kind"]
    assert {type(i) for i in kernel.instructions()} == set(KINDS)
    assert {i.keyword for i in kernel.instructions()} == {k for cls in KINDS for k in cls.keywords}


def test_the_reader_table_has_one_class_per_keyword():
    keywords = [k for cls in KINDS for k in cls.keywords]
    assert len(keywords) == len(set(keywords))


def test_printing_programmatic_instances_reads_back():
    f = ir.Function("k", ty.void, [ty.pointer(ty.AddressSpace.GLOBAL), ty.i32], ["p", "i"], is_kernel=True)
    b = ir.Builder(f.add_block("entry"))
    wide = b.cast(ins.CastOpcode.SEXT, f.params[1], ty.i64, "wide")
    q = b.query(ins.Query.GLOBAL_OFFSET, 1)
    total = b.add(wide, q)
    b.atomic_rmw(ins.AtomicOpcode.UMAX, f.params[0], b.cast(ins.CastOpcode.TRUNC, total, ty.i32))
    b.ret()
    text = ir.print_function(f)
    assert "%0 = global_offset 1" in text and "atomic umax %p, %2" in text
    assert ir.print_function(read_function(text)) == text


@pytest.mark.parametrize("inst", list(every_kind().functions["every_kind"].instructions()), ids=lambda i: i.keyword)
def test_clone_is_an_unplaced_copy(inst):
    copy = inst.clone()
    assert type(copy) is type(inst) and copy.block is None and not copy.users
    assert copy.type is inst.type and copy.name == inst.name and copy.loc is inst.loc
    assert all(a is b for a, b in zip(copy.operands, inst.operands)) and len(copy.operands) == len(inst.operands)
    assert all(copy in op.users for op in copy.operands if op.tracks_users)
    for field in type(inst).fields:
        assert getattr(copy, field) == getattr(inst, field)
        if isinstance(getattr(inst, field), list):
            assert getattr(copy, field) is not getattr(inst, field)
    printer = FunctionPrinter(inst.function)
    assert (copy.keyword, copy.print_operands(printer)) == (inst.keyword, inst.print_operands(printer))


@pytest.mark.parametrize("inst", [next(i for i in every_kind().functions["every_kind"].instructions()
                                       if type(i) is cls) for cls in KINDS], ids=lambda i: i.keyword)
def test_fields_name_every_attribute(inst):
    """`clone` copies `fields`: an attribute left out of them would be lost in every copy."""
    base = {"type", "name", "users", "block", "loc", "_operands"}
    assert set(vars(inst)) - base == set(type(inst).fields)


@pytest.mark.parametrize("cls", KINDS, ids=lambda c: c.__name__)
def test_traits_are_consistent(cls):
    if cls.is_pure:
        assert not (cls.has_side_effects or cls.reads_memory or cls.is_terminator or cls.is_barrier)
    assert cls.is_terminator == issubclass(cls, ins.Terminator)
    assert cls.is_barrier == (cls is ins.Barrier)
    if cls.is_barrier:
        assert cls.has_side_effects


def test_traits_of_some_kinds():
    assert ins.BinaryOp.is_pure and ins.WorkItemQuery.is_pure and ins.MathCall.is_pure
    assert not ins.Load.is_pure and ins.Load.reads_memory and not ins.Load.has_side_effects
    assert not ins.Phi.is_pure and not ins.Alloca.is_pure and not ins.Alloca.has_side_effects
    assert ins.Store.has_side_effects and ins.AtomicRMW.has_side_effects and ins.Call.has_side_effects
    kernel = every_kind().functions["every_kind"]
    switch = next(i for i in kernel.instructions() if isinstance(i, ins.Switch))
    assert [b.name for b in switch.successors] == ["loop", "out", "out", "out"]
    assert next(i for i in kernel.instructions() if isinstance(i, ins.Unreachable)).successors == []


def test_remap_blocks_replaces_successors_and_incoming_blocks():
    kernel = every_kind().functions["every_kind"]
    blocks = {b.name: b for b in kernel.blocks}
    other, out, loop = blocks["other"], blocks["out"], blocks["loop"]
    new = ir.Block("new")
    switch = other.terminator
    switch.remap_blocks({out: new})
    assert switch.successors == [loop, new, new, new]
    phi = loop.phis[0]
    phi.remap_blocks({other: new})
    assert phi.incoming_blocks == [blocks["entry"], loop, new]


def test_reader_errors_name_the_problem():
    with pytest.raises(ReadError, match="unknown instruction 'frobnicate'"):
        read_function("kernel @f() {\nentry:\n  %x = frobnicate i32 1\n  ret\n}")
    with pytest.raises(ReadError, match="unexpected 'i32' at the end"):
        read_function("kernel @f(i32 %a) {\nentry:\n  %x = fneg %a i32\n  ret\n}")
    with pytest.raises(ReadError, match="expected an integer, got 'x'"):
        read_function("kernel @f() {\nentry:\n  barrier x\n  ret\n}")


_INT_TYPES = st.sampled_from([ty.i8, ty.i16, ty.i32, ty.i64])


@given(_INT_TYPES, st.data())
def test_integer_constants_and_switch_cases_round_trip(t, data):
    value = data.draw(st.integers(-(1 << (t.bits - 1)), (1 << (t.bits - 1)) - 1))
    case = data.draw(st.integers(-(1 << (t.bits - 1)), (1 << t.bits) - 1))
    text = f"""kernel @f({t} %a) {{
entry:
  %x = xor %a, {t} {value}
  switch %x, entry [{case}: entry]
}}"""
    f = read_function(text)
    ir.verify_function(f)
    assert ir.print_function(f) == text


@given(st.floats(allow_nan=True, allow_infinity=True))
def test_float_constants_round_trip(value):
    text = f"""kernel @f(f64 %a) {{
entry:
  %x = fadd %a, f64 {value!r}
  ret
}}"""
    assert ir.print_function(read_function(text)) == text
