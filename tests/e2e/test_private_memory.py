"""Large private arrays: their per-work-group context arrays live in the worker's arena, not on its
stack (16 MiB here would overflow a thread's stack and crash the process), and private storage does
not count against the device's local memory."""
from __future__ import annotations

import numpy as np
import pytest

import loomcl as cl

SOURCE = """
kernel void scramble(global float *out)
{
    float arr[1024];
    for (int i = 0; i < 1024; i++)
        arr[i] = (float)(i % 13) + (float)get_global_id(0);
    barrier(CLK_LOCAL_MEM_FENCE);   /* arr lives across the barrier: one context array per group */
    float s = 0.0f;
    for (int i = 0; i < 1024; i++)
        s += arr[(i * 7) % 1024];
    out[get_global_id(0)] = s;
}
"""


@pytest.mark.parametrize("local", [64, 4096])
def test_large_private_arrays_run_in_the_arena(ctx, queue, local):
    prg = cl.Program(ctx, SOURCE).build()
    n = 2 * local
    buf = cl.Buffer(ctx, cl.mem_flags.WRITE_ONLY, 4 * n)
    prg.scramble(queue, (n,), (local,), buf)
    out = np.empty(n, np.float32)
    cl.enqueue_copy(queue, out, buf)
    base = float(sum(i % 13 for i in range(1024)))
    np.testing.assert_allclose(out, base + 1024.0 * np.arange(n), rtol=1e-6)
