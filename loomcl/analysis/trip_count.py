"""Constant trip counts of small counted loops, evaluated rather than solved.

`for (i = C0; i OP C1; i += C2)` where C0, C1 and C2 are constants (or `get_local_size(d)` once
the local size is known): the compare is stepped until it fails, at most `limit` times, so a large
or unknown count costs little. Header-exit and latch-exit (rotated, `do while`) loops both count.
"""
from __future__ import annotations

from ..ir import instructions as ins
from ..ir import types as ty
from ..ir.values import Constant
from .loops import Loop, LoopInfo

# A loop of at most this many constant trips is unrolled: codegen tells LLVM so (codegen/unroll_hints.py),
# and the work-group passes count on it (implicit-loop-barriers, loop-order, wfv).
MAX_UNROLLED_TRIPS = 16
# ... and at most this many instructions once unrolled (with the unrolled loops around it): LLVM's
# unroller would decline a bigger one anyway, and the loop would stay inside the work-item loop.
MAX_UNROLLED_INSTRUCTIONS = 4096


def _constant(value, local_size) -> int | None:
    if isinstance(value, Constant) and isinstance(value.type, ty.IntType):
        return value.signed_value
    if ins.is_query(value, ins.Query.LOCAL_SIZE):
        return local_size[value.dim]
    if isinstance(value, ins.Cast) and value.opcode in (ins.CastOpcode.TRUNC, ins.CastOpcode.ZEXT, ins.CastOpcode.SEXT):
        return _constant(value.value, local_size)
    return None


_COMPARE = {"eq": lambda a, b: a == b, "ne": lambda a, b: a != b,
            "slt": lambda a, b: a < b, "sle": lambda a, b: a <= b, "sgt": lambda a, b: a > b,
            "sge": lambda a, b: a >= b, "ult": lambda a, b: a < b, "ule": lambda a, b: a <= b,
            "ugt": lambda a, b: a > b, "uge": lambda a, b: a >= b}


def constant_trip_count(loop: Loop, local_size, limit: int) -> int | None:
    """The trip count of `for (i = C0; i OP C1; i += C2)` shaped loops when it is at most `limit`
    (evaluated, not solved); None when unknown or larger."""
    exits = loop.exits()
    if len({b for b, _ in exits}) != 1:
        return None
    block = exits[0][0]
    term = block.terminator
    if not isinstance(term, ins.Branch) or not isinstance(term.operands[0], ins.Compare):
        return None
    cmp = term.operands[0]
    stay = term.successors[0] in loop.blocks  # the condition holds while the loop goes on
    pred = cmp.predicate.value
    if pred not in _COMPARE:
        return None
    lhs, rhs = cmp.operands
    bound, var, flip = _constant(rhs, local_size), lhs, False
    if bound is None:
        bound, var, flip = _constant(lhs, local_size), rhs, True
    if bound is None:
        return None
    if isinstance(var, ins.Cast) and var.opcode in (ins.CastOpcode.SEXT, ins.CastOpcode.ZEXT, ins.CastOpcode.TRUNC):
        var = var.value  # `(size_t)j < get_local_size(0)`
    offset = 0  # the compare may test i + C2 (a rotated loop)
    if isinstance(var, ins.BinaryOp) and var.opcode is ins.BinaryOpcode.ADD and isinstance(var.rhs, Constant):
        offset, var = var.rhs.signed_value, var.lhs
    if not isinstance(var, ins.Phi) or var.block is not loop.header:
        return None
    start, step = None, None
    for value, pred_block in var.incoming:
        if pred_block in loop.blocks:
            if not (isinstance(value, ins.BinaryOp) and value.lhs is var and isinstance(value.rhs, Constant)
                    and value.opcode in (ins.BinaryOpcode.ADD, ins.BinaryOpcode.SUB)):
                return None
            s = value.rhs.signed_value * (1 if value.opcode is ins.BinaryOpcode.ADD else -1)
            if step is not None and s != step:
                return None
            step = s
        else:
            c = _constant(value, local_size)
            if c is None or (start is not None and c != start):
                return None
            start = c
    if start is None or step is None:
        return None
    test = _COMPARE[pred]
    i = start
    for trips in range(limit + 1):
        a, b = (bound, i + offset) if flip else (i + offset, bound)
        if test(a, b) != stay:
            # header-exit loops run `trips` bodies; latch-exit ones one more: both small
            return trips + (0 if block is loop.header else 1)
        i += step
    return None


def unrolled_loops(info: LoopInfo, inside, local_size) -> dict[Loop, int]:
    """The loops `inside(loop)` accepts that are unrolled fully, with their trip counts: a constant
    trip count of at most MAX_UNROLLED_TRIPS, and at most MAX_UNROLLED_INSTRUCTIONS instructions
    once unrolled, counting the unrolled loops around it. Codegen tells LLVM to unroll exactly these
    (codegen/unroll_hints.py), and whole-function vectorization leaves exactly these to LLVM
    (transforms/wfv_shapes.py): one answer for both, or a loop too big to unroll would be neither
    unrolled nor vectorized across work-items (clpeak's float8 and float16 chains)."""
    trips: dict[Loop, int] = {}
    for loop in sorted(info.loops, key=lambda lp: -len(lp.blocks)):
        if not inside(loop):
            continue
        count = constant_trip_count(loop, local_size, MAX_UNROLLED_TRIPS)
        if count is None:
            continue
        outer = 1
        parent = loop.parent
        while parent is not None:
            outer *= trips.get(parent, 1)
            parent = parent.parent
        size = sum(len(b.instructions) for b in loop.blocks)
        if size * count * outer <= MAX_UNROLLED_INSTRUCTIONS:
            trips[loop] = count
    return trips
