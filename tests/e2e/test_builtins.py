"""Builtins end to end: math (with the OpenCL 1.2 full-profile ulp limits, sec. 7.4), integer
min/max/clamp, native_ forms, and the 32-bit atomics on global and local memory."""
from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

from e2e_helpers import assert_ulp, shape

MATH = """
__kernel void math(__global const float *a, __global const float *b, __global const float *c,
                   __global float *out, int n) {
    int i = get_global_id(0);
    if (i >= n) return;
    float x = a[i], y = b[i], z = c[i];
    __global float *o = out + 16 * i;
    o[0] = sqrt(fabs(x));
    o[1] = fabs(x);
    o[2] = fmin(x, y);
    o[3] = fmax(x, y);
    o[4] = floor(x);
    o[5] = ceil(x);
    o[6] = exp(x / 8.0f);
    o[7] = log(fabs(x) + 0.001f);
    o[8] = pow(fabs(x) / 16.0f + 0.1f, y / 16.0f);
    o[9] = sin(x);
    o[10] = cos(x);
    o[11] = mad(x, y, z);
    o[12] = fma(x, y, z);
    o[13] = clamp(x, -1.5f, 2.5f);
    o[14] = min(x, y);
    o[15] = max(x, y);
}
"""


def math_inputs(rng, n):
    a = (rng.standard_normal(n) * 20).astype(np.float32)
    b = (rng.standard_normal(n) * 20).astype(np.float32)
    c = (rng.standard_normal(n) * 20).astype(np.float32)
    a[:6] = [0.0, -0.0, 3.0, -2.5, np.float32(np.pi), 64.0]
    return a, b, c


def exact_fma_error_ok(got, x, y, z):
    """Correct rounding: |got - x*y+z (exact)| <= half an ulp of got."""
    bad = []
    for k, (g, a, b, c) in enumerate(zip(got, x, y, z)):
        exact = Fraction(float(a)) * Fraction(float(b)) + Fraction(float(c))
        half_ulp = Fraction(float(np.spacing(np.abs(np.float32(g))))) / 2
        if abs(Fraction(float(g)) - exact) > half_ulp:
            bad.append(k)
    return bad


def test_math_builtins(run_kernel, variant, rng):
    n, local = shape(variant, 256, 64, 250)
    a, b, c = math_inputs(rng, n)
    (_, _, _, out) = run_kernel(MATH, "math", (n,), None if local is None else (local,), a, b, c,
                                np.zeros(16 * n, np.float32), np.int32(n))
    o = out.reshape(n, 16).astype(np.float64)
    x, y, z = a.astype(np.float64), b.astype(np.float64), c.astype(np.float64)
    f32 = np.float32
    assert_ulp(o[:, 0], np.sqrt(np.abs(x)), 3, "sqrt")
    np.testing.assert_array_equal(o[:, 1], np.abs(a), err_msg="fabs")
    np.testing.assert_array_equal(o[:, 2], np.fmin(a, b), err_msg="fmin")
    np.testing.assert_array_equal(o[:, 3], np.fmax(a, b), err_msg="fmax")
    np.testing.assert_array_equal(o[:, 4], np.floor(a), err_msg="floor")
    np.testing.assert_array_equal(o[:, 5], np.ceil(a), err_msg="ceil")
    assert_ulp(o[:, 6], np.exp((a / f32(8)).astype(np.float64)), 3, "exp")
    assert_ulp(o[:, 7], np.log((np.abs(a) + f32(0.001)).astype(np.float64)), 3, "log")
    base = (np.abs(a) / f32(16) + f32(0.1)).astype(np.float64)
    assert_ulp(o[:, 8], np.power(base, (b / f32(16)).astype(np.float64)), 16, "pow")
    assert_ulp(o[:, 9], np.sin(x), 4, "sin")
    assert_ulp(o[:, 10], np.cos(x), 4, "cos")
    # mad: a correctly rounded fma, or a multiply and an add each correctly rounded
    fused = (x * y + z).astype(np.float32)
    separate = (a * b).astype(np.float32) + c
    mad_ok = (o[:, 11] == fused) | (o[:, 11] == separate)
    mad_near = np.abs(o[:, 11] - (x * y + z)) <= 2 * np.spacing(np.abs(fused)).astype(np.float64) + 2 * np.spacing(
        np.abs(a * b)).astype(np.float64)
    assert np.all(mad_ok | mad_near), f"mad differs at {np.flatnonzero(~(mad_ok | mad_near))[:8]}"
    bad = exact_fma_error_ok(o[:, 12].astype(np.float32), a, b, c)
    assert not bad, f"fma not correctly rounded at {bad[:8]}: got {o[bad[0], 12]!r}"
    np.testing.assert_array_equal(o[:, 13], np.clip(a, -1.5, 2.5), err_msg="clamp")
    np.testing.assert_array_equal(o[:, 14], np.minimum(a, b), err_msg="min(float)")
    np.testing.assert_array_equal(o[:, 15], np.maximum(a, b), err_msg="max(float)")


NATIVE = """
__kernel void natives(__global const float *a, __global const float *b, __global float *out, int n) {
    int i = get_global_id(0);
    if (i >= n) return;
    float x = a[i], y = b[i];
    __global float *o = out + 8 * i;
    o[0] = native_sqrt(x);
    o[1] = native_exp(y);
    o[2] = native_log(x);
    o[3] = native_sin(y);
    o[4] = native_cos(y);
    o[5] = native_recip(x);
    o[6] = native_divide(y, x);
    o[7] = native_powr(x, y / 4.0f);
}
"""


def test_native_math(run_kernel, variant, rng):
    n, local = shape(variant, 256, 64, 250)
    a = rng.uniform(0.1, 100.0, n).astype(np.float32)
    b = rng.uniform(-8.0, 8.0, n).astype(np.float32)
    (_, _, out) = run_kernel(NATIVE, "natives", (n,), None if local is None else (local,), a, b,
                             np.zeros(8 * n, np.float32), np.int32(n))
    o = out.reshape(n, 8).astype(np.float64)
    x, y = a.astype(np.float64), b.astype(np.float64)
    # native_ precision is implementation-defined: require about 3 correct decimal digits
    wants = {
        "native_sqrt": np.sqrt(x), "native_exp": np.exp(y), "native_log": np.log(x),
        "native_sin": np.sin(y), "native_cos": np.cos(y), "native_recip": 1 / x,
        "native_divide": y / x, "native_powr": x ** (b / np.float32(4)).astype(np.float64),
    }
    for col, (name, want) in enumerate(wants.items()):
        np.testing.assert_allclose(o[:, col], want, rtol=1e-3, atol=1e-4, err_msg=name)


INTEGER_BUILTINS = """
__kernel void int_builtins(__global const int *a, __global const int *b, __global const uint *ua,
                           __global const uint *ub, __global int *out, __global uint *uout, int n) {
    int i = get_global_id(0);
    if (i >= n) return;
    out[4 * i + 0] = min(a[i], b[i]);
    out[4 * i + 1] = max(a[i], b[i]);
    out[4 * i + 2] = clamp(a[i], -100, 250);
    out[4 * i + 3] = abs(a[i]);
    uout[3 * i + 0] = min(ua[i], ub[i]);
    uout[3 * i + 1] = max(ua[i], ub[i]);
    uout[3 * i + 2] = clamp(ua[i], 10u, 3000000000u);
}
"""


def test_integer_min_max_clamp(run_kernel, variant, rng):
    n, local = shape(variant, 256, 64, 250)
    a = rng.integers(-1000, 1000, n).astype(np.int32)
    b = rng.integers(-1000, 1000, n).astype(np.int32)
    a[0] = -(1 << 31)
    ua = rng.integers(0, 1 << 32, n, dtype=np.int64).astype(np.uint32)
    ub = rng.integers(0, 1 << 32, n, dtype=np.int64).astype(np.uint32)
    res = run_kernel(INTEGER_BUILTINS, "int_builtins", (n,), None if local is None else (local,), a, b, ua, ub,
                     np.zeros(4 * n, np.int32), np.zeros(3 * n, np.uint32), np.int32(n))
    out, uout = res[4].reshape(n, 4), res[5].reshape(n, 3)
    np.testing.assert_array_equal(out[:, 0], np.minimum(a, b), err_msg="min")
    np.testing.assert_array_equal(out[:, 1], np.maximum(a, b), err_msg="max")
    np.testing.assert_array_equal(out[:, 2], np.clip(a, -100, 250), err_msg="clamp")
    np.testing.assert_array_equal(out[:, 3].view(np.uint32), np.abs(a.astype(np.int64)).astype(np.uint32),
                                  err_msg="abs (returns uint)")
    np.testing.assert_array_equal(uout[:, 0], np.minimum(ua, ub), err_msg="min(uint)")
    np.testing.assert_array_equal(uout[:, 1], np.maximum(ua, ub), err_msg="max(uint)")
    np.testing.assert_array_equal(uout[:, 2], np.clip(ua, 10, 3000000000), err_msg="clamp(uint)")


# ---- atomics ---------------------------------------------------------------------------------------

ATOMICS = """
/* Counters: 0 add, 1 sub, 2 inc, 3 dec, 4 xchg, 5 min, 6 max, 7 and, 8 or, 9 xor, 10 cmpxchg-add,
   11 cmpxchg-claim; 12 umin, 13 umax (unsigned). Each item records the old values it saw. */
#define OPS(C, U)                                                                   \\
    olds[NOLD * gid + 0] = atomic_add(&C[0], v);                                    \\
    olds[NOLD * gid + 1] = atomic_sub(&C[1], v);                                    \\
    olds[NOLD * gid + 2] = atomic_inc(&C[2]);                                       \\
    olds[NOLD * gid + 3] = atomic_dec(&C[3]);                                       \\
    olds[NOLD * gid + 4] = atomic_xchg(&C[4], (int)gid + 1);                        \\
    olds[NOLD * gid + 5] = atomic_min(&C[5], w);                                    \\
    olds[NOLD * gid + 6] = atomic_max(&C[6], w);                                    \\
    olds[NOLD * gid + 7] = atomic_and(&C[7], ~(1 << (gid % 31)));                   \\
    olds[NOLD * gid + 8] = atomic_or(&C[8], 1 << (gid % 29));                       \\
    olds[NOLD * gid + 9] = atomic_xor(&C[9], v);                                    \\
    {                                                                               \\
        int old = C[10];                                                            \\
        for (;;) {                                                                  \\
            int seen = atomic_cmpxchg(&C[10], old, old + v);                        \\
            if (seen == old) break;                                                 \\
            old = seen;                                                             \\
        }                                                                           \\
        olds[NOLD * gid + 10] = old;                                                \\
    }                                                                               \\
    olds[NOLD * gid + 11] = atomic_cmpxchg(&C[11], 0, (int)gid + 1);                \\
    olds[NOLD * gid + 12] = (int)atomic_min(&U[0], u);                              \\
    olds[NOLD * gid + 13] = (int)atomic_max(&U[1], u);

#define NOLD 14

__kernel void atomics_global(__global const int *vs, __global const int *ws, __global const uint *us,
                             __global int *counters, __global uint *ucounters, __global int *olds) {
    size_t gid = get_global_id(0);
    int v = vs[gid], w = ws[gid];
    uint u = us[gid];
    OPS(counters, ucounters)
}

__kernel void atomics_local(__global const int *vs, __global const int *ws, __global const uint *us,
                            __global int *counters, __global uint *ucounters, __global int *olds,
                            __global int *sizes) {
    __local int c[12];
    __local uint uc[2];
    size_t gid = get_global_id(0);
    size_t group = get_group_id(0);
    int lid = get_local_id(0);
    if (lid < 12) c[lid] = counters[lid];          /* every group starts from the same values */
    if (lid < 2) uc[lid] = ucounters[lid];
    if (get_local_size(0) < 12 && lid == 0)
        for (int k = 0; k < 12; ++k) { c[k] = counters[k]; if (k < 2) uc[k] = ucounters[k]; }
    barrier(CLK_LOCAL_MEM_FENCE);
    int v = vs[gid], w = ws[gid];
    uint u = us[gid];
    OPS(c, uc)
    barrier(CLK_LOCAL_MEM_FENCE);
    if (lid == 0) {
        for (int k = 0; k < 12; ++k) counters[12 + 14 * group + k] = c[k];
        counters[12 + 14 * group + 12] = (int)uc[0];
        counters[12 + 14 * group + 13] = (int)uc[1];
        sizes[group] = get_local_size(0);
    }
}
"""

INIT = np.array([1000, -50, 7, 3, -1, 0, 0, -1, 0, 0x5A5A5A5A, 11, 0], np.int32)
UINIT = np.array([0xF0000000, 5], np.uint32)


def atomic_inputs(rng, n):
    vs = rng.integers(1, 1000, n).astype(np.int32)
    ws = rng.integers(-100000, 100000, n).astype(np.int32)
    us = rng.integers(1, 1 << 32, n, dtype=np.int64).astype(np.uint32)
    us[0] = 0xFFFFFFF0  # above 2**31: unsigned compare matters
    return vs, ws, us


def check_chain(olds, deltas, init, final, what):
    """Old values of concurrent atomic_add: applied in some order, each old is the running total."""
    order = np.argsort(olds, kind="stable") if np.all(deltas > 0) else np.argsort(-olds, kind="stable")
    running = int(init)
    for k in order:
        assert olds[k] == np.int32(running), f"{what}: item {k} saw {olds[k]}, expected {running} in the chain"
        running = int(np.int32(np.int64(running) + int(deltas[k])))
    assert final == np.int32(running), f"{what}: final {final} != {running}"


def check_atomics(vs, ws, us, olds, finals, what):
    """One set of items sharing counters (`finals`: the 12 signed then 2 unsigned counters after)."""
    m = vs.size
    o = olds.reshape(m, 14)
    v64, w64 = vs.astype(np.int64), ws.astype(np.int64)
    check_chain(o[:, 0], v64, INIT[0], finals[0], f"{what} atomic_add")
    check_chain(o[:, 1], -v64, INIT[1], finals[1], f"{what} atomic_sub")
    np.testing.assert_array_equal(np.sort(o[:, 2]), INIT[2] + np.arange(m), err_msg=f"{what} atomic_inc tickets")
    assert finals[2] == INIT[2] + m
    np.testing.assert_array_equal(np.sort(o[:, 3]), INIT[3] - np.arange(m)[::-1], err_msg=f"{what} atomic_dec")
    assert finals[3] == INIT[3] - m
    # xchg: the old values and the final value are the initial value and everybody's (gid + 1), once each
    seen = np.sort(np.concatenate([o[:, 4], [finals[4]]]))
    gids = np.sort(np.concatenate([[INIT[4]], np.asarray(what_gids(what, m)) + 1]))
    np.testing.assert_array_equal(seen, gids, err_msg=f"{what} atomic_xchg")
    assert finals[5] == min(INIT[5], w64.min()), f"{what} atomic_min"
    assert finals[6] == max(INIT[6], w64.max()), f"{what} atomic_max"
    assert np.all(o[:, 5] >= finals[5]) and np.all(o[:, 6] <= finals[6])
    gid = np.asarray(what_gids(what, m))
    and_mask = np.int64(-1)
    for g in gid:
        and_mask &= ~(1 << (g % 31))
    assert finals[7] == np.int32(INIT[7] & and_mask), f"{what} atomic_and"
    or_mask = 0
    for g in gid:
        or_mask |= 1 << (g % 29)
    assert finals[8] == np.int32(INIT[8] | or_mask), f"{what} atomic_or"
    xor = int(INIT[9])
    for v in vs:
        xor ^= int(v)
    assert finals[9] == np.int32(xor), f"{what} atomic_xor"
    check_chain(o[:, 10], v64, INIT[10], finals[10], f"{what} atomic_cmpxchg loop")
    winners = np.flatnonzero(o[:, 11] == 0)
    assert winners.size == 1, f"{what} atomic_cmpxchg claim: {winners.size} winners"
    assert finals[11] == gid[winners[0]] + 1 and np.all(np.delete(o[:, 11], winners) == finals[11])
    u64 = us.astype(np.int64)
    assert np.uint32(finals[12]) == min(int(UINIT[0]), u64.min()), f"{what} atomic_min(uint)"
    assert np.uint32(finals[13]) == max(int(UINIT[1]), u64.max()), f"{what} atomic_max(uint)"


_GIDS: dict = {}


def what_gids(what, m):
    return _GIDS.get(what, np.arange(m))


def test_atomics_global(run_kernel, variant, rng):
    n, local = shape(variant, 512, 64, 500)
    vs, ws, us = atomic_inputs(rng, n)
    res = run_kernel(ATOMICS, "atomics_global", (n,), None if local is None else (local,), vs, ws, us,
                     INIT.copy(), UINIT.copy(), np.zeros(14 * n, np.int32))
    counters, ucounters, olds = res[3], res[4], res[5]
    finals = np.concatenate([counters, ucounters.view(np.int32)])
    _GIDS["global"] = np.arange(n)
    check_atomics(vs, ws, us, olds, finals, "global")


def test_atomics_local(run_kernel, variant, rng):
    n, local = shape(variant, 512, 64, 500)
    vs, ws, us = atomic_inputs(rng, n)
    groups_max = n
    counters = np.concatenate([INIT, np.zeros(14 * groups_max, np.int32)])
    res = run_kernel(ATOMICS, "atomics_local", (n,), None if local is None else (local,), vs, ws, us,
                     counters, UINIT.copy(), np.zeros(14 * n, np.int32), np.zeros(groups_max, np.int32))
    counters, olds, sizes = res[3], res[5], res[6]
    groups = int(np.count_nonzero(sizes))
    assert sizes[:groups].sum() == n
    start = 0
    for g in range(groups):
        stop = start + int(sizes[g])
        what = f"local group {g}"
        _GIDS[what] = np.arange(start, stop)
        finals = counters[12 + 14 * g: 12 + 14 * (g + 1)]
        check_atomics(vs[start:stop], ws[start:stop], us[start:stop], olds[14 * start:14 * stop], finals, what)
        start = stop


ATOMIC_BUCKETS = """
__kernel void buckets(__global const uint *keys, __global int *counts, __global uint *sums, int n) {
    int i = get_global_id(0);
    if (i < n) {
        uint k = keys[i];
        atomic_inc(&counts[k % 7]);
        atomic_add(&sums[k % 7], k >> 8);
    }
}
"""


def test_atomic_buckets(run_kernel, variant, rng):
    n, local = shape(variant, 4096, 128, 4000)
    keys = rng.integers(0, 1 << 32, n, dtype=np.int64).astype(np.uint32)
    (_, counts, sums) = run_kernel(ATOMIC_BUCKETS, "buckets", (n,), None if local is None else (local,), keys,
                                   np.zeros(7, np.int32), np.zeros(7, np.uint32), np.int32(n))
    k = keys.astype(np.int64)
    np.testing.assert_array_equal(counts, np.bincount(k % 7, minlength=7))
    np.testing.assert_array_equal(sums, (np.bincount(k % 7, weights=k >> 8, minlength=7).astype(np.int64)
                                         & 0xFFFFFFFF).astype(np.uint32))


SPECIAL = """
__kernel void special(__global const float *x, __global const float *y, __global float *out, int n) {
    int i = get_global_id(0);
    if (i >= n) return;
    __global float *o = out + 6 * i;
    o[0] = sin(x[i]);
    o[1] = cos(x[i]);
    o[2] = exp(x[i]);
    o[3] = log(x[i]);
    o[4] = sqrt(x[i]);
    o[5] = pow(x[i], y[i]);
}
"""


def assert_ulp_special(actual, expected, ulps, what):
    actual, expected = np.asarray(actual, np.float64), np.asarray(expected, np.float64)
    nan = np.isnan(expected)
    np.testing.assert_array_equal(np.isnan(actual), nan, err_msg=f"{what}: NaN positions")
    inf = np.isinf(expected)
    np.testing.assert_array_equal(actual[inf], expected[inf], err_msg=f"{what}: infinities")
    finite = ~nan & ~inf
    assert_ulp(actual[finite], expected[finite], ulps, what)


def test_math_special_values_and_large_arguments(run_kernel):
    inf, nan = np.inf, np.nan
    xs = [0.0, -0.0, 1.0, -1.0, 2.0, -2.0, 0.5, inf, -inf, nan, 1e-30, 100.0, -100.0, 89.0, -104.0,
          3.0e38, -3.0e38, 1.0e5, 1.0e10, -7.0e20, 1.5707964, 3.1415927, 6.2831855, 1e-37, 12345.678]
    ys = [-1.0, 0.0, nan, 2.5, 3.0, 0.5, -2.0, 1.0, -1.0, 0.0, 0.5, 0.25, 2.0, 1.0, 3.0,
          0.5, 3.0, -0.5, 0.1, 1.0, 2.0, 2.0, 2.0, 0.5, 1.5]
    x = np.array(xs, np.float32)
    y = np.array(ys, np.float32)
    n = x.size
    with np.errstate(all="ignore"):
        (_, _, out) = run_kernel(SPECIAL, "special", (n,), (5,), x, y, np.zeros(6 * n, np.float32), np.int32(n))
        o = out.reshape(n, 6)
        xd, yd = x.astype(np.float64), y.astype(np.float64)
        assert_ulp_special(o[:, 0], np.sin(xd), 4, "sin")
        assert_ulp_special(o[:, 1], np.cos(xd), 4, "cos")
        assert_ulp_special(o[:, 2], np.exp(xd).astype(np.float32), 3, "exp")
        assert_ulp_special(o[:, 3], np.log(xd), 3, "log")
        assert_ulp_special(o[:, 4], np.sqrt(xd), 3, "sqrt")
        assert_ulp_special(o[:, 5], np.power(xd, yd).astype(np.float32), 16, "pow")
