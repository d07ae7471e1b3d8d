"""`loomcl demo`: build a few real kernels, check them against numpy, and print their times.

It is the first thing a newcomer runs, so it uses only the pyopencl-style public API, exactly as a
user's script would.
"""
from __future__ import annotations

import time

import numpy as np

import loomcl as cl

SOURCE = r"""
__kernel void vadd(__global const float *a, __global const float *b, __global float *c, int n)
{
    int i = get_global_id(0);
    if (i < n)
        c[i] = a[i] + b[i];
}

/* One partial sum per work-group: a tree in __local memory, with the barrier inside the loop. */
__kernel void reduce(__global const float *in, __global float *partial, __local float *tmp)
{
    size_t lid = get_local_id(0);
    tmp[lid] = in[get_global_id(0)];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (size_t s = get_local_size(0) / 2; s > 0; s >>= 1) {
        if (lid < s)
            tmp[lid] += tmp[lid + s];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (lid == 0)
        partial[get_group_id(0)] = tmp[0];
}

#define TILE 16
/* C = A * B with two __local tiles and barriers in a loop over the shared dimension. */
__kernel void matmul(__global const float *A, __global const float *B, __global float *C, int n)
{
    __local float As[TILE][TILE];
    __local float Bs[TILE][TILE];
    int tx = get_local_id(0), ty = get_local_id(1);
    int col = get_global_id(0), row = get_global_id(1);
    float acc = 0.0f;
    for (int t = 0; t < n / TILE; ++t) {
        As[ty][tx] = A[row * n + t * TILE + tx];
        Bs[ty][tx] = B[(t * TILE + ty) * n + col];
        barrier(CLK_LOCAL_MEM_FENCE);
        for (int k = 0; k < TILE; ++k)
            acc += As[ty][k] * Bs[k][tx];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    C[row * n + col] = acc;
}
"""


def best_time(run, repeat: int = 7) -> float:
    """Best wall time of `run()` in seconds, after one warm-up run."""
    run()
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return min(times)


ROW = "  {:<28} {:>12} {:>12} {:>16}  {}"


def report(name: str, seconds: float, numpy_seconds: float, ok: bool, rate: str) -> bool:
    status = "ok" if ok else "MISMATCH"
    print(ROW.format(name, f"{seconds * 1e3:.3f} ms", f"{numpy_seconds * 1e3:.3f} ms", rate, status))
    return ok


def main() -> int:
    ctx = cl.create_some_context(interactive=False)
    queue = cl.CommandQueue(ctx)
    device = ctx.devices[0]
    print(f"loomcl demo on {device.name} ({device.max_compute_units} compute units)")
    start = time.perf_counter()
    prg = cl.Program(ctx, SOURCE).build()
    print(f"  compiled 3 kernels to IR in {(time.perf_counter() - start) * 1e3:.0f} ms "
          "(each becomes machine code at its first launch, before the timed runs)")
    print("  each time is the best of several runs of one launch to its end (loomcl) or of the same")
    print("  computation in numpy; every result is compared with numpy's\n")
    print(ROW.format("kernel", "loomcl", "numpy", "loomcl rate", "result"))
    mf = cl.mem_flags
    rng = np.random.default_rng(0)
    ok = True

    n = 1 << 22
    a, b = rng.random(n, dtype=np.float32), rng.random(n, dtype=np.float32)
    a_buf = cl.Buffer(ctx, mf.READ_ONLY | mf.COPY_HOST_PTR, hostbuf=a)
    b_buf = cl.Buffer(ctx, mf.READ_ONLY | mf.COPY_HOST_PTR, hostbuf=b)
    c_buf = cl.Buffer(ctx, mf.WRITE_ONLY, a.nbytes)
    c = np.empty_like(a)

    def vadd():
        prg.vadd(queue, (n,), None, a_buf, b_buf, c_buf, np.int32(n))
        queue.finish()

    t = best_time(vadd)
    cl.enqueue_copy(queue, c, c_buf)
    out = np.empty_like(a)
    ok &= report("vadd 4M floats", t, best_time(lambda: np.add(a, b, out=out)), np.array_equal(c, a + b),
                 f"{3 * a.nbytes / t / 1e9:.1f} GB/s")

    local = 256
    partial = np.empty(n // local, np.float32)
    p_buf = cl.Buffer(ctx, mf.WRITE_ONLY, partial.nbytes)

    def reduce():
        prg.reduce(queue, (n,), (local,), a_buf, p_buf, cl.LocalMemory(local * 4))
        queue.finish()

    t = best_time(reduce)
    cl.enqueue_copy(queue, partial, p_buf)
    expect = a.reshape(-1, local).sum(axis=1, dtype=np.float64)
    ok &= report("reduce 4M floats, local 256", t, best_time(lambda: a.sum()),
                 np.allclose(partial, expect, rtol=1e-4), f"{a.nbytes / t / 1e9:.1f} GB/s")

    m = 512
    A, B = rng.random((m, m), dtype=np.float32), rng.random((m, m), dtype=np.float32)
    A_buf = cl.Buffer(ctx, mf.READ_ONLY | mf.COPY_HOST_PTR, hostbuf=A)
    B_buf = cl.Buffer(ctx, mf.READ_ONLY | mf.COPY_HOST_PTR, hostbuf=B)
    C_buf = cl.Buffer(ctx, mf.WRITE_ONLY, A.nbytes)
    C = np.empty_like(A)

    def matmul():
        prg.matmul(queue, (m, m), (16, 16), A_buf, B_buf, C_buf, np.int32(m))
        queue.finish()

    t = best_time(matmul, repeat=3)
    cl.enqueue_copy(queue, C, C_buf)
    ok &= report("tiled matmul 512x512", t, best_time(lambda: A @ B), np.allclose(C, A @ B, rtol=1e-3, atol=1e-3),
                 f"{2 * m ** 3 / t / 1e9:.1f} GFLOP/s")
    print("all results match numpy" if ok else "SOME RESULTS DO NOT MATCH NUMPY")
    return 0 if ok else 1
