"""How a value varies across the work-items of a group (its shape), and the uniformity rules that
instruction kinds declare: how the shape of a result follows from the shapes of the operands.

Shapes (hipSYCL 3.2.4, after Karrenberg & Hack sec. 3): UNIFORM (the same for all work-items),
CONSECUTIVE(stride) (value = base + stride * local_id(0), base uniform; pointers count the stride in
bytes), VARYING (anything else). The lattice is BOTTOM < UNIFORM, CONSECUTIVE(s) < VARYING: a join of
two different shapes (two strides, or a stride and a uniform value) is VARYING.

A kind declares its rule as its `uniformity` trait: one of the shared rules below (OPERANDS, NO_VALUE,
PER_WORK_ITEM, JOIN) or one of its own, written beside the class. The uniformity analysis
(analysis/uniformity.py) only applies the rules; a kind that declares none is VARYING there, the
answer that is never wrong (a new instruction is at worst slower, never silently miscompiled).
"""
from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import TYPE_CHECKING, Callable, Protocol

if TYPE_CHECKING:
    from ..values import Value
    from .base import Instruction

__all__ = ["Kind", "Shape", "BOTTOM", "UNIFORM", "VARYING", "consecutive", "ShapeOf", "UniformityRule",
           "OPERANDS", "NO_VALUE", "PER_WORK_ITEM", "JOIN"]


class Kind(enum.IntEnum):
    BOTTOM = 0
    UNIFORM = 1
    CONSECUTIVE = 2
    VARYING = 3


@dataclass(frozen=True)
class Shape:
    kind: Kind
    stride: int = 0

    def join(self, other: Shape) -> Shape:
        if Kind.BOTTOM in (self.kind, other.kind):
            return self if other.kind is Kind.BOTTOM else other
        if self == other:
            return self
        if Kind.CONSECUTIVE in (self.kind, other.kind):
            return VARYING  # two strides, or a stride and a constant: no common shape
        return self if self.kind >= other.kind else other

    @property
    def is_uniform(self) -> bool:
        return self.kind <= Kind.UNIFORM

    def __str__(self) -> str:
        return f"consecutive({self.stride})" if self.kind is Kind.CONSECUTIVE else self.kind.name.lower()


BOTTOM, UNIFORM, VARYING = Shape(Kind.BOTTOM), Shape(Kind.UNIFORM), Shape(Kind.VARYING)


def consecutive(stride: int) -> Shape:
    return UNIFORM if stride == 0 else Shape(Kind.CONSECUTIVE, stride)


class ShapeOf(Protocol):
    """What a rule may ask of the analysis applying it."""

    along_x: bool
    """Shapes along dimension 0 only (within one x work-item loop): local_id(1) and (2) are uniform."""

    def shape(self, value: Value) -> Shape: ...


@dataclass(frozen=True)
class UniformityRule:
    """A named transfer function: the shape of `inst`'s result from its operands' shapes."""

    name: str
    transfer: Callable[[Instruction, ShapeOf], Shape]

    def __call__(self, inst: Instruction, lanes: ShapeOf) -> Shape:
        return self.transfer(inst, lanes)


def _operands(inst: Instruction, lanes: ShapeOf) -> Shape:
    shapes = [lanes.shape(v) for v in inst.operands]
    if any(s.kind is Kind.BOTTOM for s in shapes):
        return BOTTOM
    return UNIFORM if all(s.is_uniform for s in shapes) else VARYING


def _join(inst: Instruction, lanes: ShapeOf) -> Shape:
    shape = BOTTOM
    for v in inst.operands:
        shape = shape.join(lanes.shape(v))
    return shape


OPERANDS = UniformityRule("operands", _operands)
"""Uniform where every operand is uniform, else varying (computations without state)."""
NO_VALUE = UniformityRule("no value", lambda inst, lanes: UNIFORM)
"""No result (stores, barriers, terminators): uniform keeps the lattice total."""
PER_WORK_ITEM = UniformityRule("per work-item", lambda inst, lanes: VARYING)
"""Different for each work-item whatever the operands: its own storage (alloca), an atomic's old
value, a call's or printf's result, an image read that may see another work-item's write."""
JOIN = UniformityRule("join", _join)
"""The join of the incoming values (phis; divergence adds to it in the analysis)."""
