"""fold-local-id-guards: turn a guard on the local id into the bounds of the work-item loop.

In the structured form the reduction step `if (lid < s) t[lid] += t[lid + s];` becomes a
work-item loop over all L work-items whose body is that guard. Only the first s iterations do
anything, so the loop can run over 0..min(s, L) instead; `if (lid == 0)` becomes one iteration.
LLVMLITE.md measured this as the single biggest lever (3.3 -> 22 GB/s for a reduction): the
remaining iterations are all active, so the vectorized loop does no masked work.

Pattern, on an innermost `WorkItemLoop` (the x loop of a nest) that still runs over [0, L):
  * its header ends in `branch (cmp P id, u), A, B` (or with the operands swapped), where `id` is
    the loop's counter (or `trunc` of it to at least 32 bits: the ids are in [0, L)) and `u` is
    an integer defined outside the loop or computed in the header from such values by pure
    instructions (hoisted into the preheader: the header runs them for every work-item anyway;
    grid-stride-loops' `n - j`);
  * one target is the latch, or an empty block that jumps to it: the skipped work-items do
    nothing else (a latch never holds region code, see `WorkItemLoop`, so code after the guarded
    block keeps it from matching); the latch has no phis (the nest has a single successor, so no
    `%next` to keep);
  * everything else in the header is free of side effects (skipping it for idle work-items is safe);
  * the loop is entered from a single block (an edge of its own is made if that block branches)
    and leaves to a block without phis.
Then the counter runs over [lo, hi) computed before the loop (clamped to [0, L]), the loop is
skipped when the range is empty, and the guard becomes a jump to the active side.

The compared id may also be the counter plus loop-invariant id terms, `group_id * L + lid + offset`
(only work-item queries and the group base, which are never negative; `lid + k` with an arbitrary
`k` is left alone):
the global id, as in `if (get_global_id(0) < n)` or `int i = get_global_id(0); if (i < n)` (a
`trunc` marked no_wrap by narrow-work-item-ids). Then the bound is shifted by the invariant base
`B` before clamping; the base is non-negative and `B + id` cannot wrap, so the shift is exact when
done with saturation (`u - umin(u, B)` unsigned, `smax(u, -1) - B` signed). Pure invariant terms
computed inside the loop are hoisted into the preheader first.

Expects: the output of subcfg-formation (before or after simplify). Guarantees: same behaviour,
a verified function; loops that do not match are left alone.
"""
from __future__ import annotations

from ..ir import instructions as ins
from ..ir import types as ty
from ..ir.builder import Builder
from ..ir.function import Block, Function, WorkItemLoop
from ..ir.values import Constant, Value
from .canonicalize_barriers import split_edge
from .narrow_work_item_ids import within_global_range
from .passes import PassContext

NAME = "fold-local-id-guards"
P = ins.Predicate
_SWAPPED = {P.SLT: P.SGT, P.SGT: P.SLT, P.SLE: P.SGE, P.SGE: P.SLE, P.ULT: P.UGT, P.UGT: P.ULT,
            P.ULE: P.UGE, P.UGE: P.ULE, P.EQ: P.EQ, P.NE: P.NE}
_INVERSE = {P.SLT: P.SGE, P.SGE: P.SLT, P.SGT: P.SLE, P.SLE: P.SGT, P.ULT: P.UGE, P.UGE: P.ULT,
            P.UGT: P.ULE, P.ULE: P.UGT, P.EQ: P.NE, P.NE: P.EQ}


class _Match:
    def __init__(self, loop: WorkItemLoop, counter: ins.Phi, predicate: P, bound: Value,
                 active: Block, skip: Block, preheader: Block, exit_block: Block, limit: int,
                 base_terms: list[Value]) -> None:
        self.loop, self.counter, self.predicate, self.bound = loop, counter, predicate, bound
        self.active, self.skip, self.preheader, self.exit_block, self.limit = active, skip, preheader, exit_block, limit
        self.base_terms = base_terms  # the compared id is counter + sum(base_terms)


def _hoistable(value: Value, blocks: set[Block]) -> bool:
    """Defined outside the loop, or a pure instruction in it whose operands are (recursively)."""
    if not ins.defined_in(value, blocks):
        return True
    if not value.is_pure:
        return False
    return all(_hoistable(operand, blocks) for operand in value.operands)


def _counter_plus(value: Value, counter: ins.Phi, blocks: set[Block]) -> list[Value] | None:
    """The invariant terms t if value == counter + sum(t) (additions only), else None."""
    if value is counter:
        return []
    if not (isinstance(value, ins.BinaryOp) and value.opcode is ins.BinaryOpcode.ADD):
        return None
    for inner, other in ((value.lhs, value.rhs), (value.rhs, value.lhs)):
        terms = _counter_plus(inner, counter, blocks)
        if terms is not None and within_global_range(other) and _hoistable(other, blocks):
            return terms + [other]
    return None


def _compared_id(value: Value, counter: ins.Phi, blocks: set[Block]) -> list[Value] | None:
    """Base terms of a compared id: the counter itself, the counter plus invariant terms, or a
    truncation of those that is exact (any to >= 32 bits for the bare counter, whose values are
    below L; `no_wrap` ones for a sum)."""
    if isinstance(value, ins.Cast) and value.opcode is ins.CastOpcode.TRUNC and value.type.bits >= 32:
        terms = _counter_plus(value.value, counter, blocks)
        return terms if terms is not None and (not terms or value.no_wrap) else None
    return _counter_plus(value, counter, blocks)


def _full_range(loop: WorkItemLoop) -> int | None:
    """L, when the loop still runs over its whole range [0, L)."""
    lower, upper = loop.lower, loop.upper
    if isinstance(lower, Constant) and lower.value == 0 and isinstance(upper, Constant):
        return upper.value
    return None


def _skips_to_latch(block: Block, loop: WorkItemLoop) -> bool:
    if block is loop.latch:
        return True
    return (len(block.instructions) == 1 and isinstance(block.terminator, ins.Jump)
            and block.terminator.target is loop.latch)


def match(function: Function, loop: WorkItemLoop) -> _Match | None:
    counter, limit, blocks = loop.counter, _full_range(loop), loop.blocks
    term = loop.header.terminator
    if limit is None or not isinstance(term, ins.Branch) or not isinstance(term.condition, ins.Compare):
        return None
    if loop.latch.phis or loop.header is loop.latch:
        return None
    cmp = term.condition
    if (terms := _compared_id(cmp.lhs, counter, blocks)) is not None:
        predicate, bound = cmp.predicate, cmp.rhs
    elif (terms := _compared_id(cmp.rhs, counter, blocks)) is not None:
        predicate, bound = _SWAPPED.get(cmp.predicate), cmp.lhs
    else:
        return None
    if predicate is None or not isinstance(bound.type, ty.IntType):
        return None
    if not _hoistable(bound, blocks):
        return None
    if _skips_to_latch(term.if_false, loop):
        active, skip = term.if_true, term.if_false
    elif _skips_to_latch(term.if_true, loop):
        active, skip, predicate = term.if_false, term.if_true, _INVERSE[predicate]
    else:
        return None
    if predicate is P.NE or any(i.has_side_effects for i in loop.header.instructions[:-1]):
        return None
    if loop.exit.phis:
        return None
    return _Match(loop, counter, predicate, bound, active, skip, loop.preheader, loop.exit, limit, terms)


def _range(b: Builder, m: _Match) -> tuple[Value, Value]:
    """[lo, hi) of the ids that pass the guard, clamped to [0, L], as i64. Bounds of the form
    `min(max(u, -1), L - 1) + 1` cannot overflow, whatever u is."""
    signed = m.predicate in (P.SLT, P.SLE, P.SGT, P.SGE, P.EQ)
    u = m.bound
    if u.type is not ty.i64:
        u = b.cast(ins.CastOpcode.SEXT if signed else ins.CastOpcode.ZEXT, u, ty.i64, "guard.bound")
    if m.base_terms:
        u = _shift_by_base(b, m, u, signed)
    zero, limit = Constant(ty.i64, 0), Constant(ty.i64, m.limit)

    def clamp(v, low, high):
        if signed:
            v = b.math(ins.MathFunction.SMAX, [v, Constant(ty.i64, low)], name="guard.clamp")
            return b.math(ins.MathFunction.SMIN, [v, Constant(ty.i64, high)], name="guard.clamp")
        return b.math(ins.MathFunction.UMIN, [v, Constant(ty.i64, high)], name="guard.clamp")

    def through(v):  # the first id past v: min(max(v, -1), L - 1) + 1
        return b.add(clamp(v, -1, m.limit - 1), Constant(ty.i64, 1), "guard.next")

    p = m.predicate
    if p in (P.SLT, P.ULT):
        return zero, clamp(u, 0, m.limit)
    if p in (P.SLE, P.ULE):
        return zero, through(u)
    if p in (P.SGE, P.UGE):
        return clamp(u, 0, m.limit), limit
    if p in (P.SGT, P.UGT):
        return through(u), limit
    return clamp(u, 0, m.limit), through(u)  # EQ


def _hoist(value: Value, b: Builder, blocks: set[Block]) -> None:
    """Move a pure invariant instruction of the loop (and its operands) to the builder's point."""
    if ins.defined_in(value, blocks):
        for operand in value.operands:
            _hoist(operand, b, blocks)
        value.detach()
        b.insert(value)


def _shift_by_base(b: Builder, m: _Match, u: Value, signed: bool) -> Value:
    """The bound on the counter alone: u - base, saturated so that it stays exact (see above)."""
    base, blocks = None, m.loop.blocks
    for term in m.base_terms:
        _hoist(term, b, blocks)
        term = term if term.type is ty.i64 else b.cast(ins.CastOpcode.SEXT, term, ty.i64, "guard.term")
        base = term if base is None else b.add(base, term, "guard.base")
    if signed:
        u = b.math(ins.MathFunction.SMAX, [u, Constant(ty.i64, -1)], name="guard.bound")
        return b.sub(u, base, "guard.shifted")
    return b.sub(u, b.math(ins.MathFunction.UMIN, [u, base], name="guard.base"), "guard.shifted")


def fold(m: _Match) -> None:
    if not isinstance(m.preheader.terminator, ins.Jump):  # give the range check a block of its own
        m.preheader = split_edge(m.preheader, m.loop.header, m.loop.header.name + ".guard")
    b = Builder()
    b.position_before(m.preheader.terminator)
    _hoist(m.bound, b, m.loop.blocks)
    lo, hi = _range(b, m)
    nonempty = b.compare(P.SLT, lo, hi, "guard.any")
    old = m.preheader.terminator
    old.detach()
    old.drop_operands()
    m.preheader.append(ins.Branch(nonempty, m.loop.header, m.exit_block))
    m.loop.set_bounds(lo, hi)
    term = m.loop.header.terminator  # the guard: every id in the range passes it
    term.detach()
    term.drop_operands()
    m.loop.header.append(ins.Jump(m.active))


def run(function: Function, analyses: PassContext) -> bool:
    folded = False
    for loop in function.innermost_loops():
        found = match(function, loop)
        if found is not None:
            fold(found)
            folded = True
    return folded
