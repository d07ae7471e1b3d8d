"""Whole-function vectorization, part 1: what each value of an x work-item loop is across the lanes,
and whether the loop can be vectorized at all.

`LaneShapes` is the uniformity analysis (analysis/uniformity.py, K&H 3.1-3.2) seen from one innermost
x loop: its counter is CONSECUTIVE(1); everything defined outside the loop (the y and z counters,
group-level loops, the prologue) is UNIFORM, because it does not change while the x loop runs. A load
from a uniform address is UNIFORM too: within one vector iteration every lane reads the same memory,
and a write by another lane in between would be a data race (OpenCL leaves it undefined); a uniform
slot's stores all write the same value (transforms/__init__.py). A zext keeps a stride only when its
operand cannot wrap (a `trunc nuw`): `(uint)(lid - 1)` at lid = 0 is 2^32 - 1, far from lane 1's 0.

In a loop with a varying exit the linearized code keeps every active lane in the same iteration, so a
header phi whose entry and back values are uniform stays uniform inside the loop (K&H's induction
variables: Mandelbrot's counter, spmv_jds's `d`); where its value is used after the loop, temporal
divergence still makes it VARYING.

`unsupported(function, loop)` says why a loop cannot be vectorized, or None."""
from __future__ import annotations

from ..analysis.loops import LoopInfo
from ..analysis.trip_count import unrolled_loops
from ..analysis.uniformity import UNIFORM, VARYING, Kind, Shape, Uniformity, consecutive
from ..ir import instructions as ins
from ..ir import types as ty
from ..ir.function import Function, WorkItemLoop
from ..ir.values import Value


class LaneShapes(Uniformity):
    def __init__(self, function: Function, loop: WorkItemLoop, loops: LoopInfo) -> None:
        self.loop_blocks = loop.blocks - {loop.latch}
        self.counter = loop.counter
        self.loops = loops
        super().__init__(function, along_x=True)

    def _phis_forced_by(self, branch, block) -> list[ins.Phi]:
        inner = self.loops.loop_of(block)
        exits_it = inner is not None and inner.header is block and branch in inner.blocks and any(
            s not in inner.blocks for s in branch.successors)
        if exits_it and len(inner.latches) == 1 and block in self.loop_blocks:
            return []
        return block.phis

    def shape(self, value: Value) -> Shape:
        if isinstance(value, ins.Instruction) and value.block not in self.loop_blocks:
            return UNIFORM
        return super().shape(value)

    def _transfer(self, i: ins.Instruction) -> Shape:
        if i is self.counter:
            return consecutive(1)
        if isinstance(i, ins.Load):
            return UNIFORM if self.is_uniform(i.pointer) and not i.volatile else VARYING
        if isinstance(i, ins.Cast) and i.opcode is ins.CastOpcode.ZEXT:
            s = self.shape(i.value)
            wraps = not (isinstance(i.value, ins.Cast) and i.value.opcode is ins.CastOpcode.TRUNC and i.value.no_wrap)
            if s.kind is Kind.CONSECUTIVE and wraps:
                return VARYING
        return super()._transfer(i)


_UNSUPPORTED = {
    ins.AtomicRMW: "atomics", ins.AtomicCmpXchg: "atomics", ins.Printf: "printf", ins.Call: "calls",
    ins.CheckAccess: "checked mode", ins.CheckBarrier: "checked mode", ins.ArgumentExtent: "checked mode",
    ins.Barrier: "a barrier", ins.Alloca: "an alloca", ins.WorkItemQuery: "a work-item query",
    ins.ExtractElement: "vector values (scalarize is off)", ins.InsertElement: "vector values (scalarize is off)",
    ins.ShuffleVector: "vector values (scalarize is off)",
}


_WIDENED_EFFECTS = (ins.Store, ins.Fence)  # wfv_widen.py writes these lane by lane (or once, for a fence)


def unsupported(function: Function, loop: WorkItemLoop, loops: LoopInfo, everywhere: bool = False) -> str | None:
    """Why whole-function vectorization cannot apply to `loop`, or should not (None: it can). Bodies
    without loops, or whose loops LLVM unrolls fully (analysis/trip_count.py's `unrolled_loops`, the
    loops codegen marks), are left to LLVM's loop vectorizer, which does as well there (sgemmTiled's
    `k < 16` measured 30% slower through WFV), unless they call sin, cos or tan (see _reduces_by_period). A short loop too big to unroll stays a loop inside the
    x loop, which LLVM then never vectorizes: WFV takes it (clpeak's float8 chains: 16 trips of 384
    instructions ran 8 lanes wide through SLP, 28x slower per lane than float4's)."""
    if loop.latch.phis and function.predecessors()[loop.exit] != [loop.latch]:
        return "the work-items choose the next region, which is entered from elsewhere too"
    if loop.header.phis != [loop.counter]:
        return "the loop header has phis besides its counter"
    body = loop.blocks - {loop.latch}
    inner_loops = {inner for inner in loops.loops if inner.header is not loop.header and inner.header in body}
    unrolled = unrolled_loops(loops, inner_loops.__contains__, function.local_size)
    has_inner_loop = any(inner not in unrolled for inner in inner_loops)
    for block in (b for b in function.blocks if b in body):  # in program order: the same reason every run
        for inst in block.instructions:
            reason = _UNSUPPORTED.get(type(inst))
            if reason is None and type(inst).__module__.endswith("images"):
                reason = "images"
            if reason is None and getattr(inst, "volatile", False):
                reason = "a volatile access"
            if reason is None and not _lane_type(inst):
                reason = f"a value of type {inst.type}"
            if reason is None and inst.is_terminator and not inst.successors:
                reason = f"a {inst.keyword} inside the loop"
            if reason is None and inst.has_side_effects and not inst.is_terminator and type(inst) not in _WIDENED_EFFECTS:
                reason = f"a {inst.keyword} (an effect it does not widen)"
            if reason:
                return reason
    if not has_inner_loop and not everywhere and not _reduces_by_period(body):
        return "no long loop inside; left to LLVM"
    return None


def _reduces_by_period(body) -> bool:
    """Whether the body calls sin, cos or tan, whose vector forms branch per vector between a cheap
    and a costly argument reduction (MathFunction.reduces_by_period)."""
    return any(isinstance(inst, ins.MathCall) and inst.math_function.reduces_by_period
               for block in body for inst in block.instructions)


def _lane_type(inst: ins.Instruction) -> bool:
    """Whether the value (or the value it stores) can be one lane of a vector."""
    t = inst.accessed_type  # a store's value, else the result
    return t is ty.void or isinstance(t, (ty.IntType, ty.FloatType, ty.PointerType))


def most_live_vectors(registers: int) -> int:
    """The most vectors a loop may keep live under WFV on a target with `registers` SIMD registers:
    all of them and an eighth more. A few spilled values cost a load and a store each per iteration,
    far less than what declining costs (clpeak's float16 chain, 32 lanes and the work-item id: 33
    vectors, ran 3x faster vectorized than as one <16 x float> chain per work-item)."""
    return registers + registers // 8


def vector_state(shapes: LaneShapes, loops: LoopInfo, body) -> int:
    """The most varying values that one kernel loop inside the x loop keeps live at once: its
    header's varying phis, the varying values from outside it that it reads (not the phis' start
    values: each enters its phi's register), and the varying values it computes from those alone
    (LLVM hoists them out of the loop). Under WFV each is a vector
    register; more than the target's registers spill in every iteration (clpeak's float16 chains: 16
    accumulators and 32 hoisted products ran at 0.7x of LLVM's code)."""
    most = 0
    for inner in loops.loops:
        if inner.header not in body:
            continue
        invariant: dict[ins.Instruction, tuple] = {}  # -> its value number (LLVM merges equal ones)
        live = {phi for phi in inner.header.phis if shapes.shape(phi).kind is Kind.VARYING}
        for block in inner.blocks:
            for inst in block.instructions:
                inside = [v for v in inst.operands if isinstance(v, ins.Instruction) and v.block in inner.blocks]
                if inst.is_pure and not isinstance(inst, ins.Phi) and all(v in invariant for v in inside):
                    invariant[inst] = (type(inst), getattr(inst, "opcode", None), inst.type,
                                       tuple(invariant.get(v, id(v)) for v in inst.operands))
                    continue
                if isinstance(inst, ins.Phi) and block is inner.header:
                    continue  # its value from outside enters the phi's own register
                for v in inst.operands:
                    if not isinstance(v, ins.Instruction) or shapes.shape(v).kind is not Kind.VARYING:
                        continue
                    if v in invariant:
                        live.add(invariant[v])
                    elif v.block not in inner.blocks and v.block in body:
                        live.add(v)
        most = max(most, len(live))
    return most
