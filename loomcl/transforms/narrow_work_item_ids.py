"""narrow-work-item-ids: mark `(int)get_global_id(d)` and friends as exact truncations.

Kernels almost always keep work-item ids in `int`: `int i = get_global_id(0); if (i < n) c[i] = ...`.
The narrowing `trunc i64 -> i32` is then sign-extended back for the address, and LLVM cannot prove
`sext(trunc(x)) == x`: addresses stop being affine in the work-item loop, so it needs per-lane masks
and cannot fold the `i < n` guard (LLVMLITE.md, "index width"). When the runtime promises that every
global id of the launch fits in an int (offset + global size <= INT_MAX, checked per launch and part
of the specialization key), such truncations are exact and carry `no_wrap` (`trunc nuw nsw`).

Only values provably within [0, offset + global size] are marked: any work-item query, the group
base `group_id * enqueued_local_size`, that plus `local_id`, and that plus `global_offset` — the
shapes lowering gives `get_global_id`. Arbitrary arithmetic on ids (`gid * 4`) is left alone.
Runs on SSA in work-item form (after inlining and mem2reg), before work-group formation.
"""
from __future__ import annotations

from ..ir import instructions as ins
from ..ir import types as ty
from ..analysis.manager import CFG_ANALYSES
from ..ir.function import Function
from .passes import PassContext

NAME = "narrow-work-item-ids"
PRESERVES = CFG_ANALYSES  # it only marks casts
Q = ins.Query


def _query(value, *queries: Q) -> bool:
    return isinstance(value, ins.WorkItemQuery) and (not queries or value.query in queries)


def _is_binary(value, opcode: ins.BinaryOpcode) -> bool:
    return isinstance(value, ins.BinaryOp) and value.opcode is opcode


def _group_base(value) -> bool:
    """group_id(d) * enqueued_local_size(d), in either operand order."""
    if not _is_binary(value, ins.BinaryOpcode.MUL):
        return False
    a, b = value.lhs, value.rhs
    return (_query(a, Q.GROUP_ID) and _query(b, Q.ENQUEUED_LOCAL_SIZE)) or (
        _query(b, Q.GROUP_ID) and _query(a, Q.ENQUEUED_LOCAL_SIZE))


def _sum_of(value, left, right) -> bool:
    if not _is_binary(value, ins.BinaryOpcode.ADD):
        return False
    a, b = value.lhs, value.rhs
    return (left(a) and right(b)) or (left(b) and right(a))


def within_global_range(value) -> bool:
    """Whether `value` lies in [0, global_offset + global_size] by construction."""
    if _query(value) or _group_base(value):
        return True
    local_id = lambda v: _query(v, Q.LOCAL_ID)  # noqa: E731
    offset = lambda v: _query(v, Q.GLOBAL_OFFSET)  # noqa: E731
    without_offset = lambda v: _group_base(v) or _sum_of(v, _group_base, local_id)  # noqa: E731
    return without_offset(value) or _sum_of(value, without_offset, offset)


def run(function: Function, analyses: PassContext) -> bool:
    return mark_exact_truncations(function) > 0


def mark_exact_truncations(function: Function) -> int:
    """Mark qualifying truncations to 32 bits or wider; returns how many were marked."""
    marked = 0
    for inst in function.instructions():
        if (isinstance(inst, ins.Cast) and inst.opcode is ins.CastOpcode.TRUNC and not inst.no_wrap
                and isinstance(inst.type, ty.IntType) and inst.type.bits >= 32 and within_global_range(inst.value)):
            inst.no_wrap = True
            marked += 1
    return marked
