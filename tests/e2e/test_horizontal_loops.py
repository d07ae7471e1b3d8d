"""Horizontal inner-loop parallelization (implicit-loop-barriers, pocl 4.6) through the public API:
kernels with barrier-free loops, uniform or not, against numpy, in the three launch variants, with
the pass on (default) and off (-loomcl-no-horizontal-loops)."""
import numpy as np
import pytest

from e2e_helpers import shape

OPTIONS = ["", "-loomcl-no-horizontal-loops"]

MATMUL = r"""
__kernel void matmul(__global const float *A, __global const float *B, __global float *C, int n) {
  int col = get_global_id(0), row = get_global_id(1);
  float acc = 0.0f;
  for (int k = 0; k < n; k++) acc += A[row * n + k] * B[k * n + col];
  C[row * n + col] = acc;
}
"""

GUARDED = r"""
__kernel void guarded(__global const float *A, __global const float *B, __global float *C, int n) {
  int col = get_global_id(0), row = get_global_id(1);
  if (row < n && col < n) {
    float acc = 0.0f;
    for (int k = 0; k < n; k++) acc += A[row * n + k] * B[k * n + col];
    C[row * n + col] = acc;
  }
}
"""

FMA = r"""
__kernel void chain(__global float *out, float x, float y, int iters) {
  float a0 = get_global_id(0) * 1e-3f, a1 = a0 + 1.0f, a2 = a0 + 2.0f, a3 = a0 + 3.0f;
  for (int i = 0; i < iters; i++) {
    a0 = fma(a0, x, y); a1 = fma(a1, x, y); a2 = fma(a2, x, y); a3 = fma(a3, x, y);
  }
  out[get_global_id(0)] = a0 + a1 + a2 + a3;
}
"""

ARG_BOUND = r"""
__kernel void colsum(__global const int *in, __global int *out, int rows, int width, int n) {
  int g = get_global_id(0);
  if (g >= n) return;          /* a varying early return: the loop below must stay per work-item */
  int s = 0;
  for (int r = 0; r < rows; r++) s += in[r * width + g];
  out[g] = s;
}

__kernel void colsum_all(__global const int *in, __global int *out, int rows, int width) {
  int g = get_global_id(0);
  int s = 0;
  for (int r = 0; r < rows; r++) s += in[r * width + g] * (r + 1);
  out[g] = s;
}
"""

BREAK = r"""
__kernel void brk(__global const int *in, __global int *out, int rows, int width, int stop) {
  int g = get_global_id(0), s = 0;
  for (int r = 0; r < rows; r++) {
    if (r == stop) break;            /* uniform: every work-item leaves at the same r */
    s += in[r * width + g];
  }
  out[g] = s;
}
"""

NESTED = r"""
__kernel void nested(__global const int *in, __global int *out, int rows, int width, int reps) {
  int g = get_global_id(0), s = 0;
  for (int t = 0; t < reps; t++)
    for (int r = 0; r < rows; r++) s += in[r * width + g] * (t + 1);
  out[g] = s;
}
"""


@pytest.mark.parametrize("options", OPTIONS)
def test_naive_matmul(run_kernel, variant, rng, options):
    n = 24
    # unguarded: the launch covers n x n exactly; the ragged variant uses groups that do not divide it
    (gx, gy), local = shape(variant, (n, n), (8, 4) if variant != "ragged" else (16, 5), (n, n))
    A = rng.standard_normal((n, n)).astype(np.float32)
    B = rng.standard_normal((n, n)).astype(np.float32)
    (_, _, C) = run_kernel(MATMUL, "matmul", (gx, gy), local, A, B, np.zeros((n, n), np.float32), np.int32(n),
                           options=options)
    np.testing.assert_allclose(C, A @ B, rtol=1e-4, atol=1e-4)


@pytest.mark.parametrize("options", OPTIONS)
def test_guarded_matmul(run_kernel, variant, rng, options):
    n = 21
    full, local = shape(variant, (24, 24), (8, 4), (21, 22))
    A = rng.standard_normal((n, n)).astype(np.float32)
    B = rng.standard_normal((n, n)).astype(np.float32)
    (_, _, C) = run_kernel(GUARDED, "guarded", full, local, A, B, np.zeros((n, n), np.float32), np.int32(n),
                           options=options)
    np.testing.assert_allclose(C, A @ B, rtol=1e-4, atol=1e-4)


@pytest.mark.parametrize("options", OPTIONS)
def test_fma_chain(run_kernel, variant, options):
    full, local = shape(variant, 256, 32, 250)
    g = full
    x, y, iters = np.float32(0.5), np.float32(0.25), 37
    (out,) = run_kernel(FMA, "chain", g, local, np.zeros(g, np.float32), x, y, np.int32(iters), options=options)
    a = np.arange(g, dtype=np.float32) * np.float32(1e-3)
    acc = [a, a + np.float32(1), a + np.float32(2), a + np.float32(3)]
    for _ in range(iters):
        acc = [v * x + y for v in acc]  # exact: x and y are powers of two
    np.testing.assert_allclose(out, acc[0] + acc[1] + acc[2] + acc[3], rtol=1e-6)


@pytest.mark.parametrize("options", OPTIONS)
@pytest.mark.parametrize("kernel", ["colsum", "colsum_all"])
def test_loop_bound_from_argument(run_kernel, variant, rng, options, kernel):
    rows, width = 13, 96
    full, local = shape(variant, width, 16, 90)
    n = full
    data = rng.integers(-50, 50, (rows, width)).astype(np.int32)
    args = (np.int32(rows), np.int32(width)) + ((np.int32(n - 3),) if kernel == "colsum" else ())
    (_, out) = run_kernel(ARG_BOUND, kernel, full, local, data, np.zeros(width, np.int32), *args, options=options)
    if kernel == "colsum":
        expected = data[:, :n].sum(axis=0)
        np.testing.assert_array_equal(out[:n - 3], expected[:n - 3])
        assert not out[n - 3:].any()
    else:
        expected = (data[:, :n] * np.arange(1, rows + 1)[:, None]).sum(axis=0)
        np.testing.assert_array_equal(out[:n], expected)


@pytest.mark.parametrize("options", OPTIONS)
@pytest.mark.parametrize("stop", [0, 5, 99])
def test_uniform_break(run_kernel, variant, rng, options, stop):
    rows, width = 11, 64
    full, local = shape(variant, width, 16, 61)
    data = rng.integers(-50, 50, (rows, width)).astype(np.int32)
    (_, out) = run_kernel(BREAK, "brk", full, local, data, np.zeros(width, np.int32), np.int32(rows), np.int32(width),
                          np.int32(stop), options=options)
    np.testing.assert_array_equal(out[:full], data[:min(stop, rows), :full].sum(axis=0))


@pytest.mark.parametrize("options", OPTIONS)
def test_nested_uniform_loops(run_kernel, variant, rng, options):
    rows, width, reps = 7, 64, 3
    full, local = shape(variant, width, 8, 59)
    data = rng.integers(-50, 50, (rows, width)).astype(np.int32)
    (_, out) = run_kernel(NESTED, "nested", full, local, data, np.zeros(width, np.int32), np.int32(rows),
                          np.int32(width), np.int32(reps), options=options)
    np.testing.assert_array_equal(out[:full], data[:, :full].sum(axis=0) * sum(range(1, reps + 1)))


def test_matmul_local_size_one(run_kernel, rng):
    n = 5
    A = rng.standard_normal((n, n)).astype(np.float32)
    B = rng.standard_normal((n, n)).astype(np.float32)
    (_, _, C) = run_kernel(MATMUL, "matmul", (n, n), (1, 1), A, B, np.zeros((n, n), np.float32), np.int32(n))
    np.testing.assert_allclose(C, A @ B, rtol=1e-4, atol=1e-4)
