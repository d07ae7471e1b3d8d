"""Natural loops.

A back edge is an edge `tail -> header` where the header dominates the tail; the natural loop of a
header is the header plus every block that reaches one of its back-edge tails without passing
through the header (Aho, Lam, Sethi, Ullman, "Compilers", 9.6.6). Reducible CFGs, which OpenCL C
produces, have only such loops. Loops sharing a header are merged into one.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from ..ir.function import Block, Function
from ..ir.dominators import DominatorTree


def natural_loop_blocks(header: Block, tails: list[Block],
                        preds: dict[Block, list[Block]] | None = None) -> set[Block]:
    """The header and every block reaching a tail without passing through the header. `preds`: the
    function's predecessor map, when the caller has it (finding every loop of a function then
    derives it once, not once per loop)."""
    preds = header.function.predecessors() if preds is None else preds
    blocks = {header}
    stack = [t for t in tails if t is not header]
    blocks.update(stack)
    while stack:
        block = stack.pop()
        for pred in preds[block]:
            if pred not in blocks:
                blocks.add(pred)
                stack.append(pred)
    return blocks


@dataclass(eq=False)
class Loop:
    header: Block
    latches: list[Block]
    blocks: set[Block] = field(default_factory=set)
    parent: "Loop | None" = None

    def exits(self) -> list[tuple[Block, Block]]:
        """Edges (inside, outside) leaving the loop."""
        return [(b, s) for b in self.blocks for s in b.successors if s not in self.blocks]


class LoopInfo:
    """All natural loops of a function, with `innermost[block]` for each block inside one."""

    def __init__(self, function: Function, domtree: DominatorTree | None = None) -> None:
        domtree = domtree or DominatorTree(function)
        tails: dict[Block, list[Block]] = {}
        for block in domtree.order:
            for succ in block.successors:
                if domtree.dominates(succ, block):
                    tails.setdefault(succ, []).append(block)
        preds = function.predecessors() if tails else {}
        self.loops = [Loop(h, t, natural_loop_blocks(h, t, preds)) for h, t in tails.items()]
        self.loops.sort(key=lambda loop: len(loop.blocks))
        self.innermost: dict[Block, Loop] = {}
        for loop in self.loops:  # smallest first, so the first loop seen is the innermost
            for block in loop.blocks:
                self.innermost.setdefault(block, loop)
        for loop in self.loops:
            outer = [o for o in self.loops if o is not loop and loop.header in o.blocks
                     and len(o.blocks) > len(loop.blocks)]
            loop.parent = min(outer, key=lambda o: len(o.blocks)) if outer else None

    def loop_of(self, block: Block) -> Loop | None:
        return self.innermost.get(block)
