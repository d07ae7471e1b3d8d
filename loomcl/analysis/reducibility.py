"""Reducibility: whether every cycle of a CFG is a natural loop (entered only through its header).

The work-group transforms (loop analysis, sub-CFG formation) assume natural loops; only `goto`
can make a cycle with two entries. Test (Hecht & Ullman): a CFG is reducible iff it stays acyclic
after removing its back edges, the edges whose target dominates their source.
"""
from __future__ import annotations

from ..ir.function import Block, Function
from ..ir.dominators import DominatorTree


def irreducible_cycle_entry(function: Function) -> Block | None:
    """A block through which a cycle that is not a natural loop is entered, or None."""
    dominators = DominatorTree(function)
    forward = {b: [s for s in b.successors if not dominators.dominates(s, b)]
               for b in function.blocks if dominators.is_reachable(b)}
    state: dict[Block, str] = {}
    for block in forward:
        found = _cycle_in(block, forward, state)
        if found is not None:
            return found
    return None


def _cycle_in(start: Block, forward: dict, state: dict) -> Block | None:
    """Iterative depth-first search on the forward edges; a grey successor closes a cycle."""
    if state.get(start):
        return None
    stack = [(start, iter(forward[start]))]
    state[start] = "grey"
    while stack:
        block, successors = stack[-1]
        succ = next(successors, None)
        if succ is None:
            state[block] = "black"
            stack.pop()
        elif state.get(succ) == "grey":
            return succ
        elif succ not in state and succ in forward:
            state[succ] = "grey"
            stack.append((succ, iter(forward[succ])))
    return None
