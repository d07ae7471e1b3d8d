"""The shapes of kernels that array libraries (pyopencl.array, its elementwise, reduction, scan and
random-number generators) generate, written here from scratch and checked against numpy: complex
numbers as unions of anonymous aligned structs declared by token-pasting macros, arrays as a base
pointer and a byte offset, tree reductions of structs in local memory, work-group scans, and a
counter-based random generator built on mul_hi. tests/corpus/pyopencl_survey.py builds pyopencl's
own kernels; these keep the constructs they rely on working without it."""
from __future__ import annotations

import numpy as np
import pytest

COMPLEX = """
#define COMPLEX_TYPE(B)                                                        \\
  typedef union {                                                              \\
    struct { B x, y; } __attribute__((aligned(sizeof(B))));                    \\
    struct { B real, imag; } __attribute__((aligned(sizeof(B))));              \\
  } c##B##_t;                                                                  \\
  inline c##B##_t c##B##_new(B re, B im) { c##B##_t r; r.real = re; r.imag = im; return r; } \\
  inline c##B##_t c##B##_mul(c##B##_t a, c##B##_t b) {                         \\
    return c##B##_new(a.real * b.real - a.imag * b.imag, a.real * b.imag + a.imag * b.real); } \\
  inline c##B##_t c##B##_divide(c##B##_t a, c##B##_t b) {                      \\
    B d = b.x * b.x + b.y * b.y;                                               \\
    return c##B##_new((a.x * b.x + a.y * b.y) / d, (a.y * b.x - a.x * b.y) / d); } \\
  inline c##B##_t c##B##_exp(c##B##_t a) {                                     \\
    B c; B s = sincos(a.imag, &c); return c##B##_new(exp(a.real) * c, exp(a.real) * s); }

COMPLEX_TYPE(float)
COMPLEX_TYPE(double)

__kernel void complex_ops(__global cfloat_t *out, __global const cfloat_t *a, cfloat_t k,
                          __global cdouble_t *wide, __global long *sizes) {
    int i = get_global_id(0);
    cfloat_t p = cfloat_mul(a[i], k);
    out[3 * i] = p;
    out[3 * i + 1] = cfloat_divide(a[i], k);
    out[3 * i + 2] = cfloat_exp(a[i]);
    cdouble_t w = cdouble_new(a[i].x, a[i].imag);
    wide[i] = cdouble_mul(w, w);
    if (i == 0) {
        sizes[0] = sizeof(cfloat_t); sizes[1] = sizeof(cdouble_t);
    }
}
"""


def test_complex_unions_by_value_and_in_buffers(run_kernel, rng):
    n = 40
    a = (rng.standard_normal(n) + 1j * rng.standard_normal(n)).astype(np.complex64)
    k = np.complex64(0.75 - 1.5j)
    out, _, wide, sizes = run_kernel(COMPLEX, "complex_ops", (n,), (8,), np.zeros(3 * n, np.complex64), a, k,
                                     np.zeros(n, np.complex128), np.zeros(2, np.int64))
    assert list(sizes) == [8, 16]
    np.testing.assert_allclose(out[0::3], a * k, rtol=1e-6)
    np.testing.assert_allclose(out[1::3], a / k, rtol=1e-6)
    np.testing.assert_allclose(out[2::3], np.exp(a.astype(np.complex128)), rtol=1e-5)
    np.testing.assert_allclose(wide, a.astype(np.complex128) ** 2, rtol=1e-13)


OFFSETS = """
__kernel void axpbyz(__global float *z__base, long z__offset, float a,
                     __global const float *x__base, long x__offset, float b,
                     __global const double *y__base, long y__offset, long n) {
    int lid = get_local_id(0);
    int gsize = get_global_size(0);
    int work_group_start = get_local_size(0) * get_group_id(0);
    __global float *z = (__global float *) ((__global char *) z__base + z__offset);
    __global const float *x = (__global const float *) ((__global const char *) x__base + x__offset);
    __global const double *y = (__global const double *) ((__global const char *) y__base + y__offset);
    for (long i = work_group_start + lid; i < n; i += gsize)
        z[i] = a * x[i] + b * (float) y[i];
}
"""


@pytest.mark.parametrize("n, global_size, local_size", [(1000, (256,), (64,)), (37, (64,), (32,)),
                                                         (5000, (96,), None)])
def test_elementwise_over_base_pointers_and_byte_offsets(run_kernel, rng, n, global_size, local_size):
    """A grid-stride loop over arrays that start inside their buffers (slices of larger arrays)."""
    x = rng.standard_normal(n + 5).astype(np.float32)
    y = rng.standard_normal(n + 3)
    z = np.full(n + 7, -1.0, np.float32)
    z_out, _, _ = run_kernel(OFFSETS, "axpbyz", global_size, local_size, z, np.int64(7 * 4), np.float32(2.0),
                             x, np.int64(5 * 4), np.float32(-0.5), y, np.int64(3 * 8), np.int64(n))
    np.testing.assert_array_equal(z_out[:7], -1.0)
    np.testing.assert_allclose(z_out[7:], 2 * x[5:] - 0.5 * y[3:].astype(np.float32), rtol=1e-6)


STRUCT_REDUCE = """
#define GROUP 128
typedef struct { int lo; int hi; long count; } minmax;

minmax neutral(void) { minmax r; r.lo = 1 << 30; r.hi = -(1 << 30); r.count = 0; return r; }
minmax from_scalar(int v) { minmax r; r.lo = v; r.hi = v; r.count = 1; return r; }
minmax combine(minmax a, minmax b) {
    minmax r = a;
    if (b.lo < r.lo) r.lo = b.lo;
    if (b.hi > r.hi) r.hi = b.hi;
    r.count += b.count;
    return r;
}
#define STEP(S) barrier(CLK_LOCAL_MEM_FENCE); \\
                if (lid < S) ldata[lid] = combine(ldata[lid], ldata[lid + S]);

__kernel __attribute__((reqd_work_group_size(GROUP, 1, 1)))
void reduce_stage(__global minmax *out, __global const int *in, unsigned int seq_count, long n) {
    __local minmax ldata[GROUP];
    unsigned int lid = get_local_id(0);
    long i = get_group_id(0) * GROUP * seq_count + lid;
    minmax acc = neutral();
    for (unsigned s = 0; s < seq_count; ++s) {
        if (i >= n) break;
        acc = combine(acc, from_scalar(in[i]));
        i += GROUP;
    }
    ldata[lid] = acc;
    STEP(64) STEP(32) STEP(16) STEP(8) STEP(4) STEP(2) STEP(1)
    if (lid == 0) out[get_group_id(0)] = ldata[0];
}
"""
MINMAX = np.dtype([("lo", np.int32), ("hi", np.int32), ("count", np.int64)])


@pytest.mark.parametrize("n, seq_count", [(10_000, 7), (128, 1), (1, 3), (3001, 2)])
def test_tree_reduction_of_structs_in_local_memory(run_kernel, rng, n, seq_count):
    data = rng.integers(-10**6, 10**6, n).astype(np.int32)
    groups = -(-n // (128 * seq_count))
    (partial, _) = run_kernel(STRUCT_REDUCE, "reduce_stage", (groups * 128,), (128,),
                              np.zeros(groups, MINMAX), data, np.uint32(seq_count), np.int64(n))
    assert partial["count"].sum() == n
    assert partial["lo"].min() == data.min() and partial["hi"].max() == data.max()
    for g in range(groups):
        chunk = data[g * 128 * seq_count:(g + 1) * 128 * seq_count]
        assert (partial["lo"][g], partial["hi"][g]) == (chunk.min(), chunk.max())


SCAN = """
#define WG 64
__kernel __attribute__((reqd_work_group_size(WG, 1, 1)))
void scan_groups(__global long *out, __global const int *in, __global long *group_sums, int n) {
    __local long a[WG], b[WG];
    __local long *src = a, *dst = b;
    int lid = get_local_id(0), g = get_global_id(0);
    a[lid] = g < n ? in[g] : 0;
    for (int offset = 1; offset < WG; offset *= 2) {
        barrier(CLK_LOCAL_MEM_FENCE);
        dst[lid] = src[lid] + (lid >= offset ? src[lid - offset] : 0);
        __local long *t = src; src = dst; dst = t;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    if (g < n) out[g] = src[lid] - (g < n ? in[g] : 0);      /* exclusive */
    if (lid == WG - 1) group_sums[get_group_id(0)] = src[lid];
}

__kernel void add_carries(__global long *out, __global const long *group_sums, int n) {
    int g = get_global_id(0);
    long carry = 0;
    for (int k = 0; k < (int) get_group_id(0); k++) carry += group_sums[k];
    if (g < n) out[g] += carry;
}
"""


@pytest.mark.parametrize("n", [1, 64, 1000, 4097])
def test_exclusive_scan_across_work_groups(run_kernel, rng, n):
    data = rng.integers(-1000, 1000, n).astype(np.int32)
    groups = -(-n // 64)
    out, _, sums = run_kernel(SCAN, "scan_groups", (groups * 64,), (64,),
                              np.zeros(n, np.int64), data, np.zeros(groups, np.int64), np.int32(n))
    (done, _) = run_kernel(SCAN, "add_carries", (groups * 64,), (64,), out, sums, np.int32(n))
    expected = np.concatenate([[0], np.cumsum(data, dtype=np.int64)[:-1]])
    np.testing.assert_array_equal(done, expected)


PHILOX = """
typedef struct { uint v[4]; } ctr4;
typedef struct { uint v[2]; } key2;

ctr4 philox_round(ctr4 c, key2 k) {
    uint hi0 = mul_hi(0xD2511F53u, c.v[0]), lo0 = 0xD2511F53u * c.v[0];
    uint hi1 = mul_hi(0xCD9E8D57u, c.v[2]), lo1 = 0xCD9E8D57u * c.v[2];
    ctr4 r = {{hi1 ^ c.v[1] ^ k.v[0], lo1, hi0 ^ c.v[3] ^ k.v[1], lo0}};
    return r;
}

ctr4 philox4x32_10(ctr4 c, key2 k) {
    for (int round = 0; round < 10; round++) {
        if (round > 0) { k.v[0] += 0x9E3779B9u; k.v[1] += 0xBB67AE85u; }
        c = philox_round(c, k);
    }
    return c;
}

__kernel void uniform(__global float *out, __global uint *bits, uint seed) {
    uint i = get_global_id(0);
    ctr4 c = {{i, 0, 0, 0}};
    key2 k = {{seed, 0x12345678u}};
    ctr4 r = philox4x32_10(c, k);
    vstore4((float4)(r.v[0], r.v[1], r.v[2], r.v[3]) * (1.0f / 4294967296.0f), i, out);
    vstore4((uint4)(r.v[0], r.v[1], r.v[2], r.v[3]), i, bits);
}
"""


def philox_reference(counter: int, key: tuple[int, int]) -> list[int]:
    """Philox4x32-10 (Salmon et al., SC'11) with Python integers."""
    mask = 0xFFFFFFFF
    c, k = [counter, 0, 0, 0], list(key)
    for round_ in range(10):
        if round_:
            k = [(k[0] + 0x9E3779B9) & mask, (k[1] + 0xBB67AE85) & mask]
        p0, p1 = 0xD2511F53 * c[0], 0xCD9E8D57 * c[2]
        c = [(p1 >> 32) ^ c[1] ^ k[0], p1 & mask, (p0 >> 32) ^ c[3] ^ k[1], p0 & mask]
    return c


def test_counter_based_random_numbers_are_bit_exact(run_kernel):
    n, seed = 96, 2024
    out, bits = run_kernel(PHILOX, "uniform", (n,), (32,), np.zeros(4 * n, np.float32),
                           np.zeros(4 * n, np.uint32), np.uint32(seed))
    expected = np.array([philox_reference(i, (seed, 0x12345678)) for i in range(n)], np.uint32).ravel()
    np.testing.assert_array_equal(bits, expected)
    np.testing.assert_array_equal(out, expected.astype(np.float32) * np.float32(1 / 4294967296))
    assert 0.4 < out.mean() < 0.6


def test_headers_under_pragma_once_included_through_two_paths(run_kernel, tmp_path):
    (tmp_path / "poly.h").write_text("#pragma once\nfloat poly(float x) { return x * x + 1.0f; }\n")
    (tmp_path / "table.h").write_text("#pragma once\n#include <poly.h>\n__constant float table[2] = {2.0f, 3.0f};\n")
    src = ("#include <poly.h>\n#include <table.h>\n#include \"table.h\"\n"
           "__kernel void k(__global float *out) { int i = get_global_id(0); out[i] = poly(table[i % 2] + i); }\n")
    (out,) = run_kernel(src, "k", (8,), None, np.zeros(8, np.float32), options=f"-I {tmp_path}")
    x = np.array([2.0, 3.0] * 4, np.float32) + np.arange(8)
    np.testing.assert_array_equal(out, x * x + 1)
