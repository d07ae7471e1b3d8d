"""Whole-function vectorization (vectorize-work-items) through the public API: kernels whose work-item
loops hold loops, natively against numpy, with exact-size buffers (a masked lane past the end must
not touch memory), local sizes with and without a remainder, and the pass on (default) and off
(-loomcl-no-wfv)."""
import numpy as np
import pytest

OPTIONS = ["", "-loomcl-no-wfv"]
LOCALS = [1, 3, 17, 33, 100, 64]

MANDEL = r"""
__kernel void mandel(__global int *out, float x0, float y0, float step, int width, uint max_iter, int n) {
  int g = get_global_id(0);
  if (g >= n) return;
  float cx = x0 + step * (float)(g % width), cy = y0 + step * (float)(g / width);
  float x = cx, y = cy, x2 = x * x, y2 = y * y;
  uint it;
  for (it = 0; x2 + y2 <= 4.0f && it < max_iter; ++it) {
    y = 2.0f * x * y + cy; x = x2 - y2 + cx; x2 = x * x; y2 = y * y;
  }
  out[g] = 255 * it / max_iter;
}"""


def _mandel_numpy(n, x0, y0, step, width, max_iter):
    g = np.arange(n)
    cx = (np.float32(x0) + np.float32(step) * (g % width).astype(np.float32)).astype(np.float32)
    cy = (np.float32(y0) + np.float32(step) * (g // width).astype(np.float32)).astype(np.float32)
    x, y = cx.copy(), cy.copy()
    x2, y2 = x * x, y * y
    it = np.zeros(n, np.int64)
    active = np.ones(n, bool)
    for _ in range(max_iter):
        active &= (x2 + y2 <= np.float32(4.0)) & (it < max_iter)
        if not active.any():
            break
        ny = (np.float32(2.0) * x * y + cy).astype(np.float32)
        nx = (x2 - y2 + cx).astype(np.float32)
        x, y = np.where(active, nx, x), np.where(active, ny, y)
        x2, y2 = (x * x).astype(np.float32), (y * y).astype(np.float32)
        it += active
    return (255 * it // max_iter).astype(np.int32)


@pytest.mark.parametrize("options", OPTIONS)
@pytest.mark.parametrize("local", LOCALS)
def test_mandelbrot(run_kernel, local, options):
    n, width = 1000, 40
    groups = -(-n // local)
    (out,) = run_kernel(MANDEL, "mandel", (groups * local,), (local,), np.zeros(n, np.int32), np.float32(-2.0),
                        np.float32(-1.25), np.float32(0.0625), np.int32(width), np.uint32(60), np.int32(n),
                        options=options)
    np.testing.assert_array_equal(out, _mandel_numpy(n, -2.0, -1.25, 0.0625, width, 60))


CHAINS = r"""
__kernel void chains(__global float *out, float mul, float add, int iters) {
  float a = (float)get_global_id(0) * 0.001f, b = a + 1.0f, c = a + 2.0f;
  for (int i = 0; i < iters; i++) { a = fma(a, mul, add); b = fma(b, mul, add); c = fma(c, mul, add); }
  out[get_global_id(0)] = a + b + c;
}"""


@pytest.mark.parametrize("options", OPTIONS)
@pytest.mark.parametrize("local", LOCALS)
def test_uniform_loop_with_accumulators(run_kernel, local, options):
    n = local * 3
    (out,) = run_kernel(CHAINS, "chains", (n,), (local,), np.zeros(n, np.float32), np.float32(0.999),
                        np.float32(0.001), np.int32(50), options=options)
    a = np.arange(n, dtype=np.float32) * np.float32(0.001)
    vals = [a, a + np.float32(1.0), a + np.float32(2.0)]
    mul, add = np.float64(np.float32(0.999)), np.float64(np.float32(0.001))
    for _ in range(50):  # fma: the product exact in double, so at most a double rounding off
        vals = [(v.astype(np.float64) * mul + add).astype(np.float32) for v in vals]
    np.testing.assert_allclose(out, vals[0] + vals[1] + vals[2], rtol=2e-6)


ROWS = r"""
__kernel void rows(__global const int *ptr, __global const float *val, __global float *y, int rows) {
  int r = get_global_id(0);
  if (r >= rows) return;
  float acc = 0.0f;
  for (int k = ptr[r]; k < ptr[r + 1]; k++) {
    float v = val[k];
    if (v < 0.0f) continue;
    float w = v * v - 0.5f * v + 1.0f;
    acc = acc * 0.75f + w * (w + 0.25f) * 0.5f;
    if (acc > 50.0f) break;
  }
  y[r] = acc;
}"""


@pytest.mark.parametrize("options", OPTIONS)
@pytest.mark.parametrize("local", LOCALS)
def test_varying_trip_counts_with_break_and_continue(run_kernel, local, options):
    rng = np.random.default_rng(local)
    rows = 257
    lengths = rng.integers(0, 12, rows)
    ptr = np.concatenate([[0], np.cumsum(lengths)]).astype(np.int32)
    val = rng.uniform(-1, 4, int(ptr[-1])).astype(np.float32)
    groups = -(-rows // local)
    (_, _, y) = run_kernel(ROWS, "rows", (groups * local,), (local,), ptr, val, np.zeros(rows, np.float32),
                           np.int32(rows), options=options)
    expected = np.zeros(rows, np.float32)
    for r in range(rows):
        acc = np.float32(0)
        for v in val[ptr[r]:ptr[r + 1]]:
            if v < 0:
                continue
            f = np.float32
            w = f(f(v * v) - f(f(0.5) * v)) + f(1)
            acc = f(f(acc * f(0.75)) + f(f(w * f(w + f(0.25))) * f(0.5)))
            if acc > 50:
                break
        expected[r] = acc
    np.testing.assert_array_equal(y, expected)


DOUBLES = r"""
__kernel void series(__global double *out, __global const double *x, __global const char *terms, int n) {
  int g = get_global_id(0);
  if (g >= n) return;
  double s = 0.0, t = 1.0;
  for (int k = 1; k <= terms[g]; k++) { t *= x[g] / k; s += t; }
  out[g] = s;
}"""


@pytest.mark.parametrize("options", OPTIONS)
@pytest.mark.parametrize("local", [3, 17, 64])
def test_doubles_and_chars(run_kernel, local, options):
    rng = np.random.default_rng(7)
    n = 203
    x = rng.uniform(-2, 2, n)
    terms = rng.integers(0, 20, n).astype(np.int8)
    groups = -(-n // local)
    (out, _, _) = run_kernel(DOUBLES, "series", (groups * local,), (local,), np.zeros(n), x, terms, np.int32(n),
                             options=options)
    expected = np.zeros(n)
    for g in range(n):
        s, t = 0.0, 1.0
        for k in range(1, terms[g] + 1):
            t *= x[g] / k
            s += t
        expected[g] = s
    np.testing.assert_array_equal(out, expected)


BARRIERS = r"""
__kernel void around(__global float *out, __local float *tile, int iters) {
  int l = get_local_id(0), g = get_global_id(0);
  tile[l] = (float)g;
  barrier(CLK_LOCAL_MEM_FENCE);
  float v = tile[get_local_size(0) - 1 - l];
  int it = 0;
  while (v > 1.0f && it < iters) { v = v * 0.5f; it++; }
  barrier(CLK_LOCAL_MEM_FENCE);
  tile[l] = v + (float)it;
  barrier(CLK_LOCAL_MEM_FENCE);
  out[g] = tile[(l + 1) % get_local_size(0)];
}"""


@pytest.mark.parametrize("options", OPTIONS)
@pytest.mark.parametrize("local", LOCALS)
def test_barriers_around_the_loops(run_kernel, local, options):
    import loomcl as cl
    n = local * 2
    (out,) = run_kernel(BARRIERS, "around", (n,), (local,), np.zeros(n, np.float32),
                        cl.LocalMemory(4 * local), np.int32(30), options=options)
    g = np.arange(n)
    l = g % local
    v = (g - l + (local - 1 - l)).astype(np.float32)
    it = np.zeros(n, np.int64)
    for _ in range(30):
        go = v > 1.0
        v = np.where(go, v * np.float32(0.5), v).astype(np.float32)
        it += go
    res = v + it.astype(np.float32)
    expected = res[(g - l) + (l + 1) % local]
    np.testing.assert_array_equal(out, expected)


VECTORS = r"""
__kernel void vec(__global float4 *out, __global const float4 *in, int n) {
  int g = get_global_id(0);
  if (g >= n) return;
  float4 v = in[g];
  int it = 0;
  while (v.x + v.y > 1.0f && it < 25) { v = v * 0.5f + (float4)(0.0f, 0.1f, 0.2f, 0.3f); it++; }
  out[g] = v + (float)it;
}"""


@pytest.mark.parametrize("options", OPTIONS)
@pytest.mark.parametrize("local", [3, 17, 64])
def test_vector_types_after_scalarize(run_kernel, local, options):
    rng = np.random.default_rng(3)
    n = 150
    data = rng.uniform(0, 8, (n, 4)).astype(np.float32)
    groups = -(-n // local)
    (out, _) = run_kernel(VECTORS, "vec", (groups * local,), (local,), np.zeros((n, 4), np.float32), data,
                          np.int32(n), options=options)
    add = np.array([0, 0.1, 0.2, 0.3], np.float32)
    expected = np.zeros_like(data)
    for g in range(n):
        v, it = data[g].copy(), 0
        while v[0] + v[1] > 1.0 and it < 25:
            v = (v * np.float32(0.5) + add).astype(np.float32)
            it += 1
        expected[g] = v + np.float32(it)
    np.testing.assert_array_equal(out, expected)


@pytest.mark.parametrize("src, name", [(MANDEL, "mandel"), (CHAINS, "chains"), (ROWS, "rows"), (DOUBLES, "series"),
                                       (BARRIERS, "around"), (VECTORS, "vec")])
def test_these_kernels_take_the_vectorized_path(src, name):
    """So that the tests above check the vector form natively, not only LLVM's own vectorization."""
    from loomcl.driver.compiler import build
    from loomcl.transforms.pipeline import work_group_function
    function = work_group_function(build(src).module, name, (64,))
    assert any(b.name == "wfv.x" for b in function.blocks)
