"""Every instruction kind declares its meaning (ir/ops/base.py): operands by name, traits that agree
with each other, and a uniformity rule."""
import pytest

from loomcl.ir import instructions as ins
from loomcl.ir import types as ty
from loomcl.ir.ops import instruction_classes
from loomcl.ir.values import Constant

KINDS = instruction_classes()


@pytest.mark.parametrize("kind", KINDS, ids=lambda k: k.__name__)
def test_traits_agree(kind):
    effects = kind.writes_memory or kind.has_other_effects or kind.is_terminator or kind.is_barrier
    assert kind.has_side_effects == effects
    assert not (kind.is_pure and (kind.has_side_effects or kind.reads_memory))
    assert not (kind.is_lanewise and not kind.is_pure)
    assert kind.uniformity is not None, f"{kind.__name__} declares no uniformity rule"


def test_the_effects_of_memory_and_synchronization():
    assert ins.Store.writes_memory and not ins.Store.reads_memory
    assert ins.AtomicRMW.reads_memory and ins.AtomicRMW.writes_memory
    assert ins.Load.reads_memory and not ins.Load.has_side_effects
    assert ins.Barrier.is_barrier and ins.Barrier.has_side_effects and not ins.Fence.is_barrier
    assert ins.Printf.has_other_effects and not ins.Printf.writes_memory
    assert not ins.Alloca.is_pure and not ins.Alloca.has_side_effects


def test_operands_are_properties_named_by_the_kind():
    a, b = Constant(ty.i32, 1), Constant(ty.i32, 2)
    check = ins.CheckAccess(0, 4, Constant(ty.pointer(ty.AddressSpace.GLOBAL), 0),
                            Constant(ty.pointer(ty.AddressSpace.GLOBAL), 0), Constant(ty.i64, 8),
                            [Constant(ty.i64, 0)] * 3)
    assert ins.BinaryOp(ins.BinaryOpcode.ADD, a, b).rhs is b
    assert ins.BinaryOp.operand_names == ("lhs", "rhs")
    assert check.extent.value == 8 and check.local_ids == (Constant(ty.i64, 0),) * 3


def test_selector_is_what_picks_the_successor():
    from loomcl.ir.function import Block

    c = Constant(ty.i1, 1)
    x, y = Block("x"), Block("y")
    assert ins.Branch(c, x, y).selector is c and ins.Jump(x).selector is None
    assert ins.Switch(Constant(ty.i32, 0), x, [(1, y)]).selector.value == 0


def test_with_operands_keeps_kind_and_fields():
    a, b = Constant(ty.i32, 1), Constant(ty.i32, 2)
    add = ins.BinaryOp(ins.BinaryOpcode.SUB, a, b, "d", no_signed_wrap=True)
    lane = add.with_operands([b, a])
    assert type(lane) is ins.BinaryOp and lane.opcode is ins.BinaryOpcode.SUB and lane.no_signed_wrap
    assert lane.operands == (b, a) and lane.name == "d"
