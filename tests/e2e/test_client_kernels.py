"""Kernels in the style of OpenCL software written elsewhere (issue 18), run against numpy: each
pins a language gap such a client hit."""
from __future__ import annotations

import numpy as np

LOOPY = """
#define lid(N) ((int) get_local_id(N))
#define gid(N) ((int) get_group_id(N))

__kernel void __attribute__ ((reqd_work_group_size(16, 1, 1)))
loopy_kernel(__global float const *__restrict__ a, __global float *__restrict out, int const n)
{
  if (-1 + -16 * gid(0) + -1 * lid(0) + n >= 0)
    out[16 * gid(0) + lid(0)] = 2.0f * a[16 * gid(0) + lid(0)];
}
"""


def test_loopy_style_restrict_pointers(run_kernel, rng):
    a = rng.random(100, dtype=np.float32)
    _, out = run_kernel(LOOPY, "loopy_kernel", (112,), (16,), a, np.zeros(100, np.float32), np.int32(100))
    np.testing.assert_array_equal(out, 2 * a)
