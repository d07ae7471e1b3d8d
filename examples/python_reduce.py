"""A work-group reduction written in Python: local memory, barriers, a loop around them.

Each work-group of TILE work-items sums TILE elements in __local memory (a tree with sequential
addressing, the barrier inside the loop) and writes one partial sum; the host adds the partial
sums. The kernel is compiled to native code that runs a whole work-group as vectorized loops over
its work-items, on every core (docs/python-kernels.md).
"""
import numpy as np

import loomcl as cl

TILE = 256


@cl.kernel
def reduce(data: cl.global_ptr(np.float32, const=True), partial: cl.global_ptr(np.float32), n: np.int32):
    scratch = cl.local_array(np.float32, TILE)      # one per work-group
    lid = cl.local_id(0)
    i = cl.global_id(0)
    scratch[lid] = data[i] if i < n else 0.0
    cl.barrier(cl.LOCAL_MEM_FENCE)
    step = TILE // 2
    while step > 0:
        if lid < step:
            scratch[lid] += scratch[lid + step]
        cl.barrier(cl.LOCAL_MEM_FENCE)            # every work-item of the group waits here
        step //= 2
    if lid == 0:
        partial[cl.group_id(0)] = scratch[0]


if __name__ == "__main__":
    ctx = cl.create_some_context()
    queue = cl.CommandQueue(ctx)
    a = np.random.rand(1 << 20).astype(np.float32)
    partial = np.empty(a.size // TILE, np.float32)
    reduce(queue, (a.size,), (TILE,), a, partial, a.size)   # numpy arrays: used in place, waited for
    print(f"sum {partial.sum():.3f}, numpy {a.sum(dtype=np.float64):.3f}")
