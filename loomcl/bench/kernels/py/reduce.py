"""Python twin of reduce.cl's reduce_sum: a tree in __local memory, the barrier inside the loop."""
import numpy as np

import loomcl as cl


@cl.kernel
def reduce_sum(src: cl.global_ptr(np.float32, const=True), out: cl.global_ptr(np.float32),
               scratch: cl.local_ptr(np.float32), n: np.int32):
    lid = cl.local_id(0)
    gid = cl.global_id(0)
    scratch[lid] = src[gid] if gid < n else 0.0
    cl.barrier(cl.LOCAL_MEM_FENCE)
    s = cl.local_size(0) // 2
    while s > 0:
        if lid < s:
            scratch[lid] += scratch[lid + s]
        cl.barrier(cl.LOCAL_MEM_FENCE)
        s >>= 1
    if lid == 0:
        out[cl.group_id(0)] = scratch[0]
