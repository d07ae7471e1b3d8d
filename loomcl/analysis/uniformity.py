"""Uniformity and divergence: the shape of every value across the work-items of a work-group.

Shapes (hipSYCL 3.2.4, after Karrenberg & Hack sec. 3): UNIFORM (the same for all work-items),
CONSECUTIVE(stride) (value = base + stride * local_id(0), base uniform; pointers count the stride
in bytes), VARYING (anything else). The lattice is BOTTOM < UNIFORM, CONSECUTIVE(s) < VARYING: a phi of two different
shapes (two strides, or a stride and a uniform value) is VARYING.

Seeds: constants, arguments, globals and the NDRange queries are uniform; local_id(0) is
CONSECUTIVE(1), local_id(1) and local_id(2) are VARYING (they vary across the work-group, which is
what matters for values kept across barriers). Transfer: uniform operands give uniform results;
add/sub/shl/mul-by-constant and `elementptr` propagate strides; loads are VARYING unless the address
is uniform and in `__constant` memory (any other memory may be written by another work-item, or by
this one, between two loads: the safe rule); atomics are VARYING; allocas are VARYING (each
work-item has its own).

Divergence (K&H 3.2 "divergent control flow", Rosemann et al. 2021 in spirit): a branch or switch
on a non-uniform condition is divergent. Its region is every block reachable from its successors
without passing its immediate post-dominator P. Then
  * every phi in the region or in P is VARYING (work-items arrive along different edges), and
  * every value defined in the region and used outside it is VARYING (temporal divergence: a loop
    whose exit is divergent leaves each work-item with the value of its own last iteration).
Marking values VARYING can make more branches divergent, so shapes and divergence iterate to a
joint fixed point. The analysis never changes the IR.

`Uniformity(function, along_x=True)` gives the shapes along dimension 0 only: local_id(1) and
local_id(2) are seeds of UNIFORM, as they are constant within one innermost (x) work-item loop. That
tells how a memory access would vectorize across that loop; it is for cost models only, never for
legality (a barrier needs uniformity over the whole group).
"""
from __future__ import annotations

import enum
from dataclasses import dataclass

from ..ir import instructions as ins
from ..ir import types as ty
from ..ir.function import Block, Function
from ..ir.values import Argument, Constant, GlobalVariable, Undef, Value, VectorConstant
from ..ir.dominators import PostDominatorTree, reverse_post_order


class Kind(enum.IntEnum):
    BOTTOM = 0
    UNIFORM = 1
    CONSECUTIVE = 2
    VARYING = 3


@dataclass(frozen=True)
class Shape:
    kind: Kind
    stride: int = 0

    def join(self, other: "Shape") -> "Shape":
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


_UNIFORM_SOURCES = (Constant, Undef, VectorConstant, Argument, GlobalVariable)
Op = ins.BinaryOpcode


class Uniformity:
    """`shape(v)`, `is_uniform(v)`, `is_divergent(block)` (its terminator branches divergently)."""

    def __init__(self, function: Function, along_x: bool = False,
                 postdom: PostDominatorTree | None = None) -> None:
        self.function = function
        self.along_x = along_x
        self.order = reverse_post_order(function.entry, lambda b: b.successors)
        self.postdom = postdom or PostDominatorTree(function)
        self.shapes: dict[Value, Shape] = {}
        self.forced: set[Value] = set()  # made VARYING by divergence
        self.divergent: set[Block] = set()
        self.regions: dict[Block, set[Block]] = {}
        self._solve()

    # -- queries --------------------------------------------------------------------------------

    def shape(self, value: Value) -> Shape:
        if isinstance(value, _UNIFORM_SOURCES):
            return UNIFORM
        return self.shapes.get(value, VARYING)

    def is_uniform(self, value: Value) -> bool:
        return self.shape(value).is_uniform

    def is_divergent(self, block: Block) -> bool:
        return block in self.divergent

    def in_divergent_region(self, block: Block) -> bool:
        """Whether only some work-items may execute `block` (it lies inside a divergent region)."""
        return any(block in region for region in self.regions.values())

    # -- fixed point ----------------------------------------------------------------------------

    def _solve(self) -> None:
        while True:
            self._propagate_shapes()
            if not self._mark_divergence():
                return

    def _propagate_shapes(self) -> None:
        insts = [i for b in self.order for i in b.instructions]
        for inst in insts:
            self.shapes.setdefault(inst, BOTTOM)
        changed = True
        while changed:
            changed = False
            for inst in insts:
                new = VARYING if inst in self.forced else self.shapes[inst].join(self._transfer(inst))
                if new != self.shapes[inst]:
                    self.shapes[inst] = new
                    changed = True

    def _mark_divergence(self) -> bool:
        changed = False
        for block in self.order:
            term = block.terminator
            if isinstance(term, (ins.Branch, ins.Switch)) and not self.is_uniform(term.operands[0]):
                if block not in self.divergent:
                    self.divergent.add(block)
                    self.regions[block] = self._region(block)
                    changed = True
        if not changed:
            return False
        for branch, region in self.regions.items():
            join = self.postdom.immediate(branch)
            for block in region | ({join} if join else set()):
                self.forced.update(self._phis_forced_by(branch, block))
            for block in region:
                for inst in block.instructions:
                    if any(self._use_block(inst, u) not in region for u in inst.users):
                        self.forced.add(inst)
        return True

    def _phis_forced_by(self, branch: Block, block: Block) -> list[ins.Phi]:
        """The phis of `block` that the divergent `branch` makes VARYING (all, here)."""
        return block.phis

    def _region(self, branch: Block) -> set[Block]:
        join = self.postdom.immediate(branch)
        region, work = set(), list(branch.successors)
        while work:
            block = work.pop()
            if block is join or block in region:
                continue
            region.add(block)
            work += block.successors
        return region

    @staticmethod
    def _use_block(value: Value, user: ins.Instruction) -> Block:
        """Where a use happens: a phi uses its operand at the end of the incoming block."""
        if isinstance(user, ins.Phi):
            for v, b in user.incoming:
                if v is value:
                    return b
        return user.block

    # -- transfer functions ---------------------------------------------------------------------

    def _transfer(self, i: ins.Instruction) -> Shape:  # a flat dispatch
        if isinstance(i, ins.WorkItemQuery):
            if i.query is ins.Query.LOCAL_ID:
                return consecutive(1) if i.dim == 0 else UNIFORM if self.along_x else VARYING
            return UNIFORM
        if isinstance(i, ins.Phi):
            shape = BOTTOM
            for v in i.operands:
                shape = shape.join(self.shape(v))
            return shape
        if isinstance(i, (ins.Alloca, ins.AtomicRMW, ins.AtomicCmpXchg, ins.Call, ins.Printf, ins.ImageRead)):
            return VARYING  # per work-item effects: printf gives -1 to the calls whose record did not fit;
            # an image read may see another work-item's write
        if isinstance(i, ins.Load):
            p = i.pointer
            constant = isinstance(p.type, ty.PointerType) and p.type.address_space is ty.AddressSpace.CONSTANT
            return UNIFORM if constant and self.is_uniform(p) and not i.volatile else VARYING
        if isinstance(i, ins.BinaryOp):
            return self._binary(i)
        if isinstance(i, ins.ElementPtr):
            return self._element_ptr(i)
        if isinstance(i, ins.Cast):
            s = self.shape(i.value)
            keeps_stride = i.opcode in (ins.CastOpcode.TRUNC, ins.CastOpcode.ZEXT, ins.CastOpcode.SEXT)
            return s if s.kind is not Kind.CONSECUTIVE or keeps_stride else VARYING
        if isinstance(i, ins.FieldPtr):
            return self.shape(i.base)
        if i.is_terminator or isinstance(i, (ins.Store, ins.Barrier, ins.Fence, ins.ImageWrite)):
            return UNIFORM  # no value; keeps the lattice total
        return self._all_uniform(i)

    def _all_uniform(self, i: ins.Instruction) -> Shape:
        shapes = [self.shape(v) for v in i.operands]
        if any(s.kind is Kind.BOTTOM for s in shapes):
            return BOTTOM
        return UNIFORM if all(s.is_uniform for s in shapes) else VARYING

    def _binary(self, i: ins.BinaryOp) -> Shape:
        a, b = self.shape(i.lhs), self.shape(i.rhs)
        if a.kind is Kind.BOTTOM or b.kind is Kind.BOTTOM:
            return BOTTOM
        if a.is_uniform and b.is_uniform:
            return UNIFORM
        if Kind.VARYING in (a.kind, b.kind) or not isinstance(i.type, ty.IntType):
            return VARYING
        if i.opcode is Op.ADD:
            return consecutive(a.stride + b.stride)
        if i.opcode is Op.SUB:
            return consecutive(a.stride - b.stride)
        const = i.rhs if isinstance(i.rhs, Constant) else i.lhs if isinstance(i.lhs, Constant) else None
        if i.opcode is Op.MUL and const is not None:
            return consecutive((a.stride or b.stride) * const.signed_value)
        if i.opcode is Op.SHL and a.kind is Kind.CONSECUTIVE and isinstance(i.rhs, Constant) and i.rhs.value < 64:
            return consecutive(a.stride << i.rhs.value)
        return VARYING

    def _element_ptr(self, i: ins.ElementPtr) -> Shape:
        base, index = self.shape(i.base), self.shape(i.index)
        if base.kind is Kind.BOTTOM or index.kind is Kind.BOTTOM:
            return BOTTOM
        if base.is_uniform and index.is_uniform:
            return UNIFORM
        if Kind.VARYING in (base.kind, index.kind):
            return VARYING
        return consecutive(base.stride + index.stride * i.element_type.size)


def run(function: Function) -> Uniformity:
    return Uniformity(function)
