"""Data-parallel kernels without synchronization, and the work-item queries in 1, 2 and 3 dimensions."""
from __future__ import annotations

import itertools

import numpy as np
import pytest

from e2e_helpers import shape

VECTOR_ADD = """
__kernel void vector_add(__global const float *a, __global const float *b, __global float *c) {
    size_t i = get_global_id(0);
    c[i] = a[i] + b[i];          /* no guard: a remainder group must run exactly its own items */
}
"""


def test_vector_add(run_kernel, variant, rng):
    global_size, local = shape(variant, 1024, 64, 1000)
    n = global_size
    a = rng.random(n, dtype=np.float32)
    b = rng.random(n, dtype=np.float32)
    canary = np.float32(-12345.0)
    c = np.full(n + 64, canary, np.float32)  # items past n must not exist
    (_, _, c) = run_kernel(VECTOR_ADD, "vector_add", (n,), local, a, b, c)
    np.testing.assert_array_equal(c[:n], a + b)
    np.testing.assert_array_equal(c[n:], canary)


SAXPY = """
__kernel void saxpy(float alpha, __global const float *x, __global float *y, int n) {
    int i = get_global_id(0);
    if (i < n) y[i] = alpha * x[i] + y[i];
}

__kernel void saxpy_2d(float alpha, __global const float *x, __global float *y, int width, int height) {
    int col = get_global_id(0);
    int row = get_global_id(1);
    if (col < width && row < height) {
        int i = row * width + col;
        y[i] = alpha * x[i] + y[i];
    }
}
"""


def test_saxpy_1d(run_kernel, variant, rng):
    global_size, local = shape(variant, 2048, 128, 2047)
    n = global_size
    x = rng.standard_normal(n).astype(np.float32)
    y = rng.standard_normal(n).astype(np.float32)
    alpha = np.float32(2.5)
    (_, out) = run_kernel(SAXPY, "saxpy", (n,), local, alpha, x, y, np.int32(n))
    np.testing.assert_allclose(out, alpha * x + y, rtol=1e-6, atol=1e-6)


def test_saxpy_2d(run_kernel, variant, rng):
    (w, h), local = shape(variant, (64, 32), (16, 8), (61, 29))
    x = rng.standard_normal((h, w)).astype(np.float32)
    y = rng.standard_normal((h, w)).astype(np.float32)
    alpha = np.float32(-0.75)
    local = None if local is None else tuple(local)
    (_, out) = run_kernel(SAXPY, "saxpy_2d", (w, h), local, alpha, x, y, np.int32(w), np.int32(h))
    np.testing.assert_allclose(out, alpha * x + y, rtol=1e-6, atol=1e-6)


MATMUL = """
__kernel void matmul(__global const float *A, __global const float *B, __global float *C,
                     int M, int N, int K) {
    int col = get_global_id(0);
    int row = get_global_id(1);
    if (row >= M || col >= N) return;
    float acc = 0.0f;
    for (int k = 0; k < K; ++k)
        acc += A[row * K + k] * B[k * N + col];
    C[row * N + col] = acc;
}
"""


def test_naive_matmul(run_kernel, variant, rng):
    (n, m), local = shape(variant, (40, 48), (8, 8), (37, 45))
    k = 24
    a = rng.standard_normal((m, k)).astype(np.float32)
    b = rng.standard_normal((k, n)).astype(np.float32)
    c = np.zeros((m, n), np.float32)
    (_, _, c) = run_kernel(MATMUL, "matmul", (n, m), local, a, b, c, np.int32(m), np.int32(n), np.int32(k))
    np.testing.assert_allclose(c, a.astype(np.float64) @ b, rtol=1e-4, atol=1e-4)


TILED_MATMUL = """
#ifdef REQD
#define SHAPE __attribute__((reqd_work_group_size(TILE, TILE, 1)))
#else
#define SHAPE
#endif

/* C = A B with two __local tiles; barriers inside the loop over tiles. Each work-item loads with a
   stride of the group's actual size, so a remainder group (smaller than TILE) still fills the tiles. */
__kernel SHAPE void matmul_tiled(__global const float *A, __global const float *B, __global float *C,
                                 int M, int N, int K) {
    __local float As[TILE][TILE];
    __local float Bs[TILE][TILE];
    int tx = get_local_id(0), ty = get_local_id(1);
    int lx = get_local_size(0), ly = get_local_size(1);
    int col0 = get_group_id(0) * TILE, row0 = get_group_id(1) * TILE;
    int col = col0 + tx, row = row0 + ty;
    float acc = 0.0f;
    for (int t = 0; t < K; t += TILE) {
        for (int r = ty; r < TILE; r += ly) {
            for (int c = tx; c < TILE; c += lx) {
                As[r][c] = (row0 + r < M && t + c < K) ? A[(row0 + r) * K + t + c] : 0.0f;
                Bs[r][c] = (t + r < K && col0 + c < N) ? B[(t + r) * N + col0 + c] : 0.0f;
            }
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        for (int k = 0; k < TILE; ++k)
            acc += As[ty][k] * Bs[k][tx];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (row < M && col < N)
        C[row * N + col] = acc;
}
"""


def test_tiled_matmul(run_kernel, variant, rng):
    (n, m), local = shape(variant, (48, 32), (16, 16), (45, 37))
    options = "-D TILE=16" + (" -D REQD" if variant == "none" else "")
    k = 40  # not a multiple of TILE: the last tile is partly zero
    a = rng.standard_normal((m, k)).astype(np.float32)
    b = rng.standard_normal((k, n)).astype(np.float32)
    c = np.full((m, n), np.nan, np.float32)
    (_, _, c) = run_kernel(TILED_MATMUL, "matmul_tiled", (n, m), local, a, b, c,
                           np.int32(m), np.int32(n), np.int32(k), options=options)
    np.testing.assert_allclose(c, a.astype(np.float64) @ b, rtol=1e-4, atol=1e-4)


TRANSPOSE = """
#ifdef REQD
#define SHAPE __attribute__((reqd_work_group_size(T, T, 1)))
#else
#define SHAPE
#endif

/* out (width x height) = transpose of in (height x width), through a padded __local tile. */
__kernel SHAPE void transpose(__global const float *in, __global float *out, int width, int height) {
    __local float tile[T][T + 1];
    int lx = get_local_id(0), ly = get_local_id(1);
    int sx = get_local_size(0), sy = get_local_size(1);
    int bx = get_group_id(0) * T, by = get_group_id(1) * T;
    for (int j = ly; j < T; j += sy)
        for (int i = lx; i < T; i += sx)
            if (by + j < height && bx + i < width)
                tile[j][i] = in[(by + j) * width + bx + i];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int j = ly; j < T; j += sy)
        for (int i = lx; i < T; i += sx)
            if (bx + j < width && by + i < height)
                out[(bx + j) * height + by + i] = tile[i][j];
}
"""


def test_transpose_local_tile(run_kernel, variant, rng):
    (w, h), local = shape(variant, (64, 32), (16, 16), (50, 23))
    options = "-D T=16" + (" -D REQD" if variant == "none" else "")
    a = rng.standard_normal((h, w)).astype(np.float32)
    out = np.zeros((w, h), np.float32)
    (_, out) = run_kernel(TRANSPOSE, "transpose", (w, h), local, a, out, np.int32(w), np.int32(h),
                          options=options)
    np.testing.assert_array_equal(out, a.T)


IDS_3D = """
__kernel void ids(__global int *gid, __global int *lid, __global int *grp, __global int *gsz,
                  __global int *lsz, __global int *ngr, __global int *off, __global int *enq,
                  __global int *dim, int sx, int sy) {
    size_t x = get_global_id(0) - get_global_offset(0);
    size_t y = get_global_id(1) - get_global_offset(1);
    size_t z = get_global_id(2) - get_global_offset(2);
    int i = (int)((z * sy + y) * sx + x);
    for (int d = 0; d < 3; ++d) {
        gid[3 * i + d] = get_global_id(d);
        lid[3 * i + d] = get_local_id(d);
        grp[3 * i + d] = get_group_id(d);
        gsz[3 * i + d] = get_global_size(d);
        lsz[3 * i + d] = get_local_size(d);
        ngr[3 * i + d] = get_num_groups(d);
        off[3 * i + d] = get_global_offset(d);
        enq[3 * i + d] = get_enqueued_local_size(d);
    }
    dim[i] = get_work_dim();
}
"""


def expected_ids(global_size, local, offset):
    """Every work-item's query results, computed from the NDRange geometry (x fastest)."""
    g, l, o = np.array(global_size), np.array(local), np.array(offset)
    rows = {name: [] for name in ("gid", "lid", "grp", "gsz", "lsz", "ngr", "off", "enq")}
    for z, y, x in itertools.product(range(g[2]), range(g[1]), range(g[0])):
        idx = np.array([x, y, z])
        grp = idx // l
        rows["gid"].append(o + idx)
        rows["lid"].append(idx % l)
        rows["grp"].append(grp)
        rows["gsz"].append(g)
        rows["lsz"].append(np.minimum(l, g - grp * l))
        rows["ngr"].append(-(-g // l))
        rows["off"].append(o)
        rows["enq"].append(l)
    return {k: np.array(v, np.int32).reshape(-1) for k, v in rows.items()}


@pytest.mark.parametrize("offset", [(0, 0, 0), (3, 5, 7)])
def test_3d_work_item_queries(run_kernel, variant, offset):
    global_size, local = shape(variant, (8, 6, 4), (4, 3, 2), (7, 5, 3))
    count = int(np.prod(global_size))
    arrays = [np.full(3 * count, -1, np.int32) for _ in range(8)] + [np.full(count, -1, np.int32)]
    results = run_kernel(IDS_3D, "ids", global_size, local, *arrays, np.int32(global_size[0]),
                         np.int32(global_size[1]), global_offset=offset)
    got = dict(zip(("gid", "lid", "grp", "gsz", "lsz", "ngr", "off", "enq", "dim"), results))
    if local is None:  # the runtime chose: read its choice back, then check everything against it
        local = tuple(got["enq"][:3])
        assert all(global_size[d] % local[d] == 0 for d in range(3)), f"chose a non-dividing {local}"
    want = expected_ids(global_size, local, offset)
    for name, values in want.items():
        np.testing.assert_array_equal(got[name], values, err_msg=f"{name} (local {local}, offset {offset})")
    np.testing.assert_array_equal(got["dim"], 3)


IDS_1D_2D = """
__kernel void dims(__global int *out) {
    size_t i = (get_global_id(1) - get_global_offset(1)) * get_global_size(0)
             + get_global_id(0) - get_global_offset(0);
    out[2 * i] = get_work_dim();
    /* queries past the work dimension: id 0, size 1 (OpenCL 1.2 sec. 6.12.1) */
    out[2 * i + 1] = get_global_id(2) * 1000 + get_local_id(2) * 100 + get_group_id(2) * 10
                   + get_global_size(2) + get_local_size(2) + get_num_groups(2);
}
"""


@pytest.mark.parametrize("global_size,local", [((12,), (4,)), ((6, 4), (3, 2))])
def test_work_dim_and_unused_dimensions(run_kernel, global_size, local):
    count = int(np.prod(global_size))
    (out,) = run_kernel(IDS_1D_2D, "dims", global_size, local, np.full(2 * count, -1, np.int32))
    np.testing.assert_array_equal(out[0::2], len(global_size))
    np.testing.assert_array_equal(out[1::2], 3)


SHARED = """
__constant int scale[4] = {1, 10, 100, 1000};

int scaled(int x, int k) { return x * scale[k & 3]; }

void add_local(__local int *dst, int value) { dst[get_local_id(0)] += value; }

__kernel void first(__global int *out) {
    out[get_global_id(0)] = scaled((int)get_global_id(0), 1);
}

__kernel void second(__global int *out, __local int *tmp) {
    int lid = get_local_id(0);
    tmp[lid] = scaled(lid, 2);
    add_local(tmp, 5);
    barrier(CLK_LOCAL_MEM_FENCE);
    out[get_global_id(0)] = tmp[get_local_size(0) - 1 - lid] + (int)get_group_id(0);
}
"""


def test_kernel_reuse_across_local_sizes_and_offsets(ctx, queue):
    """One program, two kernels sharing a helper and a __constant table; the same kernel object is
    launched with several local sizes and global offsets, through set_args and enqueue_nd_range_kernel."""
    import loomcl as cl
    from e2e_helpers import build

    prg = build(ctx, SHARED)
    n = 96
    out = np.zeros(n + 16, np.int32)
    buf = cl.Buffer(ctx, cl.mem_flags.READ_WRITE | cl.mem_flags.COPY_HOST_PTR, hostbuf=out)
    second = prg.second
    for local, offset in [((32,), None), ((8,), None), ((32,), (16,)), ((12,), (4,)), ((7,), None)]:
        second.set_args(buf, cl.LocalMemory(64 * 4))
        cl.enqueue_nd_range_kernel(queue, second, (n,), local, global_work_offset=offset)
        cl.enqueue_copy(queue, out, buf)
        base = offset[0] if offset else 0
        l = local[0]
        want = np.zeros(n, np.int64)
        for g, start in enumerate(range(0, n, l)):
            size = min(l, n - start)
            lid = np.arange(size)
            want[start:start + size] = (size - 1 - lid) * 100 + 5 + g
        np.testing.assert_array_equal(out[base:base + n], want, err_msg=f"local {local}, offset {offset}")
    prg.first(queue, (n,), (16,), buf)
    cl.enqueue_copy(queue, out, buf)
    np.testing.assert_array_equal(out[:n], np.arange(n) * 10)


@pytest.mark.parametrize("n,local", [(10, 64), (1, 1), (1, 256), (65, 64), (3, 2)])
def test_single_partial_group_and_tiny_ranges(run_kernel, rng, n, local):
    """Global sizes below or just above the local size: the only/last group runs at its actual size."""
    a = rng.random(n, dtype=np.float32)
    b = rng.random(n, dtype=np.float32)
    c = np.full(n + 64, -1.0, np.float32)
    (_, _, c) = run_kernel(VECTOR_ADD, "vector_add", (n,), (local,), a, b, c)
    np.testing.assert_array_equal(c[:n], a + b)
    np.testing.assert_array_equal(c[n:], -1.0)
