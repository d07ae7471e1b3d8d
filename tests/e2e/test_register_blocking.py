"""Register blocking of interchanged loops (register-blocking) through the public API: kernels whose
barrier-free loops implicit-loop-barriers makes group-level, at local sizes the pass strips (several
strips of 16 work-items, 1D to 3D) and ones it leaves alone (the matmul: B read per work-item), against
numpy, with the pass on and off."""
import numpy as np
import pytest

OPTIONS = ["", "-loomcl-no-register-blocking"]

FMA = r"""
__kernel void chains(__global float *out, float x, float y, int iters) {
  float s = get_global_id(0) * 1e-3f;
  float a0 = s, a1 = s + 1.0f, a2 = s + 2.0f, a3 = s + 3.0f, a4 = s + 4.0f, a5 = s + 5.0f;
  for (int i = 0; i < iters; i++) {
    a0 = fma(a0, x, y); a1 = fma(a1, x, y); a2 = fma(a2, x, y);
    a3 = fma(a3, x, y); a4 = fma(a4, x, y); a5 = fma(a5, x, y);
  }
  out[get_global_id(0)] = a0 + a1 + a2 + a3 + a4 + a5;
}
"""

MATMUL = r"""
__kernel void matmul(__global const float *A, __global const float *B, __global float *C, int n) {
  int col = get_global_id(0), row = get_global_id(1);
  float acc = 0.0f, bias = row * 0.5f;
  for (int k = 0; k < n; k++) acc += A[row * n + k] * B[k * n + col];
  C[row * n + col] = acc + bias;
}
"""

VOLUME = r"""
__kernel void volume(__global const int *in, __global int *out, int depth) {
  int x = get_global_id(0), y = get_global_id(1), z = get_global_id(2);
  int w = get_global_size(0), h = get_global_size(1);
  int s = 0, m = 0;
  for (int d = 0; d < depth; d++) { int v = in[d] * (x + 1) * (y + 1) - z; s += v; m = max(m, v); }
  out[(z * h + y) * w + x] = s * 3 + m;
}
"""

BREAK = r"""
__kernel void brk(__global const int *in, __global int *out, int rows, int width, int stop) {
  int g = get_global_id(0), s = 0;
  for (int r = 0; r < rows; r++) {
    if (r == stop) break;
    s += in[r * width + g];
  }
  out[g] = s;
}
"""


@pytest.mark.parametrize("options", OPTIONS)
@pytest.mark.parametrize("local", [256, 64, 48, 24])
def test_fma_chains(run_kernel, options, local):
    g = 768
    x, y, iters = np.float32(0.5), np.float32(0.25), 41
    (out,) = run_kernel(FMA, "chains", g, local, np.zeros(g, np.float32), x, y, np.int32(iters), options=options)
    a = np.arange(g, dtype=np.float32) * np.float32(1e-3)
    acc = [a + np.float32(j) for j in range(6)]
    for _ in range(iters):
        acc = [v * x + y for v in acc]  # exact: x and y are powers of two
    np.testing.assert_allclose(out, sum(acc), rtol=1e-6)


@pytest.mark.parametrize("options", OPTIONS)
@pytest.mark.parametrize("local", [(32, 4), (16, 16), (48, 2), (8, 8)])
def test_matmul(run_kernel, rng, options, local):
    n = 96
    A = rng.standard_normal((n, n)).astype(np.float32)
    B = rng.standard_normal((n, n)).astype(np.float32)
    (_, _, C) = run_kernel(MATMUL, "matmul", (n, n), local, A, B, np.zeros((n, n), np.float32), np.int32(n),
                           options=options)
    np.testing.assert_allclose(C, A @ B + np.arange(n, dtype=np.float32)[:, None] * 0.5, rtol=1e-4, atol=1e-4)


@pytest.mark.parametrize("options", OPTIONS)
@pytest.mark.parametrize("local", [(16, 2, 2), (32, 1, 2), (16, 3, 1)])
def test_3d(run_kernel, rng, options, local):
    w, h, d, depth = 64, 6, 4, 9
    data = rng.integers(-50, 50, depth).astype(np.int32)
    (_, out) = run_kernel(VOLUME, "volume", (w, h, d), local, data, np.zeros((d, h, w), np.int32), np.int32(depth),
                          options=options)
    x, y, z = np.arange(w), np.arange(h), np.arange(d)
    v = (data[None, None, None, :] * (x[None, None, :, None] + 1) * (y[None, :, None, None] + 1)
         - z[:, None, None, None])
    expected = v.sum(axis=3) * 3 + np.maximum(v.max(axis=3), 0)
    np.testing.assert_array_equal(out, expected)


@pytest.mark.parametrize("options", OPTIONS)
@pytest.mark.parametrize("stop", [0, 5, 99])
def test_uniform_break(run_kernel, rng, options, stop):
    rows, width = 11, 128
    data = rng.integers(-50, 50, (rows, width)).astype(np.int32)
    (_, out) = run_kernel(BREAK, "brk", width, 64, data, np.zeros(width, np.int32), np.int32(rows), np.int32(width),
                          np.int32(stop), options=options)
    np.testing.assert_array_equal(out, data[:min(stop, rows)].sum(axis=0))
