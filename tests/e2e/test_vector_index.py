"""`v[i]`, clang's vector subscript: read and write one lane of a vector by a constant or run-time
index, for vectors in private, local and global memory and for vector rvalues."""
from __future__ import annotations

import numpy as np
import pytest

import loomcl as cl

LANES = (2, 3, 4, 8, 16)


@pytest.mark.parametrize("n", LANES)
def test_private_read_and_write_by_variable_index(run_kernel, rng, n):
    src = f"""
    __kernel void k(__global const float{n} *x, __global const int *j, __global float *out,
                    __global float{n} *y) {{
        int i = get_global_id(0);
        float{n} v = x[i];
        int lane = j[i];
        out[i] = v[lane] + v[0] * 2.0f;     /* a read by a run-time and a constant index */
        v[lane] *= 3.0f;                     /* compound assignment through the lane */
        v[{n} - 1] = -v[{n} - 1];
        y[i] = v;
    }}"""
    m = 256
    stride = 4 if n == 3 else n
    x = rng.standard_normal((m, stride)).astype(np.float32)
    j = rng.integers(0, n, m).astype(np.int32)
    _, _, out, y = run_kernel(src, "k", (m,), (32,), x, j, np.zeros(m, np.float32),
                              np.zeros((m, stride), np.float32))
    rows = np.arange(m)
    np.testing.assert_array_equal(out, x[rows, j] + x[:, 0] * np.float32(2))
    expected = x.copy()
    expected[rows, j] *= np.float32(3)
    expected[:, n - 1] = -expected[:, n - 1]
    np.testing.assert_array_equal(y[:, :n], expected[:, :n])


def test_global_lanes_written_by_different_work_items(run_kernel):
    """Work-item i writes lane i%4 of vector i/4 in global memory: a lane store must not
    overwrite the neighbours' lanes."""
    src = """
    __kernel void k(__global int4 *v) {
        int i = get_global_id(0);
        v[i / 4][i % 4] = i * 10;
        v[i / 4][i % 4] += 1;
    }"""
    n = 1024
    (v,) = run_kernel(src, "k", (n,), (64,), np.zeros((n // 4, 4), np.int32))
    np.testing.assert_array_equal(v.ravel(), np.arange(n) * 10 + 1)


def test_local_vector_lanes_across_a_barrier(run_kernel):
    src = """
    __kernel void k(__global const uint *x, __global uint *out) {
        __local uint8 tile[8];
        int l = get_local_id(0);
        tile[l / 8][l % 8] = x[get_global_id(0)];
        barrier(CLK_LOCAL_MEM_FENCE);
        int r = 63 - l;
        out[get_global_id(0)] = tile[r / 8][r % 8];
    }"""
    n = 512
    x = np.arange(n, dtype=np.uint32) * 7
    _, out = run_kernel(src, "k", (n,), (64,), x, np.zeros(n, np.uint32))
    np.testing.assert_array_equal(out, x.reshape(-1, 64)[:, ::-1].ravel())


def test_rvalue_vector_index_and_increment(run_kernel):
    src = """
    __kernel void k(__global const short4 *x, __global short *out) {
        int i = get_global_id(0);
        short4 v = x[i];
        int k = i & 3;
        v[k]++;
        out[i] = (v * (short)2)[k] + x[i][3 - k];
    }"""
    m = 128
    x = np.arange(4 * m, dtype=np.int16).reshape(m, 4)
    _, out = run_kernel(src, "k", (m,), (16,), x, np.zeros(m, np.int16))
    rows, k = np.arange(m), np.arange(m) & 3
    np.testing.assert_array_equal(out, (x[rows, k] + 1) * 2 + x[rows, 3 - k])


def test_index_is_evaluated_once(run_kernel):
    src = """
    __kernel void k(__global int *out) {
        int4 v = (int4)(10, 20, 30, 40);
        int j = 0;
        v[j++] += 5;
        out[0] = v.x; out[1] = v.y; out[2] = j;
    }"""
    (out,) = run_kernel(src, "k", (1,), (1,), np.zeros(3, np.int32))
    assert list(out) == [15, 20, 1]


def test_index_of_a_swizzle(run_kernel):
    src = """
    __kernel void k(__global const int8 *x, __global int *out) {
        int8 v = x[0];
        for (int j = 0; j < 4; j++) out[j] = v.hi[j] + x[0].even[j] * 100;
    }"""
    x = np.arange(8, dtype=np.int32) + 1
    _, out = run_kernel(src, "k", (1,), (1,), x, np.zeros(4, np.int32))
    np.testing.assert_array_equal(out, x[4:] + x[0::2] * 100)


def test_constant_memory_vector_index(run_kernel, ctx):
    src = """
    __kernel void k(__constant float4 *table, __global float *out) {
        int i = get_global_id(0);
        out[i] = table[i / 4][i % 4];
    }"""
    table = cl.Buffer(ctx, cl.mem_flags.READ_ONLY | cl.mem_flags.COPY_HOST_PTR,
                      hostbuf=np.arange(1, 9, dtype=np.float32))
    (out,) = run_kernel(src, "k", (8,), (8,), table, np.zeros(8, np.float32))
    np.testing.assert_array_equal(out, np.arange(1, 9, dtype=np.float32))


@pytest.mark.parametrize("source, message", [
    ("kernel void k() { float4 v; float *p = &v[1]; }", "address of vector element requested"),
    ("kernel void k() { float4 v; v[1.5f] = 0; }", "array subscript is not an integer"),
    ("kernel void k() { const int2 v = (int2)(1, 2); v[0] = 3; }", "const-qualified"),
    ("kernel void k() { int4 v = 0; v.xy[0] = 3; }", "expression is not assignable"),
])
def test_vector_index_errors(ctx, source, message):
    with pytest.raises(cl.RuntimeError) as info:
        cl.Program(ctx, source).build()
    assert message in str(info.value)
