"""Python twins of histogram.cl (local atomics) and scan.cl (Blelloch's work-group scan)."""
import numpy as np

import loomcl as cl

BINS = 256
u32 = np.uint32


@cl.kernel
def histogram256(data: cl.global_ptr(u32, const=True), partial: cl.global_ptr(u32), words: np.int32):
    bins = cl.local_array(u32, BINS)
    lid = cl.local_id(0)
    lsize = cl.local_size(0)
    for b in range(lid, BINS, lsize):
        bins[b] = 0
    cl.barrier(cl.LOCAL_MEM_FENCE)
    for i in range(cl.global_id(0), words, cl.global_size(0)):
        w = data[i]
        cl.atomic_inc(bins, w & 0xFF)
        cl.atomic_inc(bins, (w >> 8) & 0xFF)
        cl.atomic_inc(bins, (w >> 16) & 0xFF)
        cl.atomic_inc(bins, w >> 24)
    cl.barrier(cl.LOCAL_MEM_FENCE)
    for b in range(lid, BINS, lsize):
        partial[cl.group_id(0) * BINS + b] = bins[b]


@cl.kernel
def histogram_merge(partial: cl.global_ptr(u32, const=True), histogram: cl.global_ptr(u32), groups: np.int32):
    b = cl.global_id(0)
    total = u32(0)
    for g in range(groups):
        total += partial[g * BINS + b]
    histogram[b] = total


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
