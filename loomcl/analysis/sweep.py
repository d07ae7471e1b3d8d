"""Sweeps over instructions in program order to a fixed point, as a worklist (uniformity.py and
strides.py solve their data-flow problems with it).

An instruction is evaluated again only when an operand's value changed since its last evaluation:
later in this sweep, or in the next one for a back edge. A transfer function reads nothing else, and
joining an unchanged value changes nothing, so the result is that of repeated whole sweeps, in
linear time on straight-line code."""
from __future__ import annotations

import heapq
from typing import Callable, Sequence

from ..ir import instructions as ins


def sweep_to_fixed_point(insts: Sequence[ins.Instruction], evaluate: Callable[[ins.Instruction], bool]) -> None:
    """`evaluate(inst)` updates the instruction's value and says whether it changed."""
    position = {inst: n for n, inst in enumerate(insts)}
    sweep = list(range(len(insts)))
    while sweep:
        queued, next_sweep = set(sweep), set()
        heapq.heapify(sweep)
        while sweep:
            n = heapq.heappop(sweep)
            inst = insts[n]
            if not evaluate(inst):
                continue
            for user in inst.users.distinct():
                m = position.get(user)
                if m is None:
                    continue
                if m <= n:
                    next_sweep.add(m)
                elif m not in queued:
                    queued.add(m)
                    heapq.heappush(sweep, m)
        sweep = sorted(next_sweep)
