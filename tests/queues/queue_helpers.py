"""Kernels and helpers of the asynchronous-queue tests."""
from __future__ import annotations

import time

import numpy as np

import loomcl as cl

SOURCE = """
__kernel void add(__global int *a, int k) { int i = get_global_id(0); a[i] += k; }
/* Work-item 0 sets flag[1] (the kernel runs) and spins until the host sets flag[0]. */
__kernel void spin(__global volatile int *flag, __global int *out) {
    int i = get_global_id(0);
    if (i == 0) {
        flag[1] = 1;
        while (flag[0] == 0) { }
    }
    out[i] = i + 1;
}
__kernel void say(int n) { printf("n=%d\\n", n); }
"""

CHECKED_SOURCE = "__kernel void past_the_end(__global int *a) { a[get_global_id(0) + 1] = 1; }"

mf = cl.mem_flags
status = cl.command_execution_status
N = 64


def int_buffer(ctx, values) -> cl.Buffer:
    return cl.Buffer(ctx, mf.READ_WRITE | mf.COPY_HOST_PTR, hostbuf=np.asarray(values, np.int32))


def read(queue, buf, count: int = N) -> np.ndarray:
    out = np.empty(count, np.int32)
    cl.enqueue_copy(queue, out, buf)
    return out


def eventually(condition, what: str, limit: float = 60.0) -> None:
    """Poll until `condition()` holds; fail (rather than hang) after `limit` seconds."""
    deadline = time.monotonic() + limit
    while not condition():
        assert time.monotonic() < deadline, f"never happened: {what}"
        time.sleep(0.001)
