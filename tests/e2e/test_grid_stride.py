"""Grid-stride loops (grid-stride-loops) through the public API, against numpy: pyopencl's
elementwise shape and a `get_global_id` loop, with n = 0, n below and above the global size, global
offsets, 2-D launches and the three launch variants, with the pass on (default) and off."""
import numpy as np
import pytest

from e2e_helpers import shape

OPTIONS = ["", "-loomcl-no-grid-stride"]

ELEMENTWISE = r"""
__kernel void elwise(__global float *z, __global const float *x, __global const float *y, float a, float b, long n)
{
  int lid = get_local_id(0);
  int gsize = get_global_size(0);
  int work_group_start = get_local_size(0)*get_group_id(0);
  long i;
  for (i = work_group_start + lid; i < n; i += gsize)
    z[i] = a*x[i] + b*y[i];
}"""

GLOBAL_ID = r"""
__kernel void gid(__global float *z, __global const float *x, float a, long n, long width) {
  long step = get_global_size(0), row = get_global_id(1);
  for (long i = get_global_id(0); i < n; i += step) {
    float v = x[row * width + i];
    z[row * width + i] = v > 0.0f ? a * v : v - a;
  }
}"""


SIZE_T_STEP = r"""
__kernel void sstep(__global float *z, __global const float *x, long n) {
  /* the hand-written form: stepped by a size_t, rewritten behind a run-time check */
  for (long i = get_global_id(0); i < n; i += get_global_size(0)) z[i] = x[i] * 2.0f + 1.0f;
}"""


@pytest.mark.parametrize("options", OPTIONS)
@pytest.mark.parametrize("offset", [None, (5,)])
@pytest.mark.parametrize("n", [0, 77, 4000])
def test_size_t_step(run_kernel, rng, options, offset, n):
    x = rng.standard_normal(4096).astype(np.float32)
    z = np.full(4096, 3.0, np.float32)
    (z, _) = run_kernel(SIZE_T_STEP, "sstep", (256,), (64,), z, x, np.int64(n), options=options, global_offset=offset)
    o = offset[0] if offset else 0
    want = np.full(4096, 3.0, np.float32)
    want[o:n] = x[o:n] * np.float32(2) + np.float32(1)
    np.testing.assert_array_equal(z, want)


@pytest.mark.parametrize("options", OPTIONS)
@pytest.mark.parametrize("n", [0, 1, 100, 511, 512, 513, 5000])
def test_elementwise(run_kernel, rng, options, n):
    x, y = rng.standard_normal(6000).astype(np.float32), rng.standard_normal(6000).astype(np.float32)
    z = np.full(6000, -7.0, np.float32)
    (z, _, _) = run_kernel(ELEMENTWISE, "elwise", (512,), (128,), z, x, y, np.float32(2), np.float32(3), np.int64(n),
                           options=options)
    want = np.full(6000, -7.0, np.float32)
    want[:n] = np.float32(2) * x[:n] + np.float32(3) * y[:n]
    np.testing.assert_allclose(z, want, rtol=1e-6)


@pytest.mark.parametrize("options", OPTIONS)
@pytest.mark.parametrize("offset", [None, (3, 0), (37, 1)])
@pytest.mark.parametrize("n", [0, 50, 333, 1000])
def test_global_id_loop_with_offsets_in_2d(run_kernel, rng, variant, options, offset, n):
    width, rows = 1024, 3
    full, local = shape(variant, (96, 2), (32, 2), (90, 2))
    x = rng.standard_normal(width * rows).astype(np.float32)
    z = np.full(width * rows, 9.0, np.float32)
    (z, _) = run_kernel(GLOBAL_ID, "gid", full, local, z, x, np.float32(1.5), np.int64(n), np.int64(width),
                        options=options, global_offset=offset)
    o0, o1 = offset or (0, 0)
    want = np.full((rows, width), 9.0, np.float32)
    xs = x.reshape(rows, width)
    for r in range(o1, o1 + 2):
        v = xs[r, o0:n]
        want[r, o0:n] = np.where(v > 0, np.float32(1.5) * v, v - np.float32(1.5))
    np.testing.assert_allclose(z.reshape(rows, width), want, rtol=1e-6)
