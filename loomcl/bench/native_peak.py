"""The machine's floating-point peak, measured by code that reaches it.

An OpenCL probe measures what that implementation's compiler makes of it, which may be far below the
hardware (loomcl's scalar fma_peak keeps its accumulators in context arrays). The percentages of the
report need the machine's real limit, so this probe is hand-written LLVM IR: CHAINS independent
chains of fma on vectors of the host's native width, enough to cover the FMA latency on every
pipe, in a loop the code generator cannot shorten (the result is returned). One Python thread per
core calls it through ctypes (which releases the GIL), all at once.
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


def fma_peak_gflops(lanes: int, threads: int, iters: int = 1 << 22, repeat: int = 3) -> float:
    """GFLOP/s of `threads` threads each running CHAINS fma chains of `lanes` floats, best of `repeat`."""
    from ..jit import llvm

    probe = ctypes.CFUNCTYPE(ctypes.c_float, ctypes.c_int64)(
        llvm.compile_ir(_probe_ir(lanes), ["loomcl_fma_probe"])["loomcl_fma_probe"])
    probe(1000)
    best = float("inf")
    for _ in range(repeat):
        workers = [threading.Thread(target=probe, args=(iters,)) for _ in range(threads)]
        start = time.perf_counter()
        for worker in workers:
            worker.start()
        for worker in workers:
            worker.join()
        best = min(best, time.perf_counter() - start)
    return 2 * CHAINS * lanes * iters * threads / best / 1e9
