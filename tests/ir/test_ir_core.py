import pytest

from loomcl import ir
from loomcl.ir import types as ty


def build_scale():
    f = ir.Function("scale", ty.void, [ty.pointer(ty.AddressSpace.GLOBAL), ty.f32], ["x", "a"], is_kernel=True)
    b = ir.Builder(f.add_block("entry"))
    gid = b.query(ir.Query.GROUP_ID, 0, "gid")
    p = b.element_ptr(ty.f32, f.params[0], gid, "p")
    v = b.load(ty.f32, p, "v")
    r = b.binary(ir.BinaryOpcode.FMUL, v, f.params[1], "r")
    b.store(r, p)
    b.ret()
    return f


def test_printer_stable_text():
    assert ir.print_function(build_scale()) == """kernel @scale(ptr.global %x, f32 %a) {
entry:
  %gid = group_id 0
  %p = elementptr f32, %x, %gid
  %v = load f32, %p
  %r = fmul %v, %a
  store %r, %p
  ret
}"""


def test_use_lists_and_replace_all_uses():
    f = build_scale()
    gid = f.entry.instructions[0]
    assert len(gid.users) == 1
    b = ir.Builder()
    b.position_before(gid)
    zero = ir.Constant(ty.i64, 0)
    gid.replace_all_uses_with(zero)
    assert not gid.users
    gid.erase()
    ir.verify_function(f)
    assert "elementptr f32, %x, i64 0" in ir.print_function(f)


def test_types_are_interned():
    assert ty.IntType(32) is ty.i32
    assert ty.VectorType(ty.f32, 4) is ty.VectorType(ty.f32, 4)
    assert ty.VectorType(ty.f32, 3).size == 16
    assert ty.ArrayType(ty.f64, 10).size == 80


def test_verifier_catches_use_before_definition():
    f = ir.Function("bad", ty.void, [ty.i32], ["n"])
    entry, other = f.add_block("entry"), f.add_block("other")
    b = ir.Builder(other)
    x = b.add(f.params[0], ir.Constant(ty.i32, 1), "x")
    b.ret()
    with b.at_end(entry):
        b.add(x, x, "y")
        b.jump(other)
    with pytest.raises(ir.VerificationError, match="does not dominate"):
        ir.verify_function(f)


def test_verifier_catches_missing_terminator_and_phi_mismatch():
    f = ir.Function("f", ty.void, [])
    f.add_block("entry")
    with pytest.raises(ir.VerificationError, match="terminator"):
        ir.verify_function(f)
    g = ir.Function("g", ty.i32, [ty.i1], ["c"])
    entry, a, join = g.add_block("entry"), g.add_block("a"), g.add_block("join")
    b = ir.Builder(entry)
    b.branch(g.params[0], a, join)
    b.position_at_end(a)
    b.jump(join)
    b.position_at_end(join)
    phi = b.phi(ty.i32, "m")
    phi.add_incoming(ir.Constant(ty.i32, 1), a)
    b.ret(phi)
    with pytest.raises(ir.VerificationError, match="predecessors"):
        ir.verify_function(g)
    phi.add_incoming(ir.Constant(ty.i32, 2), entry)
    ir.verify_function(g)


def test_use_list_counts_each_operand_slot_and_keeps_first_use_order():
    f = build_scale()
    gid, p = f.entry.instructions[0], f.entry.instructions[1]
    a = f.params[1]
    both = ir.BinaryOp(ir.BinaryOpcode.FMUL, a, a, "sq")  # one user, two slots
    assert list(a.users) == [f.entry.instructions[3], both, both]
    assert len(a.users) == 3 and both in a.users
    both.set_operand(0, ir.Constant(ty.f32, 2.0))
    assert list(a.users) == [f.entry.instructions[3], both]
    both.drop_operands()
    assert list(a.users) == [f.entry.instructions[3]] and both not in a.users
    with pytest.raises(ValueError):
        a.users.remove(both)
    p.set_operand(1, ir.Constant(ty.i64, 0))
    assert not gid.users


def test_replace_all_uses_rewrites_every_slot_of_a_user():
    f = build_scale()
    a = f.params[1]
    b = ir.Builder()
    b.position_before(f.entry.terminator)
    sq = b.binary(ir.BinaryOpcode.FMUL, a, a, "sq")
    half = ir.Constant(ty.f32, 0.5)
    a.replace_all_uses_with(half)
    assert sq.operands == (half, half) and not a.users


def test_printer_numbers_values_that_share_a_name_in_order():
    f = ir.Function("k", ty.void, [ty.f32, ty.f32], ["x", "x.2"], is_kernel=True)
    b = ir.Builder(f.add_block("entry"))
    v = f.params[0]
    for _ in range(4):
        v = b.binary(ir.BinaryOpcode.FADD, v, f.params[1], "x")
    b.ret()
    text = ir.print_function(f)
    assert "(f32 %x, f32 %x.2)" in text
    assert [line.split(" = ")[0].strip() for line in text.splitlines() if " = " in line] == \
        ["%x.1", "%x.3", "%x.4", "%x.5"]  # x.2 is the parameter's
