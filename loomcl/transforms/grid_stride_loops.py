"""grid-stride-loops: give a grid-stride loop the group's trip count, so the work-item loop goes inside.

What: `for (i = base + lid; i < n; i += G) body(i)` (pyopencl's elementwise kernels, and the usual
hand-written `for (i = get_global_id(0); i < n; i += get_global_size(0))`) becomes

    for (j = base; j < n; j += G)          // the same for every work-item of the group
        if (lid <u n - j) body(j + lid)    // i = j + lid, as before

Why: each work-item's trip count differs by one at most, so the loop is not uniform and the
work-item loop stays around it: each work-item (or each 16 lanes, under whole-function
vectorization) walks the whole array with steps of the global size, touching one cache line per
page. After the rewrite the loop is uniform: implicit-loop-barriers interchanges it with the work-item
loop, and each iteration's work-item loop walks `L` consecutive elements, its guard folded into the
loop's bound (fold-local-id-guards: `lid <u n - j` is the shape it narrows).

Why it is exact, per work-item (nothing here relies on other work-items: the rewrite is legal
whatever the rest of the kernel does; uniformity only says whether it pays):
  * the start is `U + lid` exactly: an addition tree (`nsw`, or the lowering's non-wrapping id
    shapes) with one term `local_id(0)` (through value-preserving casts) and the others' sum `U`,
    of which at most one term may be negative (the rest are work-item queries and their products),
    so `U` lies between that term and the start: it does not wrap;
  * the step `G` is positive by construction (a size query, a positive constant, products and
    non-wrapping casts of those), the compare `slt`, and the increment `add nsw` (C's signed overflow
    is undefined, so the original never wraps either) or one whose wrap-around is defined: `long i
    += get_global_size(0)` (unsigned arithmetic converted back) or `int i += get_global_size(0)`
    (`(int)((long)i + G)`). Those are exact only while `n <= MAX - G`: a run-time check in the
    preheader (uniform) enters the rewritten loop then, and an untouched copy of the loop otherwise;
  * then iteration k of the original runs iff `i_k = U + lid + k*G < n`, exactly the iterations the
    new loop runs unguarded, with the same `i_k = j_k + lid`, in the same order: `j_k <= i_k`, so `j`
    is still below `n` when `i` is; `lid <u n - j` is `j + lid < n` computed without overflow (n - j
    is positive). `j += G` saturates at the type's maximum (which is >= n: the loop ends) instead of
    wrapping;
  * the loop is left only from its header, whose only phi is `i` (pure invariant code beside its
    test, as `(long)(n - 7)`, moves to the preheader: the header ran it first anyway), nothing
    defined in the loop is used after it, and its single latch jumps back unconditionally.
Declined (left as they are): more header phis (an accumulator: pyopencl's reduction's first stage;
the skipped iterations would have to carry it), `ult` compares (unsigned counters: the saturating
step and the check would need their unsigned twins), barriers inside, `break`/`return` inside,
starts not affine in local_id(0), loops nested in varying control flow (the loop would not become
uniform).

Expects: SSA in work-item form after narrow-work-item-ids (its `trunc nuw nsw` marks), before
implicit-loop-barriers (which then sees a uniform loop). Guarantees: a verified function, each
rewritten loop named in a `; grid-stride` remark.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from ..analysis.loops import Loop
from ..analysis.uniformity import Uniformity
from ..ir import instructions as ins
from ..ir import types as ty
from ..ir.builder import Builder
from ..ir.function import Block, Function
from ..ir.values import Constant, Value
from .clone import clone_blocks
from .narrow_work_item_ids import within_global_range
from .passes import PassContext

NAME = "grid-stride-loops"
Q = ins.Query
OP = ins.BinaryOpcode
CAST = ins.CastOpcode
_SIZES = (Q.GLOBAL_SIZE, Q.LOCAL_SIZE, Q.ENQUEUED_LOCAL_SIZE, Q.NUM_GROUPS)


def run(function: Function, analyses: PassContext) -> bool:
    size = analyses.local_size
    if size[0] == 1:
        return False
    uniformity, loops = analyses.uniformity, analyses.loops
    matches = [m for m in (_match(loop, uniformity) for loop in loops.loops) if m is not None]
    rewritten: set[Block] = set()
    for match in matches:  # innermost first; a loop around a rewritten one keeps its stale analysis: left alone
        if match.loop.blocks & rewritten:
            continue
        rewritten |= match.loop.blocks
        _rewrite(match)
        checked = ", when n + G cannot wrap (else the original loop)" if match.wide else ""
        function.remarks.append(f"grid-stride {match.loop.header.name}: one trip count for the group, "
                                f"work-items guarded{checked}")
    return bool(rewritten)


# -- recognizing the loop ------------------------------------------------------------------------

def _match(loop: Loop, uniformity: Uniformity):
    header = loop.header
    if len(loop.latches) != 1 or _under_varying_control(loop, uniformity):
        return None
    if any(inst.is_barrier for block in loop.blocks for inst in block.instructions):
        return None  # its work-items meet there: the loop is not theirs to reorder
    latch = loop.latches[0]
    outside = [p for p in header.function.predecessors()[header] if p not in loop.blocks]
    if len(outside) != 1 or not isinstance(latch.terminator, ins.Jump):
        return None
    preheader = outside[0]
    phis = header.phis
    term = header.terminator
    if len(phis) != 1 or not isinstance(term, ins.Branch) or len(loop.exits()) != 1:
        return None
    (i,) = phis
    if not isinstance(i.type, ty.IntType) or i.type.bits < 32:  # the local id must fit the counter
        return None
    cond = term.condition
    inside, out = term.successors
    if (not isinstance(cond, ins.Compare) or cond.predicate is not ins.Predicate.SLT or cond.lhs is not i
            or cond.block is not header or inside not in loop.blocks or out in loop.blocks or len(cond.users) != 1):
        return None
    extras = [inst for inst in header.instructions[len(phis):-1] if inst is not cond]
    for index, inst in enumerate(extras):  # only invariant code (`(long)(n - 1)`) besides the test: hoisted
        if not inst.is_pure or any(_defined_in(v, loop) and v not in extras[:index] for v in inst.operands):
            return None
    n = cond.rhs
    if (_defined_in(n, loop) and n not in extras) or not uniformity.is_uniform(n):
        return None
    step = i.value_for(latch)
    stride, wide = _step(step, i)
    if stride is None or not _positive(stride) or not _invariant(stride, loop) or not uniformity.is_uniform(stride):
        return None
    if wide is not None and not isinstance(preheader.terminator, ins.Jump):
        return None  # the run-time check needs the preheader's edge to itself
    base = _split_start(i.value_for(preheader), uniformity)
    if base is None or _used_after(loop):
        return None
    return Match(loop, i, cond, step, preheader, latch, n, stride, base, wide, extras)


@dataclass
class Match:
    loop: Loop
    i: ins.Phi
    cond: ins.Compare
    step: Value
    preheader: Block
    latch: Block
    n: Value
    stride: Value
    """G: in the counter's type, or (with `wide`) the wider value the counter is stepped by."""
    base: list
    wide: str | None
    """None: `i += G` cannot wrap (`add nsw`). "same": `i + G` may wrap in the counter's type (`long i
    += get_global_size(0)`: unsigned arithmetic converted back); "narrow": `(T)((wide)i + G)` (`int i
    += get_global_size(0)`). Both are exact when `n <= MAX - G`, which a run-time check decides: the
    rewritten loop then, the original loop (kept as a copy) otherwise."""
    extras: list = field(default_factory=list)
    """Invariant pure instructions of the header besides the test (`(long)n`): hoisted."""
    original_header: Block | None = None  # the copy's header, where the check fails


def _step(step: Value, i: ins.Phi):
    """(G, wide) when `step` is `i + G` (see Match.wide), else (None, None)."""
    if isinstance(step, ins.BinaryOp) and step.opcode is OP.ADD and step.lhs is i:
        return step.rhs, (None if step.no_signed_wrap else "same")
    if isinstance(step, ins.Cast) and step.opcode is CAST.TRUNC and isinstance(step.value, ins.BinaryOp):
        add = step.value
        widened = add.lhs
        if (add.opcode is OP.ADD and isinstance(widened, ins.Cast) and widened.opcode is CAST.SEXT
                and widened.value is i):
            return add.rhs, "narrow"
    return None, None


def _under_varying_control(loop: Loop, uniformity: Uniformity) -> bool:
    """Whether some work-items may skip the loop: its header lies in the divergent region of a branch
    outside it (its own exit test is varying: that is what the rewrite removes)."""
    return any(loop.header in region for branch, region in uniformity.regions.items() if branch not in loop.blocks)


def _defined_in(value: Value, loop: Loop) -> bool:
    return isinstance(value, ins.Instruction) and value.block in loop.blocks


def _invariant(value: Value, loop: Loop) -> bool:
    """Defined outside the loop, or a work-item query, pure cast or product of such (hoisted by the rewrite)."""
    if not _defined_in(value, loop):
        return True
    return (isinstance(value, (ins.Cast, ins.BinaryOp, ins.WorkItemQuery)) and value.block is not loop.header
            and all(_invariant(v, loop) for v in value.operands))


def _used_after(loop: Loop) -> bool:
    return any(user.block not in loop.blocks for block in loop.blocks for inst in block.instructions
               for user in inst.users.distinct())


def _non_negative(value: Value) -> bool:
    """Non-negative by construction: work-item queries and their sums and products (all far below
    2^62), non-wrapping truncations and extensions of those, non-negative constants."""
    if isinstance(value, Constant):
        return isinstance(value.type, ty.IntType) and value.signed_value >= 0
    if isinstance(value, ins.WorkItemQuery):
        return True
    if isinstance(value, ins.Cast):
        if value.opcode in (CAST.SEXT, CAST.ZEXT) or (value.opcode is CAST.TRUNC and value.no_wrap):
            return _non_negative(value.value)
        return False
    if isinstance(value, ins.BinaryOp) and value.opcode in (OP.ADD, OP.MUL):
        return (value.no_signed_wrap or value.type.bits == 64) and all(_non_negative(v) for v in value.operands)
    return False


def _positive(value: Value) -> bool:
    """At least 1 by construction: size queries, positive constants, their non-wrapping products and casts."""
    if isinstance(value, Constant):
        return isinstance(value.type, ty.IntType) and value.signed_value > 0
    if isinstance(value, ins.WorkItemQuery):
        return value.query in _SIZES
    if isinstance(value, ins.Cast):
        if value.opcode in (CAST.SEXT, CAST.ZEXT) or (value.opcode is CAST.TRUNC and value.no_wrap):
            return _positive(value.value)
        return False
    if isinstance(value, ins.BinaryOp) and value.opcode is OP.MUL:
        return (value.no_signed_wrap or value.type.bits == 64) and all(_positive(v) for v in value.operands)
    return False


def _is_local_id_x(value: Value) -> bool:
    """local_id(0), through casts that keep its value (it is below 2^31)."""
    while isinstance(value, ins.Cast) and (value.opcode in (CAST.SEXT, CAST.ZEXT)
                                           or (value.opcode is CAST.TRUNC and value.no_wrap)):
        if isinstance(value.type, ty.IntType) and value.type.bits < 32:
            return False
        value = value.value
    return isinstance(value, ins.WorkItemQuery) and value.query is Q.LOCAL_ID and value.dim == 0


def _terms(value: Value) -> list[tuple[Value, list[ins.Cast]]]:
    """Terms whose exact sum is `value`, each with the casts (innermost first) that bring it to
    `value`'s type: nsw additions and the lowering's id sums split; an extension or non-wrapping
    truncation of a split sum distributes over its terms when the sum cannot wrap."""
    if _is_local_id_x(value):
        return [(value, [])]
    if isinstance(value, ins.BinaryOp) and value.opcode is OP.ADD and (
            value.no_signed_wrap or within_global_range(value)):
        return _terms(value.lhs) + _terms(value.rhs)
    if isinstance(value, ins.Cast) and isinstance(value.value, ins.BinaryOp) and (
            value.opcode is CAST.SEXT and value.value.no_signed_wrap
            or value.opcode is CAST.TRUNC and value.no_wrap and within_global_range(value.value)):
        return [(t, casts + [value]) for t, casts in _terms(value.value)]
    return [(value, [])]


def _split_start(start: Value, uniformity: Uniformity):
    """The terms of `start` other than its one local_id(0) term (None if it is not `U + lid`)."""
    terms = _terms(start)
    ids = [t for t in terms if _is_local_id_x(t[0])]
    rest = [t for t in terms if not _is_local_id_x(t[0])]
    if len(ids) != 1 or not all(uniformity.is_uniform(t) for t, _ in rest):
        return None
    if sum(1 for t, _ in rest if not _non_negative(t)) > 1:
        return None  # then U could wrap below the type's minimum
    return rest


# -- the rewrite ---------------------------------------------------------------------------------

def _rewrite(m: Match) -> None:
    loop, i, n, preheader, latch = m.loop, m.i, m.n, m.preheader, m.latch
    function, header, t = preheader.function, loop.header, i.type
    if m.wide is not None:
        _keep_original(m)
    b = Builder()
    b.position_before(preheader.terminator)
    for inst in m.extras:
        inst.detach()
        b.insert(inst)
    stride = _hoist(m.stride, loop, b)
    if m.wide is not None:
        stride = _checked_stride(m, stride, b)
    base = _sum([_recast(value, casts, b) for value, casts in m.base], t, b)
    top = b.sub(Constant(t, _max(t)), stride, "gs.top")  # G > 0: no wrap

    j = ins.Phi(t, "gs.j")
    header.insert(0, j)
    body = header.terminator.successors[0]
    m.cond.set_operand(0, j)

    guard = function.add_block("gs.guard", after=header)
    b.position_at_end(guard)
    lid = b.query(Q.LOCAL_ID, 0)
    lid_t = lid if t.bits == 64 else b.cast(CAST.TRUNC, lid, t)
    if isinstance(lid_t, ins.Cast):
        lid_t.no_wrap = True
    remaining = b.sub(n, j, "gs.left")
    active = b.compare(ins.Predicate.ULT, lid_t, remaining, "gs.active")
    index = b.add(j, lid_t, "gs.i")
    next_block = function.add_block("gs.next", after=latch)
    b.branch(active, body, next_block)
    header.terminator.replace_successor(body, guard)
    for phi in body.phis:
        phi.replace_incoming_block(header, guard)

    b.position_at_end(next_block)
    saturated = b.compare(ins.Predicate.SGT, j, top)
    bumped = b.add(j, stride)
    following = b.select(saturated, Constant(t, _max(t)), bumped, "gs.j.next")
    b.jump(header)
    latch.terminator.replace_successor(header, next_block)

    j.add_incoming(base, preheader)
    j.add_incoming(following, next_block)
    i.replace_all_uses_with(index)
    i.remove_incoming(preheader)
    i.remove_incoming(latch)
    i.erase()
    _erase_dead(m.step)


def _max(t: ty.IntType) -> int:
    return (1 << (t.bits - 1)) - 1


def _keep_original(m: Match) -> None:
    """A copy of the loop as it is, entered instead of the rewritten one when the check fails."""
    blocks = sorted(m.loop.blocks, key=lambda block: block is not m.loop.header)
    copies = clone_blocks(blocks, m.preheader.function, {}, ".orig")
    exit_block = next(outside for _, outside in m.loop.exits())
    for phi in exit_block.phis:
        for value, block in list(phi.incoming):
            if block in copies:
                phi.add_incoming(value, copies[block])
    m.original_header = copies[m.loop.header]


def _checked_stride(m: Match, stride: Value, b: Builder) -> Value:
    """The check `n <= MAX - G` (and G <= MAX for a narrowed step) that chooses the rewritten loop,
    and G in the counter's type."""
    t = m.i.type
    wide_t = stride.type
    n = m.n if wide_t is t else b.cast(CAST.SEXT, m.n, wide_t)
    room = b.sub(Constant(wide_t, _max(t)), stride)  # G >= 1: no wrap in the wider type
    safe = b.compare(ins.Predicate.SLE, n, room, "gs.safe")
    if wide_t is not t:
        fits = b.compare(ins.Predicate.SLE, stride, Constant(wide_t, _max(t)))
        safe = b.select(fits, safe, Constant(ty.i1, 0), "gs.safe")
        stride = b.cast(CAST.TRUNC, stride, t)
    old = m.preheader.terminator
    old.detach()
    old.drop_operands()
    m.preheader.append(ins.Branch(safe, m.loop.header, m.original_header))
    b.position_before(m.preheader.terminator)
    return stride


def _erase_dead(value: Value) -> None:
    """The old step, and what computed only it."""
    if isinstance(value, ins.Instruction) and value.block is not None and not value.users and value.is_pure:
        operands = list(value.operands)
        value.erase()
        for operand in operands:
            _erase_dead(operand)


def _hoist(value: Value, loop: Loop, b: Builder) -> Value:
    """Move the loop-invariant chain computing `value` out of the loop (before b's position)."""
    if not _defined_in(value, loop):
        return value
    for operand in value.operands:
        _hoist(operand, loop, b)
    value.detach()
    b.insert(value)
    return value


def _recast(value: Value, casts: list[ins.Cast], b: Builder) -> Value:
    for cast in casts:
        value = b.cast(cast.opcode, value, cast.type)
        value.no_wrap = cast.no_wrap
    return value


def _sum(values: list[Value], t: ty.IntType, b: Builder) -> Value:
    total: Value = Constant(t, 0)
    for value in values:
        total = value if isinstance(total, Constant) and total.value == 0 else b.add(total, value)
    return total
