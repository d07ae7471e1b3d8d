"""Python twin of histogram.cl: a 256-bin histogram with local atomics, then a merge of the groups' bins."""
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
