"""Async work-group copies (OpenCL C 6.12.10): async_work_group_copy and
async_work_group_strided_copy in both directions, wait_group_events over several events, prefetch,
and event_t; checked against numpy on kernels that use the copied tiles, in the default pipeline and
in the unstructured and context-all variants of the work-group transforms."""
from __future__ import annotations

import numpy as np
import pytest

import loomcl as cl

PIPELINES = ["", "-loomcl-no-structured -loomcl-no-fold-guards", "-loomcl-context-all"]
CTYPES = {"char": np.int8, "uchar": np.uint8, "short": np.int16, "int": np.int32, "uint": np.uint32,
          "long": np.int64, "float": np.float32, "double": np.float64}


@pytest.mark.parametrize("pipeline", PIPELINES)
def test_stencil_with_a_halo(run_kernel, rng, pipeline):
    """Each group copies its L + 2 inputs into a local tile and averages neighbours from it."""
    src = """
    __kernel void k(__global const float *x, __global float *y, __local float *tile) {
        size_t l = get_local_id(0), L = get_local_size(0), base = get_group_id(0) * L;
        event_t e = async_work_group_copy(tile, x + base, L + 2, 0);
        wait_group_events(1, &e);
        y[base + l] = (tile[l] + tile[l + 1] + tile[l + 2]) / 3.0f;
    }"""
    n, local = 1 << 14, 128
    x = rng.standard_normal(n + 2).astype(np.float32)
    _, y = run_kernel(src, "k", (n,), (local,), x, np.zeros(n, np.float32),
                      cl.LocalMemory(4 * (local + 2)), options=pipeline)
    expected = (x[:-2] + x[1:-1] + x[2:]) / np.float32(3)
    np.testing.assert_allclose(y, expected, rtol=1e-6)


@pytest.mark.parametrize("pipeline", PIPELINES)
def test_transpose_through_local_memory(run_kernel, rng, pipeline):
    """Rows of a 16x16 tile copied in a uniform loop of async copies, one event for all, then
    written out transposed by a 2D work-group."""
    src = """
    #define T 16
    __kernel void k(__global const float *a, __global float *b, int n) {
        __local float tile[T * T];
        size_t gx = get_group_id(0), gy = get_group_id(1);
        size_t lx = get_local_id(0), ly = get_local_id(1);
        event_t e = 0;
        for (int r = 0; r < T; r++)
            e = async_work_group_copy(tile + r * T, a + (gy * T + r) * n + gx * T, T, e);
        wait_group_events(1, &e);
        b[(gx * T + ly) * n + gy * T + lx] = tile[lx * T + ly];
    }"""
    n = 128
    a = rng.standard_normal((n, n)).astype(np.float32)
    _, b = run_kernel(src, "k", (n, n), (16, 16), a, np.zeros((n, n), np.float32), np.int32(n),
                      options=pipeline)
    np.testing.assert_array_equal(b, a.T)


@pytest.mark.parametrize("pipeline", PIPELINES)
def test_strided_copy_both_directions(run_kernel, rng, pipeline):
    """Gather column c of a row-major matrix into local memory (stride = row length), scale it, and
    scatter it back into column c of the output with the strided copy the other way."""
    src = """
    __kernel void k(__global const int *m, __global int *out, __local int *column, int rows, int cols) {
        size_t c = get_group_id(0), l = get_local_id(0);
        event_t e = async_work_group_strided_copy(column, m + c, rows, cols, 0);
        wait_group_events(1, &e);
        for (size_t r = l; r < rows; r += get_local_size(0))
            column[r] = column[r] * 3 + (int)r;
        barrier(CLK_LOCAL_MEM_FENCE);
        e = async_work_group_strided_copy(out + c, column, rows, cols, 0);
        wait_group_events(1, &e);
    }"""
    rows, cols = 100, 37
    m = rng.integers(-1000, 1000, (rows, cols)).astype(np.int32)
    _, out = run_kernel(src, "k", (cols * 32,), (32,), m, np.zeros((rows, cols), np.int32),
                        cl.LocalMemory(4 * rows), np.int32(rows), np.int32(cols), options=pipeline)
    np.testing.assert_array_equal(out, m * 3 + np.arange(rows, dtype=np.int32)[:, None])


@pytest.mark.parametrize("ctype", list(CTYPES))
@pytest.mark.parametrize("n", [1, 3, 4, 16])
def test_every_gentype_round_trip(run_kernel, rng, ctype, n):
    """global -> local -> (reversed by the work-items) -> global, for scalars and vectors."""
    vtype = ctype if n == 1 else f"{ctype}{n}"
    src = f"""
    __kernel void k(__global const {vtype} *x, __global {vtype} *y, __local {vtype} *a, __local {vtype} *b) {{
        size_t l = get_local_id(0), L = get_local_size(0), base = get_group_id(0) * L;
        event_t e = async_work_group_copy(a, x + base, L, 0);
        wait_group_events(1, &e);
        b[L - 1 - l] = a[l];
        barrier(CLK_LOCAL_MEM_FENCE);
        e = async_work_group_copy(y + base, b, L, 0);
        wait_group_events(1, &e);
    }}"""
    groups, local = 8, 16
    lanes = 4 if n == 3 else n
    dtype = CTYPES[ctype]
    x = rng.integers(-100, 100, (groups * local, lanes)).astype(dtype)
    size = np.dtype(dtype).itemsize * lanes
    _, y = run_kernel(src, "k", (groups * local,), (local,), x, np.zeros_like(x),
                      cl.LocalMemory(size * local), cl.LocalMemory(size * local))
    expected = x.reshape(groups, local, lanes)[:, ::-1, :].reshape(-1, lanes)
    np.testing.assert_array_equal(y[:, :n], expected[:, :n])


def test_multiple_events_and_float4(run_kernel, rng):
    src = """
    __kernel void k(__global const float4 *p, __global const float4 *q, __global float4 *out,
                    __local float4 *a, __local float4 *b) {
        size_t l = get_local_id(0), L = get_local_size(0), base = get_group_id(0) * L;
        event_t events[2];
        events[0] = async_work_group_copy(a, p + base, L, 0);
        events[1] = async_work_group_copy(b, q + base, L, 0);
        prefetch(p + base + L, L);
        wait_group_events(2, events);
        a[l] = a[l] * b[L - 1 - l];
        barrier(CLK_LOCAL_MEM_FENCE);
        event_t done = async_work_group_copy(out + base, a, L, 0);
        wait_group_events(1, &done);
    }"""
    groups, local = 16, 64
    p = rng.standard_normal((groups * local, 4)).astype(np.float32)
    q = rng.standard_normal((groups * local, 4)).astype(np.float32)
    _, _, out = run_kernel(src, "k", (groups * local,), (local,), p, q, np.zeros_like(p),
                           cl.LocalMemory(16 * local), cl.LocalMemory(16 * local))
    expected = p.reshape(groups, local, 4) * q.reshape(groups, local, 4)[:, ::-1]
    np.testing.assert_array_equal(out, expected.reshape(-1, 4))


@pytest.mark.parametrize("pipeline", PIPELINES)
def test_copy_sees_what_the_group_wrote_before_the_call(run_kernel, pipeline):
    """The call itself synchronizes the group: every work-item's write to the local tile before
    the call is in the copy, even without a barrier of the kernel's own."""
    src = """
    __kernel void k(__global int *out) {
        __local int tile[64];
        size_t l = get_local_id(0);
        tile[l] = (int)(l * l) + (int)get_group_id(0);
        event_t e = async_work_group_copy(out + get_group_id(0) * 64, tile, 64, 0);
        wait_group_events(1, &e);
    }"""
    (out,) = run_kernel(src, "k", (256,), (64,), np.zeros(256, np.int32), options=pipeline)
    l = np.arange(64)
    np.testing.assert_array_equal(out.reshape(4, 64), l * l + np.arange(4)[:, None])


@pytest.mark.parametrize("pipeline", PIPELINES)
def test_copy_in_a_helper_function_and_ragged_groups(run_kernel, rng, pipeline):
    """The copy inside an inlined helper, with a last group smaller than the others."""
    src = """
    event_t fetch(__local float *dst, __global const float *src, size_t n) {
        return async_work_group_copy(dst, src, n, 0);
    }
    __kernel void k(__global const float *x, __global float *y, __local float *tile, int n) {
        size_t l = get_local_id(0), base = get_group_id(0) * get_enqueued_local_size(0);
        size_t count = min((size_t)get_local_size(0), (size_t)n - base);
        event_t e = fetch(tile, x + base, count);
        wait_group_events(1, &e);
        y[base + l] = tile[count - 1 - l] * 2.0f;
    }"""
    n, local = 1000, 64
    x = rng.standard_normal(n).astype(np.float32)
    _, y = run_kernel(src, "k", (n,), (local,), x, np.zeros(n, np.float32), cl.LocalMemory(4 * local),
                      np.int32(n), options=pipeline)
    expected = np.concatenate([x[s:s + local][::-1] for s in range(0, n, local)]) * np.float32(2)
    np.testing.assert_array_equal(y, expected)


@pytest.mark.parametrize("pipeline", PIPELINES)
def test_3d_group_copies_once(run_kernel, pipeline):
    """In a 4x2x2 group only one work-item copies, and every one sees the whole tile."""
    src = """
    __kernel void k(__global const int *x, __global int *y) {
        __local int tile[16];
        event_t e = async_work_group_copy(tile, x, 16, 0);
        wait_group_events(1, &e);
        size_t i = get_local_id(0) + 4 * (get_local_id(1) + 2 * get_local_id(2));
        size_t g = get_group_id(0)
                   + get_num_groups(0) * (get_group_id(1) + get_num_groups(1) * get_group_id(2));
        y[g * 16 + i] = tile[15 - i] + (int)g;
    }"""
    x = np.arange(16, dtype=np.int32) * 5
    _, y = run_kernel(src, "k", (8, 4, 4), (4, 2, 2), x, np.zeros(8 * 16, np.int32),
                      options=pipeline)
    expected = x[::-1][None, :] + np.arange(8, dtype=np.int32)[:, None]
    np.testing.assert_array_equal(y.reshape(8, 16), expected)


@pytest.mark.parametrize("source, message", [
    ("kernel void k(global float *g, local int *l) { async_work_group_copy(l, g, 4, 0); }",
     "no matching function for call to 'async_work_group_copy'"),
    ("kernel void k(global int *g, local int *l) { async_work_group_copy(l, g, 4, 5); }",
     "passing 'int' to parameter of incompatible type 'event_t'"),
    ("kernel void k() { event_t e = 0; e = e + 1; }", "invalid operands to binary expression"),
    ("kernel void k(event_t e) {}", "kernel parameter cannot be declared as an event_t"),
])
def test_async_copy_errors(ctx, source, message):
    with pytest.raises(cl.RuntimeError) as info:
        cl.Program(ctx, source).build()
    assert message in str(info.value)
