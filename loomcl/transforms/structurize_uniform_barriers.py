"""structurize-uniform-barriers: choose the uniform control flow around barriers that runs once per
work-group, as scalar control flow around the work-item loops (the structured form).

Plain CBS puts every block inside some work-item loop, so a barrier loop like the reduction's
`for (s = L/2; s > 0; s >>= 1) { if (lid < s) ...; barrier(); }` becomes a dispatcher that runs
all work-items through the loop test once per iteration. When the loop's control is uniform, the
group can run it once instead: its header and latch stay scalar, and only the work between
barriers is wrapped in work-item loops (Karrenberg & Hack 4 "retaining uniform control flow";
LLVMLITE.md measured 1.8 -> 3.3 GB/s for this alone, and it enables fold-local-id-guards).

A block is chosen (runs at group level) when
  * every instruction has no effect but where control goes (no store, atomic, barrier, printf or
    return: the traits say), reads memory only where its result is uniform (a uniform load from
    __constant: the uniformity analysis calls no other read uniform), and it is uniform, and so are
    all its operands, and its branch condition is uniform;
  * it lies in no divergent region (all work-items that reach the kernel's barriers reach it);
  * it matters for barriers: its innermost loop contains a barrier, or its conditional branch can
    reach a barrier before the branch's join. Uniform control flow without barriers (an ordinary
    loop in a barrier-free kernel) stays inside the work-item loop, the fast common path.
A block that ends in such a branch but also does other work is split before the branch first.
A block that qualifies except for varying phis (a per-work-item accumulator carried around a tile
loop) still runs at group level after its varying phis are demoted to private variables: each
incoming value is stored to the variable at the end of the incoming edge (on a split edge when the
edge leaves a group-level block; or right after the value's definition when no use of the old
value can follow it), and each use loads it; the copies of one edge are parallel copies
(`ssa_destruction`: a swap across a barrier must not lose a value). Sub-CFG formation then gives that
variable a context array.

Correctness does not depend on which qualifying blocks are chosen (sub-CFG formation handles any
subset); the rules only pick the profitable ones.

Expects: the shape canonicalize-barriers produces; uniformity, loops and post-dominators come from
the analyses (recomputed after the branch splitting, which changes the CFG). Leaves the chosen blocks
in `analyses.group_blocks` for subcfg-formation; the function verifies afterwards.
"""
from __future__ import annotations

from ..analysis.uniformity import Uniformity
from ..ir import instructions as ins
from ..ir.function import Block, Function
from .canonicalize_barriers import is_barrier_block, split_edge
from .inline import split_block_after
from .passes import PassContext
from .ssa_destruction import demote_phis

NAME = "structurize-uniform-barriers"


class _Chooser:
    def __init__(self, function: Function, analyses: PassContext) -> None:
        self.function = function
        self.uniformity = analyses.uniformity
        self.loops = analyses.loops
        self.postdom = analyses.post_dominators
        self.barriers = {b for b in function.blocks if is_barrier_block(b)}

    def chosen(self) -> set[Block]:
        return {b for b in self.function.blocks[1:]
                if b not in self.barriers and self.qualifies(b) and self.matters(b)}

    def qualifies(self, block: Block) -> bool:
        if self.uniformity.in_divergent_region(block):
            return False
        for inst in block.instructions:
            if isinstance(inst, ins.Phi) and not self.uniformity.is_uniform(inst):
                continue  # demoted later
            if not self.pure_and_uniform(inst):
                return False
        return True

    def pure_and_uniform(self, inst: ins.Instruction) -> bool:
        """Whether one execution for the group stands for every work-item's: no effect besides
        choosing a successor, and uniform operands and result."""
        if inst.has_side_effects and not (inst.is_terminator and inst.successors):
            return False
        if not all(self.uniformity.is_uniform(v) for v in inst.operands):
            return False
        return inst.is_terminator or self.uniformity.is_uniform(inst)

    def matters(self, block: Block) -> bool:
        loop = self.loops.loop_of(block)
        if loop is not None and loop.blocks & self.barriers:
            return True
        if len(set(block.successors)) > 1:
            return self.reaches_barrier_before_join(block)
        return False

    def reaches_barrier_before_join(self, block: Block) -> bool:
        join = self.postdom.immediate(block)
        seen, work = set(), list(block.successors)
        while work:
            b = work.pop()
            if b is join or b in seen:
                continue
            if b in self.barriers:
                return True
            seen.add(b)
            work += b.successors
        return False


def demote_varying_phis(function: Function, chosen: set[Block], uniformity: Uniformity) -> bool:
    """Turn the varying phis of chosen blocks into private variables (see the module docstring);
    whether there were any."""
    # In block order: a set of blocks iterates in an order that changes from run to run.
    phis = [p for b in function.blocks if b in chosen for p in b.phis if not uniformity.is_uniform(p)]
    demoted = set(phis)
    split: dict[tuple[Block, Block], Block] = {}

    def edge_block(pred: Block, succ: Block) -> Block:
        """Where code for the edge pred -> succ can run per work-item: pred itself, or a new block
        on the edge when pred runs at group level."""
        if pred not in chosen:
            return pred
        if (pred, succ) not in split:
            split[pred, succ] = split_edge(pred, succ, f"{pred.name}.to.{succ.name}")
        return split[pred, succ]

    def store_early(phi: ins.Phi, value) -> bool:
        return _can_store_at_definition(value, phi, chosen, demoted)

    demote_phis(function, phis, edge_block, store_early)
    return bool(phis)


def _can_store_at_definition(value, phi: ins.Phi, chosen: set[Block], demoted: set[ins.Phi]) -> bool:
    """Whether `variable := value` may run right after value's definition instead of on the edge
    into the phi's block: no use of the phi (its old value) may follow the definition before the
    phi's block is entered again. Saves a work-item loop that would only copy the value (the
    accumulator of a tiled matrix product). `value` must be defined per work-item."""
    if not isinstance(value, ins.Instruction) or value in demoted or value.block in chosen:
        return False
    if value.block is value.block.function.entry:
        return False
    header, home = phi.block, value.block
    use_blocks = set()
    for user in phi.users:
        if isinstance(user, ins.Phi):  # read on the edge, at the very end of its block
            blocks = [b for v, b in user.incoming if v is phi]
            if home in blocks:  # `prev = cur; cur = f(cur)`: the edge copy of prev follows cur's definition
                return False
        else:
            blocks = [user.block]
            if user.block is home and home.instructions.index(user) > home.instructions.index(value):
                return False
        use_blocks.update(blocks)
    seen, work = {home}, list(home.successors)
    while work:
        block = work.pop()
        if block is header or block in seen:
            continue
        if block in use_blocks:
            return False
        seen.add(block)
        work += block.successors
    # every way into the phi's block from here must carry this value (another incoming value's
    # store could otherwise be overwritten)
    return all(phi.value_for(b) is value for b in seen if header in b.successors)


def split_uniform_branches(function: Function, analyses: PassContext) -> bool:
    """Give a uniform branch that decides whether a barrier is reached a block of its own, so
    that it can run at group level even when the code before it cannot."""
    chooser = _Chooser(function, analyses)
    uniformity = chooser.uniformity
    split = False
    for block in list(function.blocks[1:]):
        term = block.terminator
        if len(block.instructions) == 1 or block in chooser.barriers or len(set(term.successors)) < 2:
            continue
        if not chooser.pure_and_uniform(term) or uniformity.in_divergent_region(block):
            continue
        if chooser.qualifies(block) or not chooser.reaches_barrier_before_join(block):
            continue
        tail = split_block_after(block.instructions[-2], block.name + ".uniform")
        block.append(ins.Jump(tail))
        split = True
    return split


def run(function: Function, analyses: PassContext) -> bool:
    split = split_uniform_branches(function, analyses)
    if split:
        analyses.invalidate()
    chooser = _Chooser(function, analyses)
    analyses.group_blocks = chooser.chosen()
    demoted = demote_varying_phis(function, analyses.group_blocks, chooser.uniformity)
    return split or demoted
