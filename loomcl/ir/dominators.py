"""Dominator and post-dominator trees.

The iterative algorithm of Cooper, Harvey and Kennedy ("A Simple, Fast Dominance Algorithm", 2001):
number the blocks in reverse post-order, then intersect the predecessors' dominators until nothing
changes. Post-dominators run the same algorithm on the reversed CFG from a virtual exit that follows
every returning block. Unreachable blocks have no dominator.

Part of the IR, not of analysis/, because the verifier (verifier.py) checks that definitions dominate
their uses (LLVM keeps its dominator tree in IR/ for the same reason).
"""
from __future__ import annotations

from .function import Block, Function


def reverse_post_order(entry: Block, successors) -> list[Block]:
    order, seen = [], {entry}
    stack = [(entry, iter(successors(entry)))]
    while stack:
        block, children = stack[-1]
        for child in children:
            if child not in seen:
                seen.add(child)
                stack.append((child, iter(successors(child))))
                break
        else:
            stack.pop()
            order.append(block)
    order.reverse()
    return order


def _immediate_dominators(entry, successors, predecessors) -> dict:
    order = reverse_post_order(entry, successors)
    number = {b: i for i, b in enumerate(order)}
    idom = {entry: entry}

    def intersect(a, b):
        while a is not b:
            while number[a] > number[b]:
                a = idom[a]
            while number[b] > number[a]:
                b = idom[b]
        return a

    changed = True
    while changed:
        changed = False
        for block in order[1:]:
            preds = [p for p in predecessors(block) if p in idom]
            new = preds[0]
            for p in preds[1:]:
                new = intersect(p, new)
            if idom.get(block) is not new:
                idom[block] = new
                changed = True
    return idom


def immediate_dominators(entry: Block, successors, predecessors) -> dict:
    """`idom` of the graph given by the two functions (e.g. a subgraph of a CFG)."""
    return _immediate_dominators(entry, successors, predecessors)


def dominates(idom: dict, a, b) -> bool:
    """Whether a dominates b under the `idom` map (b unreachable: False)."""
    if b not in idom:
        return False
    while a is not b:
        parent = idom[b]
        if parent is b:
            return False
        b = parent
    return True


class DominatorTree:
    """`idom[b]` is b's immediate dominator (the entry maps to itself)."""

    def __init__(self, function: Function) -> None:
        preds = function.predecessors()
        self.idom = _immediate_dominators(function.entry, lambda b: b.successors, lambda b: preds[b])
        self.order = reverse_post_order(function.entry, lambda b: b.successors)

    def is_reachable(self, block: Block) -> bool:
        return block in self.idom

    def dominates(self, a: Block, b: Block) -> bool:
        """Whether every path from the entry to b passes through a (a block dominates itself).
        Anything dominates an unreachable block: no path reaches it."""
        return b not in self.idom or dominates(self.idom, a, b)

    def children(self) -> dict[Block, list[Block]]:
        tree: dict[Block, list[Block]] = {b: [] for b in self.idom}
        for b, parent in self.idom.items():
            if parent is not b:
                tree[parent].append(b)
        return tree

    def frontiers(self) -> dict[Block, set[Block]]:
        """Dominance frontiers (Cytron et al.), for placing phis."""
        preds = self.order[0].function.predecessors()
        frontier: dict[Block, set[Block]] = {b: set() for b in self.idom}
        for block in self.idom:
            reachable_preds = [p for p in preds[block] if p in self.idom]
            if len(reachable_preds) < 2:
                continue
            for p in reachable_preds:
                runner = p
                while runner is not self.idom[block]:
                    frontier[runner].add(block)
                    runner = self.idom[runner]
        return frontier


class _VirtualExit:
    name = "<exit>"


class PostDominatorTree:
    """Post-dominators; blocks that reach no return are post-dominated only by the virtual exit."""

    def __init__(self, function: Function) -> None:
        preds = function.predecessors()
        exits = [b for b in function.blocks if not b.successors]
        self.exit = _VirtualExit()

        def successors(b):  # of the reversed CFG
            return exits if b is self.exit else preds[b]

        def predecessors(b):
            return b.successors or [self.exit]

        self.idom = _immediate_dominators(self.exit, successors, predecessors)

    def post_dominates(self, a: Block, b: Block) -> bool:
        return dominates(self.idom, a, b)

    def immediate(self, block: Block) -> Block | None:
        parent = self.idom.get(block)
        return None if parent is None or parent is self.exit else parent
