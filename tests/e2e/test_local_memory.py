"""__local memory: kernel-scope variables and arrays, LocalMemory arguments, remainder groups,
the histogram with local and global atomics."""
from __future__ import annotations

import numpy as np
import pytest

import loomcl as cl
from e2e_helpers import shape

LOCAL_FLAG = """
/* (a) a __local scalar declared in the kernel body, written by item 0, read by all after a barrier */
__kernel void local_flag(__global const int *in, __global int *out) {
    __local int flag;
    if (get_local_id(0) == 0)
        flag = in[get_group_id(0)] * 3 + (int)get_local_size(0);
    barrier(CLK_LOCAL_MEM_FENCE);
    out[get_global_id(0)] = flag + (int)get_local_id(0);
}
"""


def test_local_scalar_flag(run_kernel, variant, rng):
    n, local = shape(variant, 512, 64, 512 + 37)
    groups_max = n  # enough for any local size
    per_group = rng.integers(-1000, 1000, groups_max).astype(np.int32)
    (_, out) = run_kernel(LOCAL_FLAG, "local_flag", (n,), None if local is None else (local,), per_group,
                          np.zeros(n, np.int32))
    if local is None:
        local = int(out[0] - per_group[0] * 3)  # item 0's flag includes its group's size
        assert n % local == 0
    want = np.empty(n, np.int32)
    for g, start in enumerate(range(0, n, local)):
        size = min(local, n - start)
        want[start:start + size] = per_group[g] * 3 + size + np.arange(size)
    np.testing.assert_array_equal(out, want)


PARTIAL_GROUP = """
/* (c) __local memory in a remainder work-group: each group sums its own items (any group size). */
__kernel void group_sums(__global const int *in, __global int *sums, __global int *sizes) {
    __local int tmp[128];
    __local int total;
    int lid = get_local_id(0);
    int size = get_local_size(0);
    tmp[lid] = in[get_global_id(0)];
    barrier(CLK_LOCAL_MEM_FENCE);
    /* halving that also works for sizes that are not powers of two */
    for (int len = size; len > 1; ) {
        int upper = (len + 1) / 2;
        if (lid < len - upper)
            tmp[lid] += tmp[lid + upper];
        barrier(CLK_LOCAL_MEM_FENCE);
        len = upper;
    }
    if (lid == 0) {
        total = 0;
        for (int i = 0; i < size; ++i)      /* a serial cross-check by item 0 */
            total += in[get_group_id(0) * get_enqueued_local_size(0) + i];
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    if (lid == size - 1) {
        sums[2 * get_group_id(0)] = tmp[0];
        sums[2 * get_group_id(0) + 1] = total;
        sizes[get_group_id(0)] = size;
    }
}
"""


@pytest.mark.parametrize("n,local", [(100, 32), (7, 16), (129, 128), (3 * 48 + 11, 48)])
def test_local_memory_in_remainder_group(run_kernel, rng, n, local):
    data = rng.integers(-1000, 1000, n).astype(np.int32)
    groups = -(-n // local)
    (_, sums, sizes) = run_kernel(PARTIAL_GROUP, "group_sums", (n,), (local,), data,
                                  np.zeros(2 * groups, np.int32), np.zeros(groups, np.int32))
    want_sizes = [local] * (n // local) + ([n % local] if n % local else [])
    np.testing.assert_array_equal(sizes, want_sizes)
    want = [int(data[g * local:(g + 1) * local].sum()) for g in range(groups)]
    np.testing.assert_array_equal(sums[0::2], want, err_msg="tree sums")
    np.testing.assert_array_equal(sums[1::2], want, err_msg="serial sums")


def test_local_memory_in_remainder_group_variants(run_kernel, variant, rng):
    n, local = shape(variant, 256, 64, 256 + 45)
    data = rng.integers(-1000, 1000, n).astype(np.int32)
    (_, sums, sizes) = run_kernel(PARTIAL_GROUP, "group_sums", (n,), None if local is None else (local,), data,
                                  np.zeros(2 * n, np.int32), np.zeros(n, np.int32))
    groups = int(np.count_nonzero(sizes))
    assert sizes[:groups].sum() == n
    stops = np.cumsum(sizes[:groups])
    want = [int(data[b - s:b].sum()) for s, b in zip(sizes[:groups], stops)]
    np.testing.assert_array_equal(sums[0:2 * groups:2], want)
    np.testing.assert_array_equal(sums[1:2 * groups:2], want)


HISTOGRAM = """
#define BINS 256
__kernel void histogram(__global const uchar *data, int n, __global uint *hist) {
    __local uint bins[BINS];
    int lid = get_local_id(0);
    int size = get_local_size(0);
    for (int i = lid; i < BINS; i += size)
        bins[i] = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int i = get_global_id(0); i < n; i += get_global_size(0))
        atomic_inc(&bins[data[i]]);
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int i = lid; i < BINS; i += size)
        if (bins[i] != 0)
            atomic_add(&hist[i], bins[i]);
}
"""


def test_histogram_256_bins(run_kernel, variant, rng):
    items, local = shape(variant, 512, 64, 512 - 24)
    n = 20000
    data = rng.integers(0, 256, n).astype(np.uint8)
    data[:500] = 17  # a hot bin: many collisions in the same work-group
    (_, hist) = run_kernel(HISTOGRAM, "histogram", (items,), None if local is None else (local,), data,
                           np.int32(n), np.zeros(256, np.uint32))
    np.testing.assert_array_equal(hist, np.bincount(data, minlength=256).astype(np.uint32))


SEVERAL_LOCALS = """
/* Two LocalMemory arguments of different types and a kernel-scope array, used together. */
__kernel void several(__global const float *in, __global float *out, __local float *a, __local int *b) {
    __local short c[256];
    int lid = get_local_id(0);
    int size = get_local_size(0);
    a[lid] = in[get_global_id(0)];
    b[lid] = lid * 3;
    c[lid] = (short)(size - lid);
    barrier(CLK_LOCAL_MEM_FENCE);
    int j = size - 1 - lid;
    out[get_global_id(0)] = a[j] * 2.0f + (float)b[j] + (float)c[j];
}
"""


def test_several_local_buffers(run_kernel, variant, rng):
    n, local = shape(variant, 256, 64, 256 + 9)
    data = rng.standard_normal(n).astype(np.float32)
    (_, out) = run_kernel(SEVERAL_LOCALS, "several", (n,), None if local is None else (local,), data,
                          np.zeros(n, np.float32), cl.LocalMemory(256 * 4), cl.LocalMemory(256 * 4))
    size_guess = [local] if local is not None else [s for s in (8, 16, 32, 64, 128, 256) if n % s == 0]
    wants = []
    for s in size_guess:
        want = np.empty(n, np.float32)
        for start in range(0, n, s):
            size = min(s, n - start)
            lid = np.arange(size)
            j = size - 1 - lid
            want[start:start + size] = (data[start + j] * np.float32(2) + (j * 3).astype(np.float32)) + (size - j).astype(np.float32)
        wants.append(want)
    assert any(np.array_equal(out, w) for w in wants), f"{out[:8]} vs {wants[-1][:8]}"


LOCAL_2D = """
/* A 2D __local array shared by a 2D group: each item reads its mirror item's value. */
__kernel void mirror(__global const int *in, __global int *out, int width) {
    __local int tile[8][8];
    int x = get_local_id(0), y = get_local_id(1);
    int sx = get_local_size(0), sy = get_local_size(1);
    int gx = get_global_id(0), gy = get_global_id(1);
    tile[y][x] = in[gy * width + gx];
    barrier(CLK_LOCAL_MEM_FENCE);
    out[gy * width + gx] = tile[sy - 1 - y][sx - 1 - x];
}
"""


def test_local_2d_mirror(run_kernel, rng):
    for (w, h), local in [((32, 16), (8, 8)), ((29, 13), (8, 4))]:
        data = rng.integers(0, 1 << 30, (h, w)).astype(np.int32)
        (_, out) = run_kernel(LOCAL_2D, "mirror", (w, h), local, data, np.zeros((h, w), np.int32), np.int32(w))
        want = np.empty_like(data)
        for y0 in range(0, h, local[1]):
            for x0 in range(0, w, local[0]):
                block = data[y0:y0 + local[1], x0:x0 + local[0]]
                want[y0:y0 + local[1], x0:x0 + local[0]] = block[::-1, ::-1]
        np.testing.assert_array_equal(out, want, err_msg=f"global {(w, h)} local {local}")
