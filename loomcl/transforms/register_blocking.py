"""register-blocking: run an interchanged kernel loop once per strip of work-items, so that what it
carries per work-item stays in vector registers.

implicit-loop-barriers turns `for (i...) { a0 = fma(a0, m, c); ... }` into a group-level loop around a
work-item loop (BFO): every iteration loads and stores each work-item's accumulators in their context
arrays, one load and one store per FMA (the FMA probe ran at a third of the machine's peak). This pass
strip-mines the work-items instead:

    for each strip of W work-items (z, y and x0 = its first x):     ; group level, new
        for (i...)                                                  ; the kernel loop, as it was
            for x in [x0, x0 + W): body                             ; the work-item loop, W trips

Inside the kernel loop the strip's context-array slots are then loop-invariant addresses; the
work-item loop has a constant trip count W, which LLVM vectorizes into one vector iteration and so
promotes each slot to a vector register for the whole kernel loop (LICM), storing it back after.

Legal because the loop had no barrier of the kernel's own (implicit-loop-barriers records the headers
of the loops it made group-level in `analyses.horizontal_headers`): every work-item runs it with the
same trip count independently of the others, so all iterations of one strip may run before the next
strip's. The group-level code of the loop (its exit test, induction update, uniform slot loads) is
uniform: every strip computes the same values, so the values the loop leaves behind are the same.

Not where the nest reads or writes memory other than private storage at work-item-dependent
addresses (`_streams_per_work_item`): strips would lose the group's reuse of that data.

The shape handled: a group-level natural loop with one preheader and one exit edge holding exactly
one work-item nest, whose loops still run over their whole dimension (not narrowed by
fold-local-id-guards), with `W` dividing the x size and more than one strip in the group. The nest's
y and z loops become the strip's single row (their counters replaced by the strip's ids); the x loop's
counter runs over [0, W) and the region sees `x0 + counter` as its id.

W = 16 work-items: one AVX-512 vector of floats (two of doubles, two AVX2 vectors of floats). The
loop's state then takes, per carried value, one to two registers of the 32 (16 on AVX2).

Expects: the final work-group form (after hoist-invariants). Guarantees: same behaviour, a verified
work-group function; loops that do not match are left alone.
"""
from __future__ import annotations

from ..analysis.loops import Loop, LoopInfo
from ..ir import instructions as ins
from ..ir import types as ty
from ..ir.builder import Builder
from ..ir.function import Block, Function, WorkItemLoop
from ..ir.values import Constant, Value
from .passes import PassContext

NAME = "register-blocking"
STRIP_WORK_ITEMS = 16


class _Plan:
    def __init__(self, loop: Loop, preheader: Block, exits: list[tuple[Block, Block]],
                 nest: dict[int, WorkItemLoop]) -> None:
        self.loop, self.preheader, self.exits, self.nest = loop, preheader, exits, nest
        self.exiting = [b for b, _ in exits]


def _i64(value: int) -> Constant:
    return Constant(ty.i64, value)


def _whole_range(loop: WorkItemLoop, size: int) -> bool:
    lower, upper = loop.lower, loop.upper
    return (isinstance(lower, Constant) and lower.value == 0 and isinstance(upper, Constant)
            and upper.value == size)


def match(function: Function, loop: Loop, preds: dict) -> _Plan | None:
    size = function.local_size
    if size[0] % STRIP_WORK_ITEMS or size[0] * size[1] * size[2] <= STRIP_WORK_ITEMS:
        return None
    nest = [w for w in function.work_item_loops if w.header in loop.blocks]
    dims = [d for d in (2, 1, 0) if size[d] > 1]
    if sorted(w.dim for w in nest) != sorted(dims):
        return None  # not exactly one nest (a region split by a barrier of its own, or none)
    by_dim = {w.dim: w for w in nest}
    for outer, inner in zip(dims, dims[1:]):
        if not by_dim[inner].blocks < by_dim[outer].blocks:
            return None
    if not all(_whole_range(w, size[w.dim]) for w in nest):
        return None
    if _streams_per_work_item(by_dim[dims[0]], {w.counter for w in nest}):
        return None
    outside = [p for p in preds[loop.header] if p not in loop.blocks]
    exits = sorted(loop.exits(), key=lambda edge: function.blocks.index(edge[0]))
    targets = {e for _, e in exits}
    if len(outside) != 1 or len(exits) != len({b for b, _ in exits}):
        return None  # one way in; one edge out of each exiting block
    if len(targets) > 1 and any(e.phis for e in targets):
        return None  # several ways out: the exit taken is dispatched on, values are not merged
    if not isinstance(outside[0].terminator, (ins.Jump, ins.Branch)):
        return None
    return _Plan(loop, outside[0], exits, by_dim)


def _streams_per_work_item(outer: WorkItemLoop, counters: set) -> bool:
    """Whether the nest accesses memory other than private storage at a work-item-dependent address.
    Strips then lose the reuse that the group-wide order had: in sgemmNaive's `B[k * n + col]` every
    row of the group reads the same 16 floats of B per k, back to back; strip by strip, each row walks
    a column of B of its own through the whole loop, and the group's 16 rows read it 16 times from
    farther caches (31.5 -> 10.4 GFLOP/s). Uniform addresses (nbody's `pos[j]`) are one scalar load
    per strip and iteration, and context arrays are what the strips keep in registers."""
    memo: dict = {}

    def varies(value) -> bool:
        if value in counters:
            return True
        if not isinstance(value, ins.Instruction) or isinstance(value, ins.Alloca):
            return False
        if value not in memo:
            memo[value] = False  # phis may reach themselves
            memo[value] = any(varies(operand) for operand in value.operands)
        return memo[value]

    def private(pointer) -> bool:
        while ins.origin_of(pointer) is not None:
            pointer = ins.origin_of(pointer)
        return isinstance(pointer, ins.Alloca)

    for block in outer.blocks:
        for inst in block.instructions:
            if inst.reads_memory and inst.writes_memory:  # an atomic
                return True
            if inst.address is not None and not private(inst.address) and varies(inst.address):
                return True
    return False


def _strip_ids(b: Builder, strip: Value, size) -> dict[int, Value]:
    """The z, y of a strip's row and the first x of the strip, from the linear strip counter."""
    per_row = size[0] // STRIP_WORK_ITEMS
    ids = {}
    row = strip
    if per_row > 1:
        ids[0] = b.mul(b.binary(ins.BinaryOpcode.UREM, strip, _i64(per_row), "strip.x"), _i64(STRIP_WORK_ITEMS),
                       "strip.x0")
        row = b.binary(ins.BinaryOpcode.UDIV, strip, _i64(per_row), "strip.row")
    else:
        ids[0] = _i64(0)
    if size[1] > 1:
        ids[1] = b.binary(ins.BinaryOpcode.UREM, row, _i64(size[1]), "strip.y") if size[2] > 1 else row
    if size[2] > 1:
        ids[2] = b.binary(ins.BinaryOpcode.UDIV, row, _i64(size[1]), "strip.z") if size[1] > 1 else row
    return ids


def _dissolve(function: Function, loop: WorkItemLoop, id_value: Value) -> None:
    """Make a work-item loop run once, for the work-item `id_value`: straight-line code, no loop."""
    latch, counter = loop.latch, loop.counter
    term = latch.terminator
    exit_block, compare, step = loop.exit, term.condition, counter.value_for(latch)
    term.erase()
    latch.append(ins.Jump(exit_block))
    compare.erase()
    counter.remove_incoming(latch)
    step.erase()
    counter.replace_all_uses_with(id_value)
    counter.erase()
    function.work_item_loops.remove(loop)


def _rebase(loop: WorkItemLoop, first: Value) -> None:
    """Run the counter over [0, W); the region sees `first + counter` as the work-item's id."""
    counter, step = loop.counter, loop.counter.value_for(loop.latch)
    users = [u for u in counter.users if u is not step]
    loop.set_bounds(_i64(0), _i64(STRIP_WORK_ITEMS))
    if isinstance(first, Constant) and first.value == 0:
        return
    b = Builder()
    b.position_before(loop.header.instructions[loop.header.first_non_phi_index])
    lid = b.add(first, counter, "lid.x.strip")
    for user in users:
        user.replace_uses_of(counter, lid)


def _leave_through(function: Function, plan: _Plan, strip_latch: Block) -> Block:
    """Route every exit of the loop through `strip_latch`; return where the last strip goes on.
    Every strip leaves by the same edge with the same uniform values (the exit test is uniform):
    one exit block gets them through phis of the strip latch, several get a switch on the edge."""
    targets = list(dict.fromkeys(e for _, e in plan.exits))
    for exiting, target in plan.exits:
        exiting.terminator.replace_successor(target, strip_latch)
    if len(targets) == 1:
        (target,) = targets
        for phi in target.phis:
            merged = Builder(strip_latch).phi(phi.type, phi.name + ".strip")
            for exiting in plan.exiting:
                merged.add_incoming(phi.value_for(exiting), exiting)
                phi.remove_incoming(exiting)
            phi.add_incoming(merged, strip_latch)
        return target
    taken = Builder(strip_latch).phi(ty.i32, "strip.exit")
    for index, (exiting, _) in enumerate(plan.exits):
        taken.add_incoming(Constant(ty.i32, index), exiting)
    dispatch = function.add_block(strip_latch.name + ".exit", after=strip_latch)
    Builder(dispatch).switch(taken, plan.exits[0][1], [(i, e) for i, (_, e) in enumerate(plan.exits) if i])
    return dispatch


def block(function: Function, plan: _Plan) -> None:
    size, header = function.local_size, plan.loop.header
    strips = size[0] * size[1] * size[2] // STRIP_WORK_ITEMS
    strip_header = function.add_block(header.name + ".strip", after=plan.preheader)
    strip_latch = function.add_block(header.name + ".strip.next", after=plan.exiting[-1])
    plan.preheader.terminator.replace_successor(header, strip_header)
    for phi in header.phis:
        phi.replace_incoming_block(plan.preheader, strip_header)
    after = _leave_through(function, plan, strip_latch)

    b = Builder(strip_header)
    strip = b.phi(ty.i64, "strip")
    strip.add_incoming(_i64(0), plan.preheader)
    ids = _strip_ids(b, strip, size)
    b.jump(header)
    b = Builder(strip_latch)
    following = b.add(strip, _i64(1), "strip.next")
    strip.add_incoming(following, strip_latch)
    b.branch(b.compare(ins.Predicate.ULT, following, _i64(strips)), strip_header, after)

    for dim in (2, 1):
        if dim in plan.nest:
            _dissolve(function, plan.nest[dim], ids[dim])
    _rebase(plan.nest[0], ids[0])


def run(function: Function, analyses: PassContext) -> bool:
    if not analyses.horizontal_headers:
        return False
    changed = False
    for header in [h for h in function.blocks if h in analyses.horizontal_headers]:
        loops = LoopInfo(function)
        loop = next((lp for lp in loops.loops if lp.header is header), None)
        plan = match(function, loop, function.predecessors()) if loop is not None else None
        if plan is not None:
            block(function, plan)
            changed = True
    return changed
