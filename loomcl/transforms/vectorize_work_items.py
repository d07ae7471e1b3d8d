"""vectorize-work-items: whole-function vectorization of the innermost x work-item loops (Karrenberg &
Hack, "Whole-Function Vectorization", sec. 3).

LLVM's loop vectorizer widens only innermost loops without divergent inner loops, so a work-item loop
whose body holds a loop (Mandelbrot's per-pixel trip count, a kernel loop over k) runs scalar. This
pass vectorizes such a loop itself: W work-items per iteration, one per lane, W from the target's
vector registers and the body's most common element size (wfv_shapes.py: shapes; wfv_widen.py: values,
memory and masks; wfv_linearize.py: control flow).

The form it leaves (the work-group form of transforms/__init__.py, plus):

    preheader -> wfv.pre:   %vend = lower + ((upper - lower) & -W); full vectors, if any, run in
    wfv.x:                  %vx = phi [lower], [%vx + W]  ...the body on W lanes...  %vx + W <u %vend
    wfv.rest:               the original loop runs the remaining < W work-items (bounds [vend, upper)),
                            or is deleted when the local size leaves none.

Where it does not apply, the loop stays for LLVM's loop vectorizer and `--emit wg` says why on the
loop's header (`; wfv: ...`); so does a vectorized loop's remainder.
"""
from __future__ import annotations

from collections import Counter

from ..analysis.loops import LoopInfo
from ..analysis.uniformity import Kind
from ..ir import instructions as ins
from ..ir import types as ty
from ..ir.function import Block, Function, WorkItemLoop
from ..ir.values import Constant
from .passes import PassContext
from .wfv_linearize import Linearizer
from .wfv_shapes import LaneShapes, most_live_vectors, unsupported, vector_state
from .wfv_widen import TRUE, Unsupported, Widener

NAME = "vectorize-work-items"

# Zen 4 has no fast gathers (jit/llvm.py asks LLVM to prefer none, so a masked gather becomes a
# branch per lane): spmvCSR ran 6x slower vectorized, with 3 gathers to 2 arithmetic operations per
# iteration. A loop must do this many vector operations per gather to be worth it.
GATHER_COST = 8
VECTOR_BYTES = 64  # AVX-512 (x86-64-v4, this project's host); LLVM splits wider vectors on smaller targets


def run(function: Function, analyses: PassContext) -> bool:
    changed = False
    for loop in list(function.innermost_loops()):
        if loop.dim != 0:
            loop.note = "wfv: no, the local size in x is 1"
            changed = True
            continue
        loops = LoopInfo(function)
        everywhere = analyses.options.wfv_everywhere
        reason = unsupported(function, loop, loops, everywhere)
        if reason is None:
            reason = _vectorize(function, loop, loops, everywhere, analyses.vector_registers)
        loop.note = f"wfv: no, {reason}" if reason else loop.note
        changed = True
    return changed


def _vectorize(function: Function, loop: WorkItemLoop, loops: LoopInfo, everywhere: bool,
               registers: int) -> str | None:
    shapes = LaneShapes(function, loop, loops)
    body = loop.blocks - {loop.latch}
    width = 4 if everywhere else choose_width(shapes, body)
    state = vector_state(shapes, loops, body)
    if state > most_live_vectors(registers) and not everywhere:
        return f"its loops keep {state} vectors live, more than the {registers} registers; left to LLVM"
    lower, upper = loop.lower, loop.upper
    if isinstance(lower, Constant) and isinstance(upper, Constant) and upper.value - lower.value < width:
        return f"fewer than {width} work-items"
    widener = Widener(function, shapes, width, body)
    try:
        pre, vend, after = _emit(widener, loops, loop, lower, upper)
        if widener.gathers_in_loops * GATHER_COST > widener.vector_ops_in_loops and not everywhere:
            raise Unsupported(f"{widener.gathers_in_loops} gathers to {widener.vector_ops_in_loops} "
                              "vector flops in its loops; left to LLVM")
    except Unsupported as why:
        for block in widener.new_blocks:
            for inst in block.instructions:
                inst.drop_operands()
        return str(why)
    _link(function, loop, widener, pre, vend, after)
    return None


def choose_width(shapes: LaneShapes, body: set[Block]) -> int:
    """Lanes per vector: as many as 512 bits hold of the commonest element size of varying values."""
    sizes = Counter()
    for block in body:
        for inst in block.instructions:
            t = inst.accessed_type  # a store's value, else the result
            if isinstance(t, (ty.IntType, ty.FloatType)) and t is not ty.i1 and shapes.shape(inst).kind is Kind.VARYING:
                sizes[t.size] += 1
    size = max(sorted(sizes), key=lambda s: sizes[s]) if sizes else 4
    return max(4, min(16, VECTOR_BYTES // size))


def _emit(w: Widener, loops: LoopInfo, loop: WorkItemLoop, lower, upper):
    """The vector loop's blocks (not yet linked): returns (its entry, %vend, the block after it)."""
    pre = w.new_block("pre")
    w.block = pre
    if isinstance(lower, Constant) and isinstance(upper, Constant):
        vend = Constant(ty.i64, lower.value + ((upper.value - lower.value) & -w.width))
    else:
        span = w.emit(ins.BinaryOp(ins.BinaryOpcode.SUB, upper, lower))
        full = w.emit(ins.BinaryOp(ins.BinaryOpcode.AND, span, Constant(ty.i64, -w.width)))
        vend = w.emit(ins.BinaryOp(ins.BinaryOpcode.ADD, lower, full, "vend"))
    header = w.new_block("x")
    header.comment = f"wfv: work-item loop {loop.name} at {loop.header.name}, {w.width} lanes an iteration"
    w.block = header
    counter = ins.Phi(ty.i64, "vx")
    header.append(counter)
    w.scalar[loop.counter] = counter
    linearizer = Linearizer(w, loops, loop.header, loop.latch)
    linearizer.emit_level(None, loop.header, TRUE)
    w.next_region = {phi: _where_next(w, linearizer, phi) for phi in loop.latch.phis}
    step = w.emit(ins.BinaryOp(ins.BinaryOpcode.ADD, counter, Constant(ty.i64, w.width), "vx.next"))
    more = w.emit(ins.Compare(ins.Predicate.ULT, step, vend))
    after = w.new_block("rest")
    w.emit(ins.Branch(more, header, after))
    counter.add_incoming(lower, pre)
    counter.add_incoming(step, w.block)
    last = w.block
    w.block = pre
    if isinstance(vend, Constant):
        w.emit(ins.Jump(header))
    else:
        w.emit(ins.Branch(w.emit(ins.Compare(ins.Predicate.NE, vend, lower)), header, after))
        for phi, value in w.next_region.items():  # no full vector: the rest loop decides
            merged = ins.Phi(phi.type)
            after.append(merged)
            merged.add_incoming(value, last)
            merged.add_incoming(Constant(phi.type, 0), pre)
            w.next_region[phi] = merged
    return pre, vend, after


def _where_next(w: Widener, linearizer: Linearizer, phi: ins.Phi):
    """A latch phi (the region the work-items go to next; all of them agree) from the edges some lane
    took to the latch."""
    arms = []
    for value, pred in phi.incoming:
        if not w.shape(value).is_uniform:
            raise Unsupported("the work-items' next region is not uniform")
        arms.append((w.sca(value), linearizer.edge(linearizer.node_key(pred), phi.block)))
    result = arms[-1][0]
    for value, m in reversed(arms[:-1]):
        taken = w.any(m)
        result = value if taken is None else w.emit(ins.Select(taken, value, result))
    return result


def _link(function: Function, loop: WorkItemLoop, w: Widener, pre: Block, vend, after: Block) -> None:
    """Put the vector loop between the preheader and the original loop, which keeps the rest."""
    preheader, header, exit = loop.preheader, loop.header, loop.exit
    preheader.terminator.replace_successor(header, pre)
    at = function.blocks.index(header)
    for block in w.new_blocks:
        block.function = function
    function.blocks[at:at] = w.new_blocks
    upper = loop.upper
    outside = {phi: [u for u in phi.users if u.block not in loop.blocks] for phi in loop.latch.phis}
    exit_phis = list(exit.phis)  # their values from the latch are defined before the loop
    if isinstance(vend, Constant) and isinstance(upper, Constant) and vend.value == upper.value:
        for phi in exit_phis:
            phi.replace_incoming_block(loop.latch, after)
        for phi, users in outside.items():  # a phi, where the work-group form keeps where-next values
            merged = ins.Phi(phi.type)
            exit.insert(0, merged)
            merged.add_incoming(w.next_region[phi], after)
            for user in users:
                user.replace_uses_of(phi, merged)
        after.append(ins.Jump(exit))
        function.work_item_loops.remove(loop)
        for block in loop.blocks:
            for inst in block.instructions:
                inst.drop_operands()
        for block in list(loop.blocks):
            function.remove_block(block)
        return
    rest = after.append(ins.Compare(ins.Predicate.ULT, vend, upper))
    after.append(ins.Branch(rest, header, exit))
    for phi in exit_phis:
        phi.add_incoming(phi.value_for(loop.latch), after)
    for phi, users in outside.items():  # from the vector loop, or from the rest loop when it ran
        merged = ins.Phi(phi.type)
        exit.insert(0, merged)
        merged.add_incoming(w.next_region[phi], after)
        merged.add_incoming(phi, loop.latch)
        for user in users:
            user.replace_uses_of(phi, merged)
    loop.counter.replace_incoming_block(preheader, after)
    loop.set_bounds(vend, upper)
    loop.note = f"wfv: {w.width} lanes in wfv.x, this loop runs the rest"
