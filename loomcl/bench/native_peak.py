"""The machine's floating-point peak, measured by code that reaches it.

An OpenCL probe measures what that implementation's compiler makes of it, which may be far below the
hardware (loomcl's scalar fma_peak keeps its accumulators in context arrays). The percentages of the
report need the machine's real limit, so this probe is hand-written LLVM IR: CHAINS independent
chains of fma on vectors of the host's native width, enough to cover the FMA latency on every
pipe, in a loop the code generator cannot shorten (the result is returned). One Python thread per
core calls it through ctypes (which releases the GIL), all at once.

Each thread is timed by its own CPU time, not the wall clock: the rate is what a core does while it
runs the code, so other load on the machine (which preempts a thread, and makes the slowest thread
set a wall-clock run's time) and the start and join of the threads (1-2 % of a short run) do not
lower it. Timed by the wall clock it read below loomcl's own fma kernel: 2 % on an idle 2-core Zen 4
(the threads' start), far more under load. By CPU time, each configuration of lanes (8, 16) and
chains (8 to 24) reads 116-117 GFLOP/s per core there, busy machine or not: 2 fma pipes x 8 lanes x
2 flops a cycle, the core's peak. What the CPU time cannot see: an SMT sibling busy with other work
shares the core's fma pipes, and a core may clock lower while every core is busy.
"""
from __future__ import annotations

import ctypes
import threading
import time

CHAINS = 16        # >= latency x pipes (Zen 4: 4 x 2; Intel: 4 x 2)


def _probe_ir(lanes: int) -> str:
    vec = f"<{lanes} x float>"
    splat = lambda value: "<" + ", ".join(f"float {value}" for _ in range(lanes)) + ">"  # noqa: E731
    phis = "\n".join(f"  %a{c} = phi {vec} [ {splat(1.0 + c)}, %entry ], [ %b{c}, %loop ]" for c in range(CHAINS))
    steps = "\n".join(f"  %b{c} = call {vec} @llvm.fma.v{lanes}f32({vec} %a{c}, {vec} {splat(0.5)}, {vec} {splat(0.25)})"
                      for c in range(CHAINS))
    sums = [f"%b{c}" for c in range(CHAINS)]
    folds = []
    while len(sums) > 1:
        name = f"%s{len(folds)}"
        folds.append(f"  {name} = fadd {vec} {sums[0]}, {sums[1]}")
        sums = sums[2:] + [name]
    return f"""
declare {vec} @llvm.fma.v{lanes}f32({vec}, {vec}, {vec})
declare float @llvm.vector.reduce.fadd.v{lanes}f32(float, {vec})
define float @loomcl_fma_probe(i64 %iters) {{
entry:
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %next, %loop ]
{phis}
{steps}
  %next = add i64 %i, 1
  %more = icmp ult i64 %next, %iters
  br i1 %more, label %loop, label %done
done:
{chr(10).join(folds)}
  %r = call float @llvm.vector.reduce.fadd.v{lanes}f32(float 0.0, {vec} {sums[0]})
  ret float %r
}}
"""


def fma_peak_gflops(lanes: int, threads: int, iters: int = 1 << 22, repeat: int = 7) -> float:
    """GFLOP/s of `threads` cores, each running CHAINS fma chains of `lanes` floats on a thread of its
    own: the sum of each thread's flops over its CPU time, best of `repeat` runs."""
    from ..jit import llvm

    probe = ctypes.CFUNCTYPE(ctypes.c_float, ctypes.c_int64)(
        llvm.compile_ir(_probe_ir(lanes), ["loomcl_fma_probe"])["loomcl_fma_probe"])
    probe(1000)
    flops = 2 * CHAINS * lanes * iters
    best = 0.0
    for _ in range(repeat):
        rates: list[float] = []

        def run() -> None:
            start = time.thread_time()
            probe(iters)
            rates.append(flops / max(time.thread_time() - start, 1e-9))

        workers = [threading.Thread(target=run) for _ in range(threads)]
        for worker in workers:
            worker.start()
        for worker in workers:
            worker.join()
        best = max(best, sum(rates))
    return best / 1e9
