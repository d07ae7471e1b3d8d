"""`half` as a storage type and the vload_half / vstore_half family (OpenCL C 6.1.1.1, 6.12.7),
compared bit for bit with numpy: every half bit pattern for the loads; for the stores a large random
set plus the edges (ties, subnormals, overflow thresholds, NaN, infinities, signed zeros), from float
and from double, in the four rounding modes."""
from __future__ import annotations

import numpy as np
import pytest

import loomcl as cl

MODES = ("", "_rte", "_rtz", "_rtp", "_rtn")
SIZES = ("", "2", "3", "4", "8", "16")
ALL_HALVES = np.arange(1 << 16, dtype=np.uint32).astype(np.uint16)


# -- references ------------------------------------------------------------------------------------

def half_reference(x: np.ndarray, mode: str) -> np.ndarray:
    """The half bit patterns of float32 or float64 x rounded once in `mode`. numpy rounds to nearest
    even from either width directly; a directed result is that or its neighbour toward the mode's
    direction, chosen by comparing the two exactly in float64 (which holds every half and float)."""
    with np.errstate(over="ignore", invalid="ignore"):
        return _directed(x, mode)


def _directed(x: np.ndarray, mode: str) -> np.ndarray:
    nearest = x.astype(np.float16)
    if mode in ("", "_rte"):
        return _canonical_nan(nearest.view(np.uint16), x)
    wide = x.astype(np.float64)
    back = nearest.astype(np.float64)
    if mode == "_rtz":
        step, target = np.abs(back) > np.abs(wide), np.float16(0)
    elif mode == "_rtp":
        step, target = back < wide, np.float16(np.inf)
    else:
        step, target = back > wide, np.float16(-np.inf)
    result = np.where(step, np.nextafter(nearest, target), nearest)
    return _canonical_nan(result.view(np.uint16), x)


def _canonical_nan(bits: np.ndarray, x: np.ndarray) -> np.ndarray:
    """NaN results reduced to their sign and a NaN marker: the payload need not match numpy's."""
    bits = bits.copy()
    nan = np.isnan(x)
    bits[nan] = (bits[nan] & 0x8000) | 0x7E00
    return bits


def canonical(bits: np.ndarray) -> np.ndarray:
    """Half bit patterns with every NaN made the quiet NaN of its sign (for comparing stores)."""
    bits = bits.copy()
    nan = (bits & 0x7C00) == 0x7C00
    nan &= (bits & 0x3FF) != 0
    bits[nan] = (bits[nan] & 0x8000) | 0x7E00
    return bits


def float_edges() -> np.ndarray:
    """Every half value as a float, the midpoints between neighbouring halves, one float ulp
    either side of those, and the float specials."""
    halves = ALL_HALVES.view(np.float16)
    finite = np.sort(np.unique(halves[np.isfinite(halves)].astype(np.float64)))
    mids = (finite[:-1] + finite[1:]) / 2
    beyond = np.array([65504.0, 65519.99, 65520.0, 65536.0, 1e10, 2.0 ** -25, 2.0 ** -26, 3e-8])
    points = np.concatenate([finite, mids, beyond, -beyond]).astype(np.float32)
    points = np.concatenate([points, np.nextafter(points, np.float32(np.inf)),
                             np.nextafter(points, np.float32(-np.inf))])
    special = np.array([0x7F800000, 0xFF800000, 0x7FC00000, 0xFFC00001, 0x7F800001, 0x7FA00000,
                        0x00000001, 0x80000001, 0x007FFFFF, 0x7F7FFFFF, 0xFF7FFFFF, 0x80000000, 0],
                       np.uint32).view(np.float32)
    return np.concatenate([points, special])


def float_inputs(rng) -> np.ndarray:
    random_bits = rng.integers(0, 1 << 32, 1 << 18, dtype=np.uint64).astype(np.uint32).view(np.float32)
    in_range = (rng.standard_normal(1 << 16) * np.exp2(rng.integers(-28, 18, 1 << 16))).astype(np.float32)
    return np.concatenate([float_edges(), random_bits, in_range])


def double_inputs(rng) -> np.ndarray:
    """Doubles whose float rounding would land on a half tie (the double-rounding trap), the float
    edges, random doubles around the half range and random bit patterns."""
    with np.errstate(invalid="ignore"):
        edges = float_edges().astype(np.float64)
    finite = edges[np.isfinite(edges)]
    near = np.concatenate([finite + np.abs(finite) * 2.0 ** -40, finite - np.abs(finite) * 2.0 ** -40])
    scaled = rng.standard_normal(1 << 16) * np.exp2(rng.integers(-30, 18, 1 << 16))
    random_bits = rng.integers(0, 1 << 63, 1 << 16, dtype=np.uint64).view(np.float64)
    return np.concatenate([edges, near, scaled, random_bits, -random_bits])


# -- loads -----------------------------------------------------------------------------------------

def test_sizeof_half_and_half_structs(run_kernel):
    src = """
    typedef struct { half a; half b[3]; int c; } S;
    __kernel void k(__global int *out, __global S *s) {
        out[0] = sizeof(half);
        out[1] = sizeof(S);
        out[2] = (int)((__global char *)&s->c - (__global char *)s);
        out[3] = (int)(vload_half(0, &s->b[2]) * 4.0f);
        vstore_half(2.5f, 0, &s[1].a);
    }"""
    record = np.dtype([("a", np.float16), ("b", np.float16, 3), ("c", np.int32)])
    s = np.zeros(2, record)
    s[0]["b"][2] = 1.75
    out, s = run_kernel(src, "k", (1,), (1,), np.zeros(4, np.int32), s)
    assert list(out) == [2, 12, 8, 7]
    assert s[1]["a"] == np.float16(2.5)


def test_vload_half_every_bit_pattern(run_kernel):
    src = """
    __kernel void k(__global const half *p, __global float *out) {
        size_t i = get_global_id(0);
        out[i] = vload_half(i, p);
    }"""
    _, out = run_kernel(src, "k", (1 << 16,), (256,), ALL_HALVES, np.zeros(1 << 16, np.float32))
    expected = ALL_HALVES.view(np.float16).astype(np.float32)
    np.testing.assert_array_equal(out.view(np.uint32), expected.view(np.uint32))


@pytest.mark.parametrize("n", SIZES[1:])
@pytest.mark.parametrize("aligned", ["", "a"])
def test_vload_halfN_every_bit_pattern(run_kernel, n, aligned):
    n = int(n)
    stride = 4 if (aligned and n == 3) else n
    src = f"""
    __kernel void k(__global const half *p, __global float *out) {{
        size_t i = get_global_id(0);
        float{n} v = vload{aligned}_half{n}(i, p);
        for (int k = 0; k < {n}; k++) out[i * {n} + k] = v[k];
    }}"""
    count = (1 << 16) // stride
    halves = np.resize(ALL_HALVES, count * stride)
    _, out = run_kernel(src, "k", (count,), None, halves, np.zeros(count * n, np.float32))
    expected = halves.reshape(count, stride)[:, :n].view(np.float16).astype(np.float32)
    np.testing.assert_array_equal(out.view(np.uint32), expected.ravel().view(np.uint32))


@pytest.mark.parametrize("space", ["global", "constant", "local", "private"])
def test_vload_half_in_every_address_space(run_kernel, ctx, space):
    copy_in = {
        "global": "__global const half *p = src;",
        "constant": "__constant half *p = csrc;",
        "local": "__local ushort raw[64]; __local half *p = (__local half *)raw; "
                 "vstore_half(vload_half(l, src), l, p); barrier(CLK_LOCAL_MEM_FENCE);",
        "private": "ushort raw[64]; half *p = (half *)raw; "
                   "for (int j = 0; j < 64; j++) vstore_half(vload_half(j, src), j, p);",
    }[space]
    src = f"""
    __kernel void k(__global const half *src, __constant half *csrc, __global float4 *out) {{
        size_t l = get_local_id(0);
        {copy_in}
        out[get_global_id(0)] = vload_half4(l / 4, p) + (float4)(vload_half(63 - l, p));
    }}"""
    halves = np.linspace(-3, 3, 64).astype(np.float16)
    constant = cl.Buffer(ctx, cl.mem_flags.READ_ONLY | cl.mem_flags.COPY_HOST_PTR, hostbuf=halves)
    _, out = run_kernel(src, "k", (64,), (64,), halves, constant, np.zeros((64, 4), np.float32))
    f = halves.astype(np.float32)
    l = np.arange(64)
    expected = f[(l // 4 * 4)[:, None] + np.arange(4)] + f[63 - l][:, None]
    np.testing.assert_array_equal(out, expected)


# -- stores ----------------------------------------------------------------------------------------

@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("source", ["float", "double"])
def test_vstore_half_bit_exact(run_kernel, rng, mode, source):
    src = f"""
    __kernel void k(__global const {source} *x, __global half *out) {{
        size_t i = get_global_id(0);
        vstore_half{mode}(x[i], i, out);
    }}"""
    x = float_inputs(rng) if source == "float" else double_inputs(rng)
    _, out = run_kernel(src, "k", (x.size,), None, x, np.zeros(x.size, np.uint16))
    expected = half_reference(x, mode)
    got = canonical(out)
    bad = np.flatnonzero(got != expected)
    assert bad.size == 0, (f"{bad.size} wrong, e.g. x={x[bad[:5]]!r} ({x[bad[:5]].view(f'u{x.itemsize}')}) "
                           f"got {[hex(v) for v in out[bad[:5]]]} want {[hex(v) for v in expected[bad[:5]]]}")


def test_double_to_half_rounds_once():
    """The reference's own check: 1 + 2^-11 + 2^-40 rounds up to 1 + 2^-10 from double, while going
    through float would give the tie 1 + 2^-11 and then 1 (ties to even)."""
    x = np.array([1 + 2.0 ** -11 + 2.0 ** -40])
    assert half_reference(x, "_rte")[0] == np.float16(1 + 2.0 ** -10).view(np.uint16)
    assert x.astype(np.float32).astype(np.float16)[0] == np.float16(1)


@pytest.mark.parametrize("n", SIZES[1:])
@pytest.mark.parametrize("mode", ["", "_rtz", "_rtp", "_rtn"])
@pytest.mark.parametrize("aligned", ["", "a"])
def test_vstore_halfN(run_kernel, rng, n, mode, aligned):
    n = int(n)
    stride = 4 if (aligned and n == 3) else n
    src = f"""
    __kernel void k(__global const float *x, __global const double *d, __global half *out,
                    __global half *outd) {{
        size_t i = get_global_id(0);
        vstore{aligned}_half{n}{mode}(vload{n}(i, x), i, out);
        vstore{aligned}_half{n}{mode}(vload{n}(i, d), i, outd);
    }}"""
    count = 4096
    x = float_inputs(rng)[: count * n]
    x = np.resize(x, count * n)
    d = np.resize(double_inputs(rng), count * n)
    sentinel = 0x5555
    _, _, out, outd = run_kernel(src, "k", (count,), None, x, d,
                                 np.full(count * stride, sentinel, np.uint16),
                                 np.full(count * stride, sentinel, np.uint16))
    for got, data in ((out, x), (outd, d)):
        got = got.reshape(count, stride)
        np.testing.assert_array_equal(canonical(got[:, :n]).ravel(), half_reference(data, mode))
        assert np.all(got[:, n:] == sentinel), "a padding lane of vstorea_half3 was written"


@pytest.mark.parametrize("space", ["global", "local", "private"])
def test_vstore_half_in_every_address_space(run_kernel, space):
    setup = {
        "global": "__global half *p = dst + get_group_id(0) * 64;",
        "local": "__local ushort raw[64]; __local half *p = (__local half *)raw;",
        "private": "ushort raw[64]; half *p = (half *)raw;",
    }[space]
    src = f"""
    __kernel void k(__global const float *x, __global half *dst) {{
        size_t l = get_local_id(0), g = get_global_id(0);
        {setup}
        vstore_half_rtp(x[g], l, p);
        barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
        size_t r = {'l' if space == 'private' else '63 - l'};
        vstore_half_rtz(vload_half(r, p) * 2.0f, g, dst + 256);
    }}"""
    x = (np.arange(256, dtype=np.float32) - 128) / np.float32(3)
    _, dst = run_kernel(src, "k", (256,), (64,), x, np.zeros(512, np.uint16))
    up = half_reference(x, "_rtp").view(np.float16).astype(np.float32)
    l = np.arange(256)
    r = l if space == "private" else (l // 64) * 64 + 63 - l % 64
    expected = half_reference(up[r] * np.float32(2), "_rtz")
    np.testing.assert_array_equal(dst[256:], expected)


def test_vstore_half_vectorized_loop_matches_scalar(run_kernel, rng):
    """A long 1D conversion (the shape LLVM vectorizes) against numpy."""
    src = """
    __kernel void k(__global const float *x, __global half *out) {
        size_t i = get_global_id(0);
        vstore_half(vload_half(i, (__global half *)out) + x[i], i, out);
    }"""
    n = 1 << 20
    x = rng.standard_normal(n).astype(np.float32) * 1000
    start = rng.standard_normal(n).astype(np.float16)
    _, out = run_kernel(src, "k", (n,), None, x, start.view(np.uint16))
    expected = (start.astype(np.float32) + x).astype(np.float16)
    np.testing.assert_array_equal(out, expected.view(np.uint16))


@pytest.mark.parametrize("source, message", [
    ("kernel void k() { half b; }", "declaring variable of type '__private half' is not allowed"),
    ("kernel void k() { half a[2]; }", "declaring variable of type '__private half[2]' is not allowed"),
    ("kernel void k() { __local half t[8]; }", "declaring variable of type '__local half[8]' is not allowed"),
    ("kernel void k() { half4 v; }", "declaring variable of type '__private half4' is not allowed"),
    ("half f(global half *p) { return 0; }", "declaring function return value of type 'half' is not allowed"),
    ("kernel void k(half h) {}", "declaring function parameter of type 'half' is not allowed"),
    ("kernel void k(global half *p, global float *o) { o[0] = p[0]; }",
     "loading directly from pointer to type '__global half' requires cl_khr_fp16. "
     "Use vector data load builtin functions instead"),
    ("kernel void k(global half *p) { *p; }", "loading directly from pointer to type '__global half'"),
    ("kernel void k(global half *p) { p[1] = 0; }",
     "assigning directly to pointer to type 'half' requires cl_khr_fp16. "
     "Use vector data store builtin functions instead"),
    ("kernel void k(global half *p) { p[1] += 1.0f; }", "assigning directly to pointer to type 'half'"),
    ("kernel void k(global half *p) { (*p)++; }", "assigning directly to pointer to type 'half'"),
    ("typedef struct { half h; } S; kernel void k(global S *s, global float *o) { o[0] = s->h * 2; }",
     "loading directly from pointer to type '__global half'"),
    ("kernel void k(global float *o) { o[0] = (half)o[1]; }", "casting to type 'half' is not allowed"),
    ("kernel void k(global float *o) { o[0] = 1.5h; }", "half precision constant requires cl_khr_fp16"),
])
def test_half_values_are_refused(ctx, source, message):
    with pytest.raises(cl.RuntimeError) as info:
        cl.Program(ctx, source).build()
    assert message in str(info.value)


def test_half_pointers_are_allowed(run_kernel):
    """Pointer arithmetic, &p[i], &*p and casts between half pointers need no half value."""
    src = """
    typedef half storage;
    __kernel void k(__global half *p, __global float *out) {
        __global storage *q = &p[2];
        __global half *r = &*(q + 1);
        out[0] = vload_half(0, r) + (float)(r - p) + sizeof(storage);
        out[1] = vloada_half(1, (__global const half *)p);
        vstorea_half_rtz(-1.0f / 3.0f, 0, p);
    }"""
    p = np.array([0.25, 0.5, 1, 2, 4], np.float16)
    p, out = run_kernel(src, "k", (1,), (1,), p, np.zeros(2, np.float32))
    assert list(out) == [2 + 3 + 2, 0.5]
    assert p[0] == np.float16(-0.333251953125)  # -1/3 toward zero: -0x1.554p-2


def test_generic_half_pointers_in_a_helper(run_kernel):
    """loomcl's default mode (OpenCL C 2.0's rule): a helper's unqualified `half *` is generic and
    takes global, local and private halves."""
    src = """
    float twice(const half *p, size_t i) { return 2.0f * vload_half(i, p); }
    void put(half *p, size_t i, float v) { vstore_half_rtn(v, i, p); }
    __kernel void k(__global half *g, __global float *out) {
        __local ushort lraw[4];
        ushort praw[4];
        __local half *l = (__local half *)lraw;
        half *p = (half *)praw;
        size_t i = get_local_id(0);
        put(l, i, twice(g, i));
        put(p, i, -1.0f / 3.0f);
        barrier(CLK_LOCAL_MEM_FENCE);
        out[i] = twice(l, 3 - i) + vload_half(i, p);
    }"""
    g = np.array([1, 2.5, -3, 0.125], np.float16)
    _, out = run_kernel(src, "k", (4,), (4,), g, np.zeros(4, np.float32))
    third = np.float32(np.nextafter(np.float16(-1 / 3), np.float16(-1)))
    np.testing.assert_array_equal(out, 4 * g.astype(np.float32)[::-1] + third)
