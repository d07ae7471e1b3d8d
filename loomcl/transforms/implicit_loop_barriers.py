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

Profitability (measured with `python -m loomcl.bench ... --config nohoriz`, 2-core EPYC, one run
interleaved; kernels the pass leaves alone differ only by noise):
  sgemmNaive 512^2: 167-226 ms -> 56-60 ms (3-3.8x); fma peak probe: 37 -> 56-59 GFLOP/s;
  sgemvRow before the gather rule below: 8.1 -> 31 ms (4x slower), with it: unchanged.
The rules:
  * innermost loops only (as pocl): an outer uniform loop around a transformed one becomes a
    group-level b-loop anyway, since barriers in its body make it one; adding barriers at the
    outer level as well would only split its per-work-item code into more work-item loops;
  * not a loop with a small constant trip count (at most MAX_UNROLLED_TRIPS, with
    `get_local_size` known): LLVM unrolls it fully inside the work-item loop, which then
    vectorizes across work-items with the accumulator in a register; the interchange would
    instead load and store the accumulator's context array every iteration (sgemmTiled's and
    dct8x8's `for (k = 0; k < 16 or 8; k++)`);
  * every memory access in the loop must be uniform or unit-stride along the x work-item loop
    (`Uniformity(along_x=True)`): otherwise the work-item loop would gather, while the original
    order streams each work-item's row (sgemvRow's `a[j]` with `a = A + row * n`);
  * not a loop with no varying instruction (nothing per work-item to parallelize);
  * not a loop whose x work-item loop whole-function vectorization will take (`left_to_wfv`).
A group of one work-item gains nothing and is left alone.

Expects: SSA after inline, mem2reg and simplify (its uniformity, loops and the local size come from
the analyses), before canonicalize-barriers (which isolates the barriers added here). Guarantees: a
verified function whose selected loops hold `barrier 0` at the places above; returns whether any
loop was changed.
"""
from __future__ import annotations

from ..analysis.loops import Loop, LoopInfo
from ..analysis.uniformity import Kind, Uniformity
from ..ir import instructions as ins
from ..ir import types as ty
from ..ir.function import Function
from ..ir.values import Constant
from .passes import PassContext

NAME = "implicit-loop-barriers"
IMPLICIT_FLAGS = 0
MAX_UNROLLED_TRIPS = 16

WFV_MIN_LANES = 16
_NOT_VECTORIZED = (ins.AtomicRMW, ins.AtomicCmpXchg, ins.Printf, ins.Call)
_PURE = (ins.BinaryOp, ins.Compare, ins.Cast, ins.Select, ins.FNeg, ins.MathCall, ins.ElementPtr, ins.FieldPtr)


def _has_barrier(loop: Loop) -> bool:
    return any(isinstance(i, ins.Barrier) for b in loop.blocks for i in b.instructions)


def legal(loop: Loop, uniformity: Uniformity) -> bool:
    if _has_barrier(loop) or uniformity.in_divergent_region(loop.header):
        return False
    for block, _ in loop.exits():
        term = block.terminator
        if uniformity.in_divergent_region(block):
            return False
        if isinstance(term, (ins.Branch, ins.Switch)) and not uniformity.is_uniform(term.operands[0]):
            return False
        if not isinstance(term, (ins.Branch, ins.Switch, ins.Jump)):
            return False
    return not any(uniformity.in_divergent_region(latch) for latch in loop.latches)


def _constant(value, local_size) -> int | None:
    if isinstance(value, Constant) and isinstance(value.type, ty.IntType):
        return value.signed_value
    if isinstance(value, ins.WorkItemQuery) and value.query is ins.Query.LOCAL_SIZE:
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


def _vectorizes_across_x(inst: ins.Instruction, along_x: Uniformity) -> bool:
    """Whether a memory access is uniform or unit-stride along the x work-item loop."""
    if isinstance(inst, (ins.Load, ins.Store)):
        pointer = inst.pointer
        size = (inst.type if isinstance(inst, ins.Load) else inst.value.type).size
        shape = along_x.shape(pointer)
        return shape.is_uniform or (shape.kind is Kind.CONSECUTIVE and abs(shape.stride) == size)
    return not isinstance(inst, (ins.AtomicRMW, ins.AtomicCmpXchg))


def profitable(loop: Loop, loops: LoopInfo, uniformity: Uniformity, along_x: Uniformity, local_size) -> bool:
    if any(other.parent is loop for other in loops.loops):
        return False  # innermost loops only
    if constant_trip_count(loop, local_size, MAX_UNROLLED_TRIPS) is not None:
        return False
    insts = [i for b in loop.blocks for i in b.instructions]
    if not all(_vectorizes_across_x(i, along_x) for i in insts):
        return False  # a gather across work-items (sgemvRow's row-major a[j]): the original order streams
    return any(not i.is_terminator and not isinstance(i, (ins.Store, ins.Fence)) and not uniformity.is_uniform(i)
               for i in insts)


def _latch_barrier_index(block, uniformity: Uniformity) -> int:
    """Before the trailing run of pure, uniform instructions (the induction update) of a latch."""
    index = len(block.instructions) - 1  # the terminator
    start = block.first_non_phi_index
    while index > start:
        inst = block.instructions[index - 1]
        if not isinstance(inst, _PURE) or not uniformity.is_uniform(inst) or \
                not all(uniformity.is_uniform(v) for v in inst.operands):
            break
        index -= 1
    return index


def add_barriers(loop: Loop, uniformity: Uniformity) -> None:
    header = loop.header
    for latch in loop.latches:
        latch.insert(_latch_barrier_index(latch, uniformity), ins.Barrier(IMPLICIT_FLAGS))
    header.insert(header.first_non_phi_index, ins.Barrier(IMPLICIT_FLAGS))


def candidates(function: Function, analyses: PassContext) -> list[Loop]:
    uniformity, loops = analyses.uniformity, analyses.loops
    return [loop for loop in loops.loops if legal(loop, uniformity) and
            profitable(loop, loops, uniformity, analyses.uniformity_along_x, analyses.local_size)
            and not left_to_wfv(loop, analyses)]


def left_to_wfv(loop: Loop, analyses: PassContext) -> bool:
    """Whether whole-function vectorization (vectorize_work_items.py) will take the x work-item loop
    around `loop` instead: it keeps what the loop carries per work-item in vector registers, where the
    interchange keeps it in context arrays (FMA probe, sgemmNaive). That needs the option, a vector's
    worth of work-items in x, and nothing in the loop that WFV leaves alone (it then says why)."""
    if not analyses.options.wfv or analyses.local_size[0] < WFV_MIN_LANES:
        return False
    return not any(isinstance(i, _NOT_VECTORIZED) or getattr(i, "volatile", False) or isinstance(i.type, ty.VectorType)
                   for b in loop.blocks for i in b.instructions)


def run(function: Function, analyses: PassContext) -> bool:
    size = analyses.local_size
    if size[0] * size[1] * size[2] == 1:
        return False
    uniformity = analyses.uniformity
    chosen = candidates(function, analyses)
    for loop in chosen:
        add_barriers(loop, uniformity)
    return bool(chosen)
