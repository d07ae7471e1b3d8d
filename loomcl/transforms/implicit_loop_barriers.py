"""implicit-loop-barriers: horizontal inner-loop parallelization (pocl 4.6; pocl's ImplicitLoopBarriers).

What: a barrier-free loop that every work-item of the group runs with the same trip count gets
implicit barriers, so that work-group formation puts the work-item loop *inside* it instead of
around it: the loop itself runs once per group as scalar control flow (the structured form keeps
uniform loops that contain barriers at group level, structurize_uniform_barriers.py), values it
carries per work-item (an accumulator) live in context arrays, and each iteration's body becomes a
parallel work-item loop. A loop interchange of the kernel loop and the work-item loop (pocl fig. 10).

Why: in `for (k = 0; k < n; k++) acc += A[row*n+k] * B[k*n+col];` the work-item loop (over col)
otherwise surrounds the k loop, so LLVM can only vectorize k (strided B, a loop-carried acc: it
can't), and nothing runs across work-items. After the interchange the work-item loop body
`acc[lid] += A[row*n+k] * B[k*n+col]` is parallel, with B consecutive in col and A uniform.
Likewise for a chain of dependent FMAs iterated `iters` times: each work-item's chain is serial,
but the chains of different work-items are independent SIMD lanes.

Legality (pocl 4.5 and 4.6: all work-items must iterate the loop the same number of times). A
natural loop L (one header; LoopInfo finds only those) gets barriers only when
  * L contains no barrier yet (loops with barriers are b-loops, handled as they are);
  * its header lies in no divergent region (uniformity.py): every work-item that runs the kernel
    reaches it as often as every other; this rules out a loop under a varying `if`, after a
    varying early `return`, or inside a loop whose exit is varying;
  * every exiting block lies in no divergent region and branches on a uniform condition, so all
    work-items leave L in the same iteration by the same edge (a `break` on a uniform condition is
    fine, a `while` on a per-work-item condition, as in mandelbrot, is not);
  * the latches that get a barrier lie in no divergent region either.
Under these conditions every block that gets a barrier is run by all work-items of the group the
same number of times, which is all that OpenCL asks of a barrier; memory semantics only get
stronger (a race-free kernel cannot observe the added synchronization).

Where (pocl 4.5's implicit b-loop barriers 2 and 3): one barrier right after the header's phis,
and one in each latch before its trailing run of pure uniform instructions (the induction variable
update), so that canonicalize-barriers and structurize-uniform-barriers leave header, exit test
and induction update at group level and only the body between the two barriers per work-item.
The first barrier alone would already be legal; the second just keeps the increment scalar.

Profitability: which legal loops get the barriers (breadth-first order) and which keep the
work-item loop around them (depth-first order) is decided by loop_order.py from the strides of the
loop's accesses (Kim ch. 3.4), and said in a `; loop-order` remark at the top of the work-group
function (`loomcl build --emit wg`). Measured there: sgemmNaive 3x faster with the interchange,
sgemvRow 4x slower (a gather across rows), the FMA probe 37 -> 56-59 GFLOP/s.
Loops whose x work-item loop whole-function vectorization will take stay where they are
(`left_to_wfv`): their accumulators then live in vector registers.
A group of one work-item gains nothing and is left alone.

Expects: SSA after inline, mem2reg and simplify (its uniformity, loops and the local size come from
the analyses), before canonicalize-barriers (which isolates the barriers added here). Guarantees: a
verified function whose selected loops hold `barrier 0` at the places above; returns whether any
loop was changed.
"""
from __future__ import annotations

from ..analysis.loops import Loop
from ..analysis.trip_count import constant_trip_count  # noqa: F401 - part of this pass's interface
from ..analysis.uniformity import Uniformity
from ..ir import instructions as ins
from ..ir import types as ty
from ..ir.function import Function
from . import loop_order
from .loop_order import MAX_UNROLLED_TRIPS, Decision, Order  # noqa: F401
from .passes import PassContext

NAME = "implicit-loop-barriers"
IMPLICIT_FLAGS = 0

WFV_MIN_LANES = 16


def _has_barrier(loop: Loop) -> bool:
    return any(i.is_barrier for b in loop.blocks for i in b.instructions)


def legal(loop: Loop, uniformity: Uniformity) -> bool:
    if _has_barrier(loop) or uniformity.in_divergent_region(loop.header):
        return False
    for block, _ in loop.exits():
        term = block.terminator
        if uniformity.in_divergent_region(block):
            return False
        if term.selector is not None and not uniformity.is_uniform(term.selector):
            return False
        if not term.successors:
            return False
    return not any(uniformity.in_divergent_region(latch) for latch in loop.latches)


def _latch_barrier_index(block, uniformity: Uniformity) -> int:
    """Before the trailing run of pure, uniform instructions (the induction update) of a latch."""
    index = len(block.instructions) - 1  # the terminator
    start = block.first_non_phi_index
    while index > start:
        inst = block.instructions[index - 1]
        if not inst.is_pure or not uniformity.is_uniform(inst) or \
                not all(uniformity.is_uniform(v) for v in inst.operands):
            break
        index -= 1
    return index


def add_barriers(loop: Loop, uniformity: Uniformity) -> None:
    header = loop.header
    for latch in loop.latches:
        latch.insert(_latch_barrier_index(latch, uniformity), ins.Barrier(IMPLICIT_FLAGS))
    header.insert(header.first_non_phi_index, ins.Barrier(IMPLICIT_FLAGS))


def decisions(function: Function, analyses: PassContext) -> list[Decision]:
    """The order of every loop, BFO only for legal ones (the profitability: loop_order.py) that
    whole-function vectorization does not take."""
    uniformity, loops = analyses.uniformity, analyses.loops
    return [_unless_wfv(loop_order.decide(loop, loops, analyses.strides, uniformity, analyses.local_size,
                                          analyses.options.loop_order), analyses)
            if legal(loop, uniformity) else Decision(loop, Order.DFO, "not legal: work-items may differ")
            for loop in loops.loops]


def _unless_wfv(decision: Decision, analyses: PassContext) -> Decision:
    if decision.order is Order.BFO and left_to_wfv(decision.loop, analyses):
        return Decision(decision.loop, Order.DFO, "left to whole-function vectorization (state in vector registers)")
    return decision


def left_to_wfv(loop: Loop, analyses: PassContext) -> bool:
    """Whether whole-function vectorization (vectorize_work_items.py) will take the x work-item loop
    around `loop` instead: it keeps what the loop carries per work-item in vector registers, where the
    interchange keeps it in context arrays (FMA probe, sgemmNaive). That needs the option, a vector's
    worth of work-items in x, and nothing in the loop that WFV leaves alone (it then says why).
    A loop that accesses memory stays with the interchange when register-blocking follows it, which
    also reuses loads across the strip (measured: sgemmNaive 14.5 ms interchanged and blocked, 34.9
    through WFV; the FMA probe 62 GFLOP/s blocked, 81 through WFV)."""
    options = analyses.options
    if not options.wfv or analyses.local_size[0] < WFV_MIN_LANES:
        return False
    insts = [i for b in loop.blocks for i in b.instructions]
    if options.uses_register_blocking and any(i.reads_memory or i.writes_memory for i in insts):
        return False
    return not any(_not_vectorized(i) or getattr(i, "volatile", False) or isinstance(i.type, ty.VectorType)
                   for i in insts)


def _not_vectorized(inst: ins.Instruction) -> bool:
    """What WFV leaves alone in a loop (wfv_shapes.py): atomics (they read and write memory) and
    instructions with effects of their own (calls, printf, fences, checked mode's checks)."""
    return (inst.reads_memory and inst.writes_memory) or inst.has_other_effects


def candidates(function: Function, analyses: PassContext) -> list[Loop]:
    return [d.loop for d in decisions(function, analyses) if d.order is Order.BFO]


def run(function: Function, analyses: PassContext) -> bool:
    size = analyses.local_size
    if size[0] * size[1] * size[2] == 1:
        return False
    uniformity = analyses.uniformity
    function.remarks += [d.note() for d in decisions(function, analyses) if legal(d.loop, uniformity)]
    chosen = candidates(function, analyses)
    for loop in chosen:
        add_barriers(loop, uniformity)
        analyses.horizontal_headers.add(loop.header)
    return bool(chosen)
