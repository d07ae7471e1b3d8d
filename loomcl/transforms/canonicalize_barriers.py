"""canonicalize-barriers: give every barrier a block of its own, and add entry and exit barriers.

pocl's pass of the same name and hipSYCL 3.2.1: sub-CFG formation works on whole blocks, so each
barrier must be alone in a *barrier block*. Karrenberg & Hack 2.3 treat the kernel's entry and
exit as barriers too, so that every sub-CFG starts and ends at a barrier.

After this pass the function has exactly this shape:
  * The *prologue* is the entry block: every alloca, every work-item query and every argument
    extent (checked mode) of the function (hoisted there: queries have no operands and no side effects, so they are uniform across the
    whole function and never need to be carried across a barrier), then `jump` to the entry
    barrier block.
  * A *barrier block* holds a `barrier` and a `jump` (or, for the single exit barrier, a `ret`),
    nothing else, and no phis. The entry barrier block follows the prologue; the exit barrier block
    is the only block that returns (all returns are unified into it).
  * The successor of a non-exit barrier block has that barrier block as its only predecessor and
    no phis (edges are split where needed), so a sub-CFG entered through it needs no phi fix-ups.

Expects: a kernel without calls (after `inline`) returning void. Guarantees: the shape above, a
verified function.
"""
from __future__ import annotations

from ..ir import instructions as ins
from ..ir.function import Block, Function
from .inline import split_block_after
from .passes import PassContext

NAME = "canonicalize-barriers"
ENTRY_FLAGS = EXIT_FLAGS = 0


def is_barrier_block(block: Block) -> bool:
    return bool(block.instructions) and block.instructions[0].is_barrier


def unify_returns(function: Function) -> Block:
    """Make a single block `exit: ret` that all returns jump to; returns it."""
    returns = [b for b in function.blocks if isinstance(b.terminator, ins.Return)]
    exit_block = function.add_block("exit")
    exit_block.append(ins.Return())
    for block in returns:
        old = block.terminator
        old.detach()
        old.drop_operands()
        block.append(ins.Jump(exit_block))
    return exit_block


_PROLOGUE_KINDS = (ins.Alloca, ins.WorkItemQuery, ins.ArgumentExtent)


def make_prologue(function: Function) -> Block:
    old_entry = function.entry
    prologue = function.add_block("prologue")
    function.blocks.remove(prologue)
    function.blocks.insert(0, prologue)
    hoisted = [i for i in function.instructions() if isinstance(i, _PROLOGUE_KINDS)]
    for inst in hoisted:
        inst.detach()
        prologue.append(inst)
    entry_barrier = function.add_block("entry.barrier", after=prologue)
    entry_barrier.append(ins.Barrier(ENTRY_FLAGS))
    entry_barrier.append(ins.Jump(old_entry))
    prologue.append(ins.Jump(entry_barrier))
    return prologue


def isolate_barrier(barrier: ins.Barrier) -> Block:
    """Split the barrier's block so that the barrier starts a block of its own that holds only
    the barrier and a jump; returns that barrier block."""
    block = barrier.block
    index = block.instructions.index(barrier)
    if index > 0:  # anything before it (phis included) stays in the old block
        barrier_block = split_block_after(block.instructions[index - 1], block.name + ".barrier")
        block.append(ins.Jump(barrier_block))
        block = barrier_block
    if not isinstance(block.instructions[1], ins.Jump):
        tail = split_block_after(barrier, block.name + ".after")
        block.append(ins.Jump(tail))
    return block


def split_edge(source: Block, target: Block, name: str) -> Block:
    middle = source.function.add_block(name, after=source)
    middle.append(ins.Jump(target))
    source.terminator.replace_successor(target, middle)
    for phi in target.phis:
        phi.replace_incoming_block(source, middle)
    return middle


def run(function: Function, analyses: PassContext) -> bool:
    """Always a change: the prologue and the entry and exit barriers are new."""
    exit_block = unify_returns(function)
    make_prologue(function)
    for barrier in [i for i in function.instructions() if i.is_barrier]:
        isolate_barrier(barrier)
    exit_block.insert(0, ins.Barrier(EXIT_FLAGS))
    preds = function.predecessors()
    for block in list(function.blocks):
        if is_barrier_block(block) and block is not exit_block:
            (succ,) = block.successors
            if len(preds[succ]) > 1 or succ.phis or is_barrier_block(succ):
                split_edge(block, succ, block.name + ".next")
    return True
