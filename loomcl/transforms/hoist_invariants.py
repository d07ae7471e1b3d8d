"""hoist-invariants: compute what every work-item of a loop computes alike once, before the loop.

A pure instruction in a work-item loop whose operands are all defined outside the loop (group ids,
arguments, uniform values of group-level code, constants) has the same value for every work-item:
it moves to the loop's preheader, and on outward through a nest. Integer division counts as pure
here, because code generation guards every divisor (0, and -1 against the minimum), so computing
a division that the kernel only reaches conditionally cannot trap.

Why not leave it to LLVM's LICM: LICM will not speculate a division it cannot prove safe, so a
uniform `in[5 % n]` under a varying branch stays in the loop, where LLVM 22's loop vectorizer
predicates it as a single scalar executed only when *lane 0* is active, and the other lanes read
through a poison address (tests/difftest/reported/workgroup/fuzz_293 and fuzz_343). Hoisted, it is
computed once per group and the vectorized loop sees a plain invariant.

Expects: the work-group form (`function.work_item_loops`). Guarantees: same behaviour; loads,
stores, atomics and phis never move.
"""
from __future__ import annotations

from ..analysis.manager import CFG_ANALYSES
from ..ir import instructions as ins
from ..ir.function import Block, Function, WorkItemLoop
from .passes import PassContext

NAME = "hoist-invariants"
PRESERVES = CFG_ANALYSES  # instructions move into existing preheaders


def _invariant(inst: ins.Instruction, blocks: set[Block]) -> bool:
    return inst.is_pure and all(
        not ins.defined_in(v, blocks) for v in inst.operands)


def hoist_loop(loop: WorkItemLoop) -> bool:
    blocks = loop.blocks
    preheader = loop.preheader
    moved = False
    for block in [b for b in loop.header.function.blocks if b in blocks]:  # definitions before uses
        for inst in list(block.instructions):
            if _invariant(inst, blocks):
                inst.detach()
                preheader.insert_before(preheader.terminator, inst)
                moved = True
    return moved


def run(function: Function, analyses: PassContext) -> bool:
    changed = False
    for loop in sorted(function.work_item_loops, key=lambda loop: len(loop.blocks)):  # inner first
        while hoist_loop(loop):  # again for operands defined in later blocks
            changed = True
    return changed
