"""OpenCL C language features end to end: helper functions, control flow, integer semantics,
conversions, the ternary operator and program-scope __constant data."""
from __future__ import annotations

import numpy as np
import pytest

import loomcl as cl

from e2e_helpers import shape


def sizes(variant):
    n, local = shape(variant, 256, 32, 250)
    return n, None if local is None else (local,)


HELPERS = """
float poly(float x) { return 1.0f + x * (2.0f + x * 3.0f); }

void split(float x, float *whole, float *frac) {
    *whole = (float)(int)x;
    *frac = x - *whole;
}

int sum3(__global const int *p) { return p[0] + p[1] + p[2]; }

void fill(int *values, int count, int start) {
    for (int i = 0; i < count; ++i)
        values[i] = start + i * i;
}

int sum_array(const int *values, int count) {
    int s = 0;
    for (int i = 0; i < count; ++i) s += values[i];
    return s;
}

int twice(int x) { return x + x; }
int nested(int x) { return twice(twice(x) + 1) - x; }

__kernel void helpers(__global const float *x, __global const int *ints, __global float *p,
                      __global float *whole, __global float *frac, __global int *s3,
                      __global int *arr, __global int *nest, int n) {
    int i = get_global_id(0);
    if (i >= n) return;
    p[i] = poly(x[i]);
    float w, f;
    split(x[i], &w, &f);
    whole[i] = w;
    frac[i] = f;
    s3[i] = sum3(ints + i);
    int values[5];
    fill(values, 5, i);
    arr[i] = sum_array(values, 5);
    nest[i] = nested(ints[i]);
}
"""


def test_helper_functions(run_kernel, variant, rng):
    n, local = sizes(variant)
    x = (rng.standard_normal(n) * 10).astype(np.float32)
    ints = rng.integers(-1000, 1000, n + 2).astype(np.int32)
    outs = [np.zeros(n, np.float32) for _ in range(3)] + [np.zeros(n, np.int32) for _ in range(3)]
    res = run_kernel(HELPERS, "helpers", (n,), local, x, ints, *outs, np.int32(n))
    p, whole, frac, s3, arr, nest = res[2:]
    x64 = x.astype(np.float32)
    want_p = np.float32(1) + x64 * (np.float32(2) + x64 * np.float32(3))
    np.testing.assert_allclose(p, want_p, rtol=1e-6)
    np.testing.assert_array_equal(whole, np.trunc(x))
    np.testing.assert_array_equal(frac, x - np.trunc(x))
    np.testing.assert_array_equal(s3, ints[:n] + ints[1:n + 1] + ints[2:n + 2])
    i = np.arange(n)
    np.testing.assert_array_equal(arr, 5 * i + (0 + 1 + 4 + 9 + 16))
    np.testing.assert_array_equal(nest, 2 * (2 * ints[:n] + 1) - ints[:n])


CONTROL_FLOW = """
__kernel void control(__global const int *in, __global int *sw, __global int *dw, __global int *bc,
                      __global int *nested_out, int n) {
    int i = get_global_id(0);
    if (i >= n) return;
    int x = in[i];

    int r = 0;
    switch (x % 6) {
    case 0:
        r += 1;              /* falls through */
    case 1:
        r += 10;
        break;
    case 2:
    case 3:
        r += 100;
        break;
    default:
        r = -1;              /* falls through */
    case 5:
        r += 1000;
    }
    sw[i] = r;

    int steps = 0;
    int v = x < 0 ? -x : x;
    do {                     /* runs once even when v starts at 0 or 1 */
        v = (v % 2 == 0) ? v / 2 : 3 * v + 1;
        ++steps;
    } while (v > 1 && steps < 200);
    dw[i] = steps;

    int acc = 0;
    for (int k = 0; k < 40; ++k) {
        if (k % 3 == 0) continue;
        if (acc > (x & 255)) break;
        acc += k;
    }
    bc[i] = acc;

    int found = -1;
    for (int a = 0; a < 8 && found < 0; ++a) {
        for (int b = 0; b < 8; ++b) {
            if (b > a) break;
            if ((a * 8 + b) % 13 == (x & 15)) { found = a * 8 + b; break; }
        }
    }
    nested_out[i] = found;
}
"""


def control_reference(x):
    m = int(np.fmod(x, 6))
    if m == 0:
        r = 11
    elif m == 1:
        r = 10
    elif m in (2, 3):
        r = 100
    elif m == 5:
        r = 1000
    else:
        r = 999
    v, steps = abs(x), 0
    while True:
        v = v // 2 if v % 2 == 0 else 3 * v + 1
        steps += 1
        if not (v > 1 and steps < 200):
            break
    acc = 0
    for k in range(40):
        if k % 3 == 0:
            continue
        if acc > (x & 255):
            break
        acc += k
    found = -1
    for a in range(8):
        if found >= 0:
            break
        for b in range(8):
            if b > a:
                break
            if (a * 8 + b) % 13 == (x & 15):
                found = a * 8 + b
                break
    return r, steps, acc, found


def test_control_flow(run_kernel, variant, rng):
    n, local = sizes(variant)
    data = rng.integers(-500, 500, n).astype(np.int32)
    data[:4] = [0, 1, -6, 7]
    res = run_kernel(CONTROL_FLOW, "control", (n,), local, data, *[np.zeros(n, np.int32) for _ in range(4)],
                     np.int32(n))
    want = np.array([control_reference(int(x)) for x in data], np.int32)
    for col, name in enumerate(("switch", "do-while", "break/continue", "nested break")):
        np.testing.assert_array_equal(res[1 + col], want[:, col], err_msg=name)


INTEGER_OPS = """
__kernel void integers(__global const int *a, __global const int *b, __global const uint *ua,
                       __global const uint *ub, __global int *out, __global uint *uout, int n) {
    int i = get_global_id(0);
    if (i >= n) return;
    int x = a[i], y = b[i];
    uint ux = ua[i], uy = ub[i];
    int s = y & 63;
    out[12 * i + 0] = x / y;
    out[12 * i + 1] = x % y;
    out[12 * i + 2] = x >> (s & 31);           /* arithmetic shift */
    out[12 * i + 3] = x << s;                  /* count masked to 5 bits (OpenCL 6.3.j) */
    out[12 * i + 4] = x < y;
    out[12 * i + 5] = (uint)x < (uint)y;       /* unsigned comparison of signed values */
    out[12 * i + 6] = x < uy;                  /* usual conversions: x becomes uint */
    out[12 * i + 7] = (x ^ y) & ~(x | 7);
    out[12 * i + 8] = -x * 3 + y;
    out[12 * i + 9] = (int)(((long)x * (long)y) >> 16);
    out[12 * i + 10] = x > y ? x : y;
    out[12 * i + 11] = !x + (x != 0) * 2 + (x && y) * 4 + (x || y) * 8;
    uout[6 * i + 0] = ux / uy;
    uout[6 * i + 1] = ux % uy;
    uout[6 * i + 2] = ux >> (s & 31);          /* logical shift */
    uout[6 * i + 3] = ux << s;
    uout[6 * i + 4] = ux > uy;
    uout[6 * i + 5] = ux - uy;                 /* wraps */
}
"""


def c_div(x, y):
    q = np.abs(x) // np.abs(y) * np.sign(x) * np.sign(y)
    return q, x - y * q


def test_integer_ops(run_kernel, variant, rng):
    n, local = sizes(variant)
    a = rng.integers(-(1 << 31), 1 << 31, n, dtype=np.int64)
    b = rng.integers(-(1 << 31), 1 << 31, n, dtype=np.int64)
    a[:8] = [7, -7, 7, -7, -(1 << 31), 100, 0, -1]
    b[:8] = [2, 2, -2, -2, 3, 37, 5, 33]
    b[b == 0] = 1
    ua = rng.integers(0, 1 << 32, n, dtype=np.int64)
    ub = rng.integers(1, 1 << 32, n, dtype=np.int64)
    ua[:2], ub[:2] = [0xFFFFFFFF, 5], [1, 0xFFFFFFFF]
    res = run_kernel(INTEGER_OPS, "integers", (n,), local, a.astype(np.int32), b.astype(np.int32),
                     ua.astype(np.uint32), ub.astype(np.uint32), np.zeros(12 * n, np.int32),
                     np.zeros(6 * n, np.uint32), np.int32(n))
    out, uout = res[4].reshape(n, 12).astype(np.int64), res[5].reshape(n, 6).astype(np.int64)
    q, r = c_div(a, b)
    s = b & 63
    wrap32 = lambda v: ((np.asarray(v, np.int64) + (1 << 31)) % (1 << 32)) - (1 << 31)  # noqa: E731
    checks = {
        "signed /": (out[:, 0], wrap32(q)),
        "signed %": (out[:, 1], r),
        ">> int": (out[:, 2], a >> (s & 31)),
        "<< int (masked count)": (out[:, 3], wrap32(a << (s & 31))),
        "<": (out[:, 4], a < b),
        "(uint) <": (out[:, 5], (a & 0xFFFFFFFF) < (b & 0xFFFFFFFF)),
        "int < uint": (out[:, 6], (a & 0xFFFFFFFF) < ub),
        "bit ops": (out[:, 7], (a ^ b) & ~(a | 7)),
        "-x*3+y": (out[:, 8], wrap32(-a * 3 + b)),
        "long product": (out[:, 9], wrap32((a * b) >> 16)),
        "ternary max": (out[:, 10], np.maximum(a, b)),
        "logical": (out[:, 11], (a == 0) + (a != 0) * 2 + ((a != 0) & (b != 0)) * 4 + ((a != 0) | (b != 0)) * 8),
        "unsigned /": (uout[:, 0], ua // ub),
        "unsigned %": (uout[:, 1], ua % ub),
        ">> uint": (uout[:, 2], ua >> (s & 31)),
        "<< uint (masked count)": (uout[:, 3], (ua << (s & 31)) & 0xFFFFFFFF),
        "uint >": (uout[:, 4], ua > ub),
        "uint - wraps": (uout[:, 5], (ua - ub) & 0xFFFFFFFF),
    }
    for name, (got, want) in checks.items():
        np.testing.assert_array_equal(got, np.asarray(want, np.int64), err_msg=name)


CASTS = """
__kernel void casts(__global const float *f, __global const int *v, __global int *out, __global float *fout,
                    int n) {
    int i = get_global_id(0);
    if (i >= n) return;
    float x = f[i];
    int k = v[i];
    out[8 * i + 0] = (int)x;                    /* truncation toward zero */
    out[8 * i + 1] = (char)k;                   /* wraps to [-128, 127] */
    out[8 * i + 2] = (uchar)k;
    out[8 * i + 3] = (short)(k * 100);
    out[8 * i + 4] = (ushort)(k * 100);
    char c = (char)k;
    c += (char)100;                             /* char arithmetic wraps when stored */
    out[8 * i + 5] = c;
    out[8 * i + 6] = (int)(uint)(x < 0.0f ? -x : x);
    out[8 * i + 7] = (int)(float)k + (int)(double)0.5;
    fout[3 * i + 0] = (float)k / 7.0f;
    fout[3 * i + 1] = (float)(k * 65537);       /* int -> float rounds to nearest even */
    fout[3 * i + 2] = (float)(uchar)k;
}
"""


def test_casts(run_kernel, variant, rng):
    n, local = sizes(variant)
    f = (rng.standard_normal(n) * 1e4).astype(np.float32)
    f[:4] = [2.9, -2.9, -0.5, 1e9]
    v = rng.integers(-30000, 30000, n).astype(np.int32)
    v[:4] = [127, 128, -129, 255]
    res = run_kernel(CASTS, "casts", (n,), local, f, v, np.zeros(8 * n, np.int32), np.zeros(3 * n, np.float32),
                     np.int32(n))
    out, fout = res[2].reshape(n, 8), res[3].reshape(n, 3)
    v64 = v.astype(np.int64)
    np.testing.assert_array_equal(out[:, 0], np.trunc(f).astype(np.int32), err_msg="(int)float")
    np.testing.assert_array_equal(out[:, 1], v.astype(np.int8), err_msg="(char)")
    np.testing.assert_array_equal(out[:, 2], v.astype(np.uint8), err_msg="(uchar)")
    np.testing.assert_array_equal(out[:, 3], (v64 * 100).astype(np.int16), err_msg="(short)")
    np.testing.assert_array_equal(out[:, 4], (v64 * 100).astype(np.uint16), err_msg="(ushort)")
    np.testing.assert_array_equal(out[:, 5], (v.astype(np.int8).astype(np.int64) + 100).astype(np.int8),
                                  err_msg="char += wraps")
    np.testing.assert_array_equal(out[:, 6], np.trunc(np.abs(f)).astype(np.int64).astype(np.int32),
                                  err_msg="(uint)float")
    np.testing.assert_array_equal(out[:, 7], v, err_msg="(int)(float)k + (int)0.5")
    np.testing.assert_array_equal(fout[:, 0], v.astype(np.float32) / np.float32(7), err_msg="float division")
    np.testing.assert_array_equal(fout[:, 1], (v64 * 65537).astype(np.int32).astype(np.float32),
                                  err_msg="(float)int rounding")
    np.testing.assert_array_equal(fout[:, 2], v.astype(np.uint8).astype(np.float32), err_msg="(float)(uchar)")


TERNARY_CONSTANT = """
__constant int table[8] = {3, 1, 4, 1, 5, 9, 2, 6};
__constant float weights[] = {0.5f, 0.25f, 0.125f, 2.0f};
__constant uint masks[2][2] = {{0xFu, 0xF0u}, {0xF00u, 0xF000u}};

__kernel void ternary_constant(__global const int *in, __global int *out, __global float *fout, int n) {
    int i = get_global_id(0);
    if (i >= n) return;
    int x = in[i];
    out[3 * i + 0] = x > 0 ? (x > 100 ? 2 : 1) : (x < -100 ? -2 : x == 0 ? 0 : -1);
    out[3 * i + 1] = table[x & 7] * 10 + table[(x >> 3) & 7];
    out[3 * i + 2] = (int)(((uint)x) & masks[(x >> 1) & 1][x & 1]);
    fout[i] = (x & 1 ? weights[x & 3] : 1.0f) * (float)table[i % 8];
}
"""


def test_ternary_and_constant_arrays(run_kernel, variant, rng):
    n, local = sizes(variant)
    data = rng.integers(-300, 300, n).astype(np.int32)
    data[:3] = [0, 101, -101]
    res = run_kernel(TERNARY_CONSTANT, "ternary_constant", (n,), local, data, np.zeros(3 * n, np.int32),
                     np.zeros(n, np.float32), np.int32(n))
    out, fout = res[1].reshape(n, 3), res[2]
    x = data.astype(np.int64)
    table = np.array([3, 1, 4, 1, 5, 9, 2, 6])
    weights = np.array([0.5, 0.25, 0.125, 2.0], np.float32)
    masks = np.array([[0xF, 0xF0], [0xF00, 0xF000]])
    sign3 = np.where(x > 0, np.where(x > 100, 2, 1), np.where(x < -100, -2, np.where(x == 0, 0, -1)))
    np.testing.assert_array_equal(out[:, 0], sign3, err_msg="nested ternary")
    np.testing.assert_array_equal(out[:, 1], table[x & 7] * 10 + table[(x >> 3) & 7], err_msg="__constant table")
    np.testing.assert_array_equal(out[:, 2], (x & 0xFFFFFFFF) & masks[(x >> 1) & 1, x & 1], err_msg="2D __constant")
    want_f = np.where(x & 1, weights[x & 3], np.float32(1)) * table[np.arange(n) % 8].astype(np.float32)
    np.testing.assert_array_equal(fout, want_f.astype(np.float32), err_msg="ternary with __constant floats")


PRIVATE_ARRAYS = """
__kernel void private_data(__global const int *in, __global int *keys, __global float *vals, int n) {
    int i = get_global_id(0);
    if (i >= n) return;
    int digits[10];
    int x = in[i] < 0 ? -in[i] : in[i];
    int count = 0;
    do { digits[count++] = x % 10; x /= 10; } while (x > 0);
    int reversed = 0;
    for (int d = 0; d < count; ++d) reversed = reversed * 10 + digits[d];
    keys[i] = reversed;
    vals[i] = (float)count * 0.5f;
}
"""


def test_private_arrays(run_kernel, variant, rng):
    n, local = sizes(variant)
    data = rng.integers(-99999, 99999, n).astype(np.int32)
    data[:3] = [0, 7, -120]
    (_, keys, vals) = run_kernel(PRIVATE_ARRAYS, "private_data", (n,), local, data,
                                 np.zeros(n, np.int32), np.zeros(n, np.float32), np.int32(n))
    want_keys = [int(str(abs(int(x)))[::-1]) for x in data]
    want_vals = [len(str(abs(int(x)))) * 0.5 for x in data]
    np.testing.assert_array_equal(keys, want_keys)
    np.testing.assert_array_equal(vals, np.array(want_vals, np.float32))


STRUCTS = """
typedef struct { int key; float value; } pair;

pair make_pair(int k, float v) { pair p; p.key = k; p.value = v; return p; }

__kernel void structs(__global const int *in, __global int *keys, __global float *vals, int n) {
    int i = get_global_id(0);
    if (i >= n) return;
    pair p = make_pair(in[i] * 2, (float)in[i] * 0.5f);
    keys[i] = p.key;
    vals[i] = p.value;
}
"""


def test_struct_returned_by_helper(run_kernel):
    """DESIGN.md lists structs among the frontend's types; a helper returns one by value."""
    n = 64
    data = np.arange(-32, 32, dtype=np.int32)
    (_, keys, vals) = run_kernel(STRUCTS, "structs", (n,), (16,), data, np.zeros(n, np.int32),
                                 np.zeros(n, np.float32), np.int32(n))
    np.testing.assert_array_equal(keys, data * 2)
    np.testing.assert_array_equal(vals, data.astype(np.float32) * np.float32(0.5))


WIDE_TYPES = """
__kernel void wide(__global const long *a, __global const ulong *b, __global const double *d,
                   __global long *out, __global ulong *uout, __global double *dout, int n) {
    size_t i = get_global_id(0);
    if (i >= (size_t)n) return;
    long x = a[i];
    ulong y = b[i];
    out[3 * i + 0] = x * 3 - (x >> 7);
    out[3 * i + 1] = x / 1000003 + x % 1000003;
    out[3 * i + 2] = (long)(int)x;                       /* truncate to 32 bits, sign-extend */
    uout[2 * i + 0] = y / 7u + (y << 3);
    uout[2 * i + 1] = y >> 61;
    dout[2 * i + 0] = d[i] * 0.1 + (double)x;
    dout[2 * i + 1] = sqrt(fabs(d[i]));
}
"""


def test_long_and_double(run_kernel, variant, rng):
    n, local = sizes(variant)
    a = rng.integers(-(1 << 62), 1 << 62, n, dtype=np.int64)
    b = rng.integers(0, 1 << 63, n, dtype=np.int64).astype(np.uint64) * np.uint64(2) + np.uint64(1)
    d = rng.standard_normal(n) * 1e3
    res = run_kernel(WIDE_TYPES, "wide", (n,), local, a, b, d, np.zeros(3 * n, np.int64),
                     np.zeros(2 * n, np.uint64), np.zeros(2 * n, np.float64), np.int32(n))
    out, uout, dout = res[3].reshape(n, 3), res[4].reshape(n, 2), res[5].reshape(n, 2)
    ai = [int(v) for v in a]
    wrap64 = lambda v: (v + (1 << 63)) % (1 << 64) - (1 << 63)  # noqa: E731
    np.testing.assert_array_equal(out[:, 0], [wrap64(x * 3 - (x >> 7)) for x in ai])
    tdiv = [int(abs(x) // 1000003) * (1 if x >= 0 else -1) for x in ai]
    np.testing.assert_array_equal(out[:, 1], [q + (x - 1000003 * q) for x, q in zip(ai, tdiv)])
    np.testing.assert_array_equal(out[:, 2], a.astype(np.int32).astype(np.int64))
    bi = [int(v) for v in b]
    np.testing.assert_array_equal(uout[:, 0], np.array([(y // 7 + (y << 3)) % (1 << 64) for y in bi], np.uint64))
    np.testing.assert_array_equal(uout[:, 1], np.array([y >> 61 for y in bi], np.uint64))
    np.testing.assert_array_equal(dout[:, 0], d * 0.1 + a.astype(np.float64))
    np.testing.assert_array_equal(dout[:, 1], np.sqrt(np.abs(d)))


VECTORS = """
__kernel void vectors(__global const float *in, __global float4 *out4, __global float *out) {
    size_t i = get_global_id(0);
    float4 v = vload4(i, in);
    float4 w = v.wzyx * (float4)(1.0f, 2.0f, 3.0f, 4.0f) + 0.5f;
    out4[i] = w;
    vstore4(v.xxyy, i, out);
}
"""


def test_float4_vectors(run_kernel):
    """DESIGN.md lists vector types, literals and swizzles among the frontend's features."""
    n = 64
    data = np.arange(4 * n, dtype=np.float32)
    (_, out4, out) = run_kernel(VECTORS, "vectors", (n,), (16,), data, np.zeros(4 * n, np.float32),
                                np.zeros(4 * n, np.float32))
    v = data.reshape(n, 4)
    np.testing.assert_array_equal(out4.reshape(n, 4), v[:, ::-1] * np.float32([1, 2, 3, 4]) + np.float32(0.5))
    np.testing.assert_array_equal(out.reshape(n, 4), v[:, [0, 0, 1, 1]])
