"""Kernels and launches that the micro-profiling tests share."""
from __future__ import annotations

import numpy as np

import loomcl as cl
from loomcl.engine import microprofile

# Every work-item counts itself in its group's slot; out holds a value computed per work-item.
COUNTING = """
kernel void count(global const float *a, global float *out, global int *hits, int n) {
    size_t i = get_global_id(0);
    size_t g = get_group_id(1) * get_num_groups(0) + get_group_id(0);
    atomic_inc(&hits[g]);
    float s = 0.0f;
    for (int j = 0; j < n; j++)
        s += a[(i + j) % get_global_size(0)] * (float)(j + 1);
    out[i] = s;
}
"""
TERMS = 8


def expected_out(a: np.ndarray) -> np.ndarray:
    """What `count` computes, in float32 in the kernel's order."""
    index = np.arange(a.size)
    s = np.zeros(a.size, np.float32)
    for j in range(TERMS):
        s = (s + a[(index + j) % a.size] * np.float32(j + 1)).astype(np.float32)
    return s


class CountingLaunch:
    """`count` over `n` work-items of local size `local`, with its buffers."""

    def __init__(self, ctx, queue, n: int, local: int, options: str = "", seed: int = 0):
        self.ctx, self.queue, self.n, self.local = ctx, queue, n, local
        self.groups = -(-n // local)
        self.a = np.random.default_rng(seed).random(n, dtype=np.float32)
        mf = cl.mem_flags
        self.a_buf = cl.Buffer(ctx, mf.READ_ONLY | mf.COPY_HOST_PTR, hostbuf=self.a)
        self.out_buf = cl.Buffer(ctx, mf.READ_WRITE, self.a.nbytes)
        self.hits_buf = cl.Buffer(ctx, mf.READ_WRITE | mf.COPY_HOST_PTR, hostbuf=np.zeros(self.groups, np.int32))
        self.kernel = cl.Program(ctx, COUNTING).build(options=options).count

    def __call__(self):
        """Launch and wait for it (a launch runs when the queue gets to it: its selection's state
        is known after)."""
        event = self.kernel(self.queue, (self.n,), (self.local,), self.a_buf, self.out_buf, self.hits_buf,
                            np.int32(TERMS))
        event.wait()
        return event

    def results(self) -> tuple[np.ndarray, np.ndarray]:
        out = np.empty_like(self.a)
        hits = np.empty(self.groups, np.int32)
        cl.enqueue_copy(self.queue, out, self.out_buf)
        cl.enqueue_copy(self.queue, hits, self.hits_buf)
        self.queue.finish()
        return out, hits

    def expected_hits(self, launches: int) -> np.ndarray:
        """Each group's count after `launches` launches: its size, once per launch."""
        sizes = np.full(self.groups, self.local)
        sizes[-1] = self.n - self.local * (self.groups - 1)
        return sizes * launches


def selection_of(kernel) -> microprofile.Selection:
    (selection,) = kernel._selections.values()
    return selection


def snapshot() -> dict:
    return dict(vars(microprofile.stats))


def grew(before: dict, name: str) -> int:
    return getattr(microprofile.stats, name) - before[name]
