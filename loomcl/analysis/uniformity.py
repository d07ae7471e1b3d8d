"""Uniformity and divergence: the shape of every value across the work-items of a work-group.

Shapes (hipSYCL 3.2.4, after Karrenberg & Hack sec. 3; the lattice lives in ir/ops/shapes.py): UNIFORM,
CONSECUTIVE(stride) (value = base + stride * local_id(0), base uniform), VARYING. Seeds: constants,
arguments and globals are uniform. Every instruction kind declares its own transfer rule (its
`uniformity` trait: local_id(0) is CONSECUTIVE(1), add and elementptr propagate strides, a load is
uniform only from a uniform __constant address, atomics and allocas vary, ...); this analysis only
applies them, and an instruction whose kind declares no rule is VARYING: a new instruction is at
worst slower, never wrongly taken for uniform.

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


from ..ir import instructions as ins
from ..ir.function import Block, Function
from ..ir.dominators import PostDominatorTree, reverse_post_order
from ..ir.ops.shapes import BOTTOM, UNIFORM, VARYING, Kind, Shape, consecutive  # noqa: F401 - shapes are asked for here
from ..ir.values import Value
from .sweep import sweep_to_fixed_point


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
        if not isinstance(value, ins.Instruction):
            return UNIFORM  # constants, arguments, globals
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
        shapes, forced = self.shapes, self.forced
        for inst in insts:
            shapes.setdefault(inst, BOTTOM)

        def evaluate(inst: ins.Instruction) -> bool:
            old = shapes[inst]
            new = VARYING if inst in forced else old.join(self._transfer(inst))
            if new == old:
                return False
            shapes[inst] = new
            return True

        sweep_to_fixed_point(insts, evaluate)

    def _mark_divergence(self) -> bool:
        """Find the branches newly divergent and force what their regions make VARYING; whether
        there were any. (A region found in an earlier round has forced its values already, and
        `forced` only grows, so only the new ones are walked.)"""
        new_regions = {}
        for block in self.order:
            term = block.terminator
            if term.selector is not None and not self.is_uniform(term.selector):
                if block not in self.divergent:
                    self.divergent.add(block)
                    self.regions[block] = new_regions[block] = self._region(block)
        if not new_regions:
            return False
        for branch, region in new_regions.items():
            join = self.postdom.immediate(branch)
            for block in region | ({join} if join else set()):
                self.forced.update(self._phis_forced_by(branch, block))
            forced = self.forced
            for block in region:
                for inst in block.instructions:
                    if inst not in forced and any(u.use_blocks(inst)[0] not in region for u in inst.users):
                        forced.add(inst)
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

    # -- transfer functions ---------------------------------------------------------------------

    def _transfer(self, i: ins.Instruction) -> Shape:
        """The rule the instruction's kind declares (its `uniformity` trait); none: VARYING."""
        rule = i.uniformity
        return VARYING if rule is None else rule(i, self)


def run(function: Function) -> Uniformity:
    return Uniformity(function)
