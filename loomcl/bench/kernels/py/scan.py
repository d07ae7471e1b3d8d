"""Python twin of scan.cl: Blelloch's work-group exclusive scan (two loops with a barrier in each)."""
import numpy as np

import loomcl as cl


@cl.kernel
def scan_blelloch(src: cl.global_ptr(np.float32, const=True), out: cl.global_ptr(np.float32),
                  block_sums: cl.global_ptr(np.float32), tmp: cl.local_ptr(np.float32)):
    lid = cl.local_id(0)
    n = 2 * cl.local_size(0)
    base = cl.group_id(0) * n
    tmp[2 * lid] = src[base + 2 * lid]
    tmp[2 * lid + 1] = src[base + 2 * lid + 1]
    offset = 1
    active = n // 2
    while active > 0:
        cl.barrier(cl.LOCAL_MEM_FENCE)
        if lid < active:
            left = offset * (2 * lid + 1) - 1
            right = offset * (2 * lid + 2) - 1
            tmp[right] += tmp[left]
        offset *= 2
        active //= 2
    if lid == 0:
        block_sums[cl.group_id(0)] = tmp[n - 1]
        tmp[n - 1] = 0.0
    active = 1
    while active < n:
        offset //= 2
        cl.barrier(cl.LOCAL_MEM_FENCE)
        if lid < active:
            left = offset * (2 * lid + 1) - 1
            right = offset * (2 * lid + 2) - 1
            t = tmp[left]
            tmp[left] = tmp[right]
            tmp[right] += t
        active *= 2
    cl.barrier(cl.LOCAL_MEM_FENCE)
    out[base + 2 * lid] = tmp[2 * lid]
    out[base + 2 * lid + 1] = tmp[2 * lid + 1]
