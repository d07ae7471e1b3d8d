"""The host API around real kernels: mapped buffers, rectangular copies, user events, program binaries."""
from __future__ import annotations

import numpy as np

import loomcl as cl

mf = cl.mem_flags

SCALE = """
__kernel void scale(__global float *x, float factor) {
    size_t i = get_global_id(0);
    x[i] *= factor;
}
"""


def test_kernel_sees_mapped_writes_and_map_sees_kernel_writes(ctx, queue, rng):
    values = rng.random(256, dtype=np.float32)
    buf = cl.Buffer(ctx, mf.READ_WRITE, values.nbytes)
    array, _ = cl.enqueue_map_buffer(queue, buf, cl.map_flags.WRITE_INVALIDATE_REGION, 0, values.shape, np.float32)
    array[:] = values
    array.base.release(queue)
    prg = cl.Program(ctx, SCALE).build()
    prg.scale(queue, values.shape, None, buf, np.float32(3.0))
    result, _ = cl.enqueue_map_buffer(queue, buf, cl.map_flags.READ, 0, (16, 16), np.float32)
    with result.base:
        np.testing.assert_array_equal(result, (values * np.float32(3.0)).reshape(16, 16))
