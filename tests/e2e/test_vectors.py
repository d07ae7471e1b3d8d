"""OpenCL vector types end to end against numpy: literals, swizzles (read and written, in private,
global and local memory), lane-wise operators with scalar widening, -1/0 masks, vector `?:`,
vloadN/vstoreN, convert_ and as_, geometric functions, vector kernel arguments and cltypes. Every
kernel runs with the vectors scalarized (the default) and kept as LLVM vectors."""
import numpy as np
import pytest

import loomcl as cl

CONFIGS = ["", "-loomcl-no-scalarize"]
N = 48


@pytest.fixture(params=CONFIGS, ids=["scalarized", "vector-ir"])
def options(request):
    return request.param


def test_literals_swizzles_and_operators(run_kernel, options, rng):
    src = """
    __kernel void k(__global const float4 *in, __global float4 *out, __global int4 *mask, float s)
    {
        size_t i = get_global_id(0);
        float4 a = in[i];
        float4 b = (float4)(1.0f, a.xy, s);          /* mixed scalar and vector parts */
        float2 c = a.zw * 2.0f + b.lo;               /* scalar widening, .lo */
        a.xz = c;                                    /* lvalue swizzle in private memory */
        a.y += 1.0f;
        b++;
        mask[i] = (a > b) | (int4)(0, 0, 0, 16);     /* comparison masks are -1/0 */
        out[i] = a.wzyx + (float4)(c, c.yx) - (float4)(s) + b.even.xyxy * b.odd.yyxx;
    }"""
    x = rng.standard_normal((N, 4)).astype(np.float32)
    s = np.float32(0.25)
    _, out, mask = run_kernel(src, "k", (N,), (16,), x, np.zeros((N, 4), np.float32),
                              np.zeros((N, 4), np.int32), s, options=options)
    a = x.copy()
    b = np.stack([np.ones(N, np.float32), x[:, 0], x[:, 1], np.full(N, s)], 1)
    c = a[:, 2:] * np.float32(2) + b[:, :2]
    a[:, 0], a[:, 2] = c[:, 0], c[:, 1]
    a[:, 1] += 1
    b += 1
    np.testing.assert_array_equal(mask, -(a > b).astype(np.int32) | np.int32([0, 0, 0, 16]))
    expected = a[:, ::-1] + np.concatenate([c, c[:, ::-1]], 1) - s + \
        b[:, [0, 2, 0, 2]] * b[:, [3, 3, 1, 1]]
    np.testing.assert_allclose(out, expected, rtol=1e-6)


def test_swizzle_stores_write_only_their_lanes_in_global_and_local_memory(run_kernel, options):
    src = """
    __kernel void k(__global int4 *g, __global int4 *from_local, __local int4 *tile)
    {
        size_t i = get_global_id(0), l = get_local_id(0);
        tile[l] = (int4)(-1);
        barrier(CLK_LOCAL_MEM_FENCE);
        tile[l ^ 1].s13 = (int2)((int)i, 100 + (int)i);  /* the neighbour writes lanes 1 and 3 */
        g[i].zx = (int2)(7, 8);
        barrier(CLK_LOCAL_MEM_FENCE);
        from_local[i] = tile[l];
    }"""
    g = np.arange(N * 4, dtype=np.int32).reshape(N, 4)
    g2, from_local = run_kernel(src, "k", (N,), (8,), g, np.zeros((N, 4), np.int32),
                                cl.LocalMemory(8 * 16), options=options)
    expected = g.copy()
    expected[:, 2], expected[:, 0] = 7, 8
    np.testing.assert_array_equal(g2, expected)
    i = np.arange(N) ^ 1
    np.testing.assert_array_equal(from_local, np.stack([-np.ones(N), i, -np.ones(N), 100 + i], 1))


def test_three_lane_vectors_are_sized_like_four_and_hi_odd_work(run_kernel, options):
    src = """
    __kernel void k(__global float3 *v, __global float *out, __global float *packed)
    {
        size_t i = get_global_id(0);
        float3 a = v[i];
        float2 h = a.hi;                      /* (z, undefined) */
        out[2 * i] = h.x + a.odd.x;           /* z + y */
        out[2 * i + 1] = (float)sizeof(float3);
        vstore3(a.zyx, i, packed);            /* vstore3 packs 3 floats */
        v[i] = vload3(i, packed) * 2.0f;
    }"""
    x = np.arange(N * 4, dtype=np.float32).reshape(N, 4)
    v, out, packed = run_kernel(src, "k", (N,), (16,), x, np.zeros(2 * N, np.float32),
                                np.zeros(3 * N, np.float32), options=options)
    np.testing.assert_array_equal(out[0::2], x[:, 2] + x[:, 1])
    np.testing.assert_array_equal(out[1::2], 16)
    np.testing.assert_array_equal(packed.reshape(N, 3), x[:, 2::-1])
    np.testing.assert_array_equal(v[:, :3], x[:, 2::-1] * 2)


def test_logic_and_select_lane_wise(run_kernel, options, rng):
    src = """
    __kernel void k(__global const int8 *a, __global const int8 *b, __global int8 *out)
    {
        size_t i = get_global_id(0);
        int8 x = a[i], y = b[i];
        int8 both = x && y, either = x || !y;
        out[3 * i] = both;
        out[3 * i + 1] = either;
        out[3 * i + 2] = (x < y) ? x : y * 2;         /* per lane by the mask's sign bit */
    }"""
    a = rng.integers(-2, 3, (N, 8)).astype(np.int32)
    b = rng.integers(-2, 3, (N, 8)).astype(np.int32)
    out, = run_kernel(src, "k", (N,), (16,), a, b, np.zeros((3 * N, 8), np.int32), options=options)[2:]
    np.testing.assert_array_equal(out[0::3], -((a != 0) & (b != 0)).astype(np.int32))
    np.testing.assert_array_equal(out[1::3], -((a != 0) | (b == 0)).astype(np.int32))
    np.testing.assert_array_equal(out[2::3], np.where(a < b, a, b * 2))


def test_sixteen_lanes_and_hex_swizzles(run_kernel, options):
    src = """
    __kernel void k(__global const uchar16 *in, __global uchar16 *out, __global ushort8 *wide)
    {
        size_t i = get_global_id(0);
        uchar16 v = in[i];
        out[i] = v.sFEDCBA9876543210 + (uchar)1;
        wide[i] = convert_ushort8(v.hi) * (ushort)300;
    }"""
    x = (np.arange(N * 16) % 256).astype(np.uint8).reshape(N, 16)
    _, out, wide = run_kernel(src, "k", (N,), (16,), x, np.zeros_like(x), np.zeros((N, 8), np.uint16),
                              options=options)
    np.testing.assert_array_equal(out, x[:, ::-1] + np.uint8(1))
    np.testing.assert_array_equal(wide, x[:, 8:].astype(np.uint16) * np.uint16(300))


def test_conversions_saturate_and_round_as_named(run_kernel, options):
    src = """
    __kernel void k(__global const float4 *f, __global int4 *rte, __global int4 *rtn, __global uchar4 *sat,
                    __global short4 *isat, __global uint4 *bits)
    {
        size_t i = get_global_id(0);
        rte[i] = convert_int4_rte(f[i]);
        rtn[i] = convert_int4_rtn(f[i]);
        sat[i] = convert_uchar4_sat_rte(f[i]);
        isat[i] = convert_short4_sat(convert_int4_sat(f[i] * 1000.0f));
        bits[i] = as_uint4(f[i]);
    }"""
    f = np.array([[0.5, 1.5, -2.5, 300.7], [-0.4, 2.6, np.nan, -1e12], [3e9, -3e9, 255.5, 254.5]],
                 np.float32)
    f = np.tile(f, (16, 1))
    n = len(f)
    outs = run_kernel(src, "k", (n,), (16,), f, np.zeros((n, 4), np.int32), np.zeros((n, 4), np.int32),
                      np.zeros((n, 4), np.uint8), np.zeros((n, 4), np.int16), np.zeros((n, 4), np.uint32),
                      options=options)
    _, rte, rtn, sat, isat, bits = outs
    finite = np.isfinite(f) & (np.abs(f) < 2e9)
    np.testing.assert_array_equal(rte[finite], np.rint(f[finite]))
    np.testing.assert_array_equal(rtn[finite], np.floor(f[finite]))
    np.testing.assert_array_equal(sat, np.clip(np.rint(np.nan_to_num(f, nan=0)), 0, 255))
    wide = np.clip(np.trunc(np.nan_to_num(f * np.float32(1000), nan=0).astype(np.float64)), -2**31, 2**31 - 1)
    np.testing.assert_array_equal(isat, np.clip(wide, -32768, 32767))
    np.testing.assert_array_equal(bits, f.view(np.uint32))


def test_geometric_functions(run_kernel, options, rng):
    src = """
    __kernel void k(__global const float4 *a, __global const float4 *b, __global float *scalars,
                    __global float4 *vectors)
    {
        size_t i = get_global_id(0);
        float4 x = a[i], y = b[i];
        scalars[4 * i] = dot(x, y);
        scalars[4 * i + 1] = length(x.xyz);
        scalars[4 * i + 2] = distance(x.xy, y.xy);
        scalars[4 * i + 3] = fast_length(x);
        vectors[2 * i] = cross(x, y);
        vectors[2 * i + 1] = normalize(i == 0 ? (float4)(0.0f) : x);
    }"""
    a = rng.standard_normal((N, 4)).astype(np.float32)
    b = rng.standard_normal((N, 4)).astype(np.float32)
    _, _, scalars, vectors = run_kernel(src, "k", (N,), (16,), a, b, np.zeros(4 * N, np.float32),
                                        np.zeros((2 * N, 4), np.float32), options=options)
    a64, b64 = a.astype(np.float64), b.astype(np.float64)
    np.testing.assert_allclose(scalars[0::4], (a64 * b64).sum(1), rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(scalars[1::4], np.linalg.norm(a64[:, :3], axis=1), rtol=1e-6)
    np.testing.assert_allclose(scalars[2::4], np.linalg.norm(a64[:, :2] - b64[:, :2], axis=1), rtol=1e-6)
    np.testing.assert_allclose(scalars[3::4], np.linalg.norm(a64, axis=1), rtol=1e-6)
    cross = np.concatenate([np.cross(a64[:, :3], b64[:, :3]), np.zeros((N, 1))], 1)
    np.testing.assert_allclose(vectors[0::2], cross, rtol=1e-5, atol=1e-6)
    normalized = a64 / np.linalg.norm(a64, axis=1, keepdims=True)
    normalized[0] = 0
    np.testing.assert_allclose(vectors[1::2], normalized, rtol=1e-6, atol=1e-7)


def test_lengths_neither_overflow_nor_underflow(run_kernel, options):
    src = """
    __kernel void k(__global const float4 *x, __global float *lengths, __global float4 *units,
                    __global const double2 *d, __global double *dlengths)
    {
        size_t i = get_global_id(0);
        lengths[i] = length(x[i]);
        units[i] = normalize(x[i]);
        dlengths[i] = distance(d[i], (double2)(0.0));
    }"""
    inf, nan = np.inf, np.nan
    x = np.array([[1e30, 1e30, 0, 0], [3e-40, 4e-40, 0, 0], [3, 4, 0, 0], [0, -0.0, 0, 0],
                  [inf, 1, -inf, 0], [nan, 1, 2, 3], [1e-20, -1e-20, 1e-20, 1e-20], [3e38, 3e38, 3e38, 3e38]],
                 np.float32)
    d = np.array([[1e300, 1e300], [3e-320, 4e-320], [3, 4], [0, 0], [inf, 1], [nan, 2], [1e-200, 1e-200],
                  [1.5e308, 1.5e308]])
    n = len(x)
    _, lengths, units, _, dlengths = run_kernel(src, "k", (n,), (n,), x, np.zeros(n, np.float32),
                                                np.zeros((n, 4), np.float32), d, np.zeros(n), options=options)
    exact = np.linalg.norm(x.astype(np.float64), axis=1)
    finite = np.isfinite(exact) & (exact < 3.4e38)
    np.testing.assert_allclose(lengths[finite], exact[finite], rtol=3e-7, atol=1.5e-45)  # a subnormal ulp
    assert lengths[1] > 0 and np.isinf(lengths[4]) and np.isnan(lengths[5]) and np.isinf(lengths[7])
    unit = x.astype(np.float64) / exact[:, None]
    rows = [0, 1, 2, 6]
    np.testing.assert_allclose(units[rows], unit[rows], rtol=2e-6, atol=1e-7)
    assert np.array_equal(np.signbit(units[3]), np.signbit(x[3])) and not units[3].any()
    h = 0.5 ** 0.5
    np.testing.assert_allclose(units[4], [h, 0, -h, 0], rtol=1e-6)
    assert np.isnan(units[5]).all()
    np.testing.assert_allclose(units[7], [0.5] * 4, rtol=1e-6)
    expected = np.hypot(d[:, 0], d[:, 1])
    ok = np.isfinite(expected)
    np.testing.assert_allclose(dlengths[ok], expected[ok], rtol=1e-15)
    assert np.isinf(dlengths[4]) and np.isnan(dlengths[5]) and np.isinf(dlengths[7])


def test_vector_builtins_and_mixed_scalar_forms(run_kernel, options, rng):
    src = """
    __kernel void k(__global const float4 *a, __global float4 *out, __global int4 *iout)
    {
        size_t i = get_global_id(0);
        float4 x = a[i];
        out[2 * i] = fmax(sqrt(fabs(x)), 0.5f) + clamp(x, -1.0f, 1.0f);
        out[2 * i + 1] = mad(x, x, (float4)(1.0f)) - min(x, 0.0f);
        iout[i] = convert_int4(abs(convert_int4(x * 10.0f))) + max((int4)(3), (int)i);
    }"""
    x = rng.standard_normal((N, 4)).astype(np.float32)
    _, out, iout = run_kernel(src, "k", (N,), (16,), x, np.zeros((2 * N, 4), np.float32),
                              np.zeros((N, 4), np.int32), options=options)
    np.testing.assert_allclose(out[0::2], np.maximum(np.sqrt(np.abs(x)), 0.5) + np.clip(x, -1, 1), rtol=1e-6)
    np.testing.assert_allclose(out[1::2], x * x + 1 - np.minimum(x, 0), rtol=1e-6)
    expected = np.abs(np.trunc(x * np.float32(10)).astype(np.int32)) + np.maximum(3, np.arange(N))[:, None]
    np.testing.assert_array_equal(iout, expected)


def test_vector_kernel_arguments_from_sequences_and_cltypes(run_kernel, options):
    src = """
    __kernel void k(__global float4 *out, float4 s, int2 t, float3 u)
    {
        size_t i = get_global_id(0);
        out[i] = s * (float)i + (float4)(convert_float2(t), u.zx);
    }"""
    for s, t, u in (([1, 2, 3, 4], [5, 6], [7, 8, 9]),
                    (cl.cltypes.make_float4(1, 2, 3, 4)[()], cl.cltypes.make_int2(5, 6)[()],
                     cl.cltypes.make_float3(7, 8, 9)[()])):
        out, = run_kernel(src, "k", (N,), (16,), np.zeros((N, 4), np.float32), s, t, u, options=options)
        expected = np.float32([1, 2, 3, 4]) * np.arange(N, dtype=np.float32)[:, None] + np.float32([5, 6, 9, 7])
        np.testing.assert_array_equal(out, expected)
    assert cl.cltypes.float3.itemsize == 16 and cl.cltypes.make_float4(1, 2, 3, 4)["w"] == 4


def test_math_library_on_vectors(run_kernel, options, rng):
    """The math rows are gentype: vector forms give the scalar results lane by lane."""
    src = """
    __kernel void k(__global const float4 *x, __global float4 *o, __global float4 *ip, __global double2 *d)
    {
        size_t i = get_global_id(0);
        float4 v = x[i];
        float4 whole;
        o[4 * i] = atan2(v, (float4)(0.5f)) + erf(v);
        o[4 * i + 1] = fract(v * 3.0f, &whole);
        ip[i] = whole;
        o[4 * i + 2] = half_exp(v) + tanh(v) + cbrt(v);
        o[4 * i + 3] = hypot(v, v.yxwz) + fmod(v, (float4)(0.3f)) + pow(fabs(v), (float4)(1.5f));
        d[i] = sinpi(convert_double2(v.xy)) + exp10(convert_double2(v.zw));
    }"""
    x = rng.uniform(-2, 2, (N, 4)).astype(np.float32)
    _, o, ip, d = run_kernel(src, "k", (N,), (16,), x, np.zeros((4 * N, 4), np.float32),
                             np.zeros((N, 4), np.float32), np.zeros((N, 2)), options=options)
    X = x.astype(np.float64)
    erf = np.vectorize(__import__("math").erf)
    tripled = (x * np.float32(3)).astype(np.float64)
    np.testing.assert_allclose(o[0::4], np.arctan2(X, 0.5) + erf(X), rtol=2e-6, atol=1e-6)
    np.testing.assert_array_equal(o[1::4], (tripled - np.floor(tripled)).astype(np.float32))
    np.testing.assert_array_equal(ip, np.floor(tripled))
    np.testing.assert_allclose(o[2::4], np.exp(X) + np.tanh(X) + np.cbrt(X), rtol=2e-6, atol=1e-6)
    np.testing.assert_allclose(o[3::4], np.hypot(X, X[:, [1, 0, 3, 2]]) + np.fmod(x, np.float32(0.3)) +
                               np.abs(X) ** 1.5, rtol=2e-6, atol=1e-6)
    np.testing.assert_allclose(d, np.sin(np.pi * X[:, :2]) + 10 ** X[:, 2:], rtol=1e-14)


def test_integer_and_relational_library_on_vectors(run_kernel, options, rng):
    src = """
    __kernel void k(__global const int4 *a, __global const float4 *f, __global int4 *out, __global int *flags)
    {
        size_t i = get_global_id(0);
        int4 x = a[i];
        float4 y = f[i];
        out[4 * i] = popcount(x) + clz(x) + rotate(x, (int4)(3));
        out[4 * i + 1] = add_sat(x, (int4)(0x7ffffff0)) ^ hadd(x, x.wzyx);
        out[4 * i + 2] = isnan(y) + isless(y, (float4)(0.5f)) * 2 + signbit(y) * 4;
        out[4 * i + 3] = select(x, -x, y < 0.0f) + convert_int4(mix(y, (float4)(2.0f), 0.5f));
        flags[2 * i] = any(x < 0);
        flags[2 * i + 1] = all(x > -1000);
    }"""
    x = rng.integers(-2000, 2000, (N, 4)).astype(np.int32)
    y = rng.standard_normal((N, 4)).astype(np.float32)
    y[0, 0] = np.nan
    _, _, out, flags = run_kernel(src, "k", (N,), (16,), x, y, np.zeros((4 * N, 4), np.int32),
                                  np.zeros(2 * N, np.int32), options=options)
    u = x.view(np.uint32)
    popcount = np.array([[bin(v).count("1") for v in row] for row in u])
    clz = np.array([[32 - int(v).bit_length() for v in row] for row in u])
    rotate = ((u << np.uint32(3)) | (u >> np.uint32(29))).view(np.int32)
    np.testing.assert_array_equal(out[0::4], popcount + clz + rotate)
    add_sat = np.clip(x.astype(np.int64) + 0x7ffffff0, -2**31, 2**31 - 1).astype(np.int32)
    hadd = ((x.astype(np.int64) + x[:, ::-1]) >> 1).astype(np.int32)
    np.testing.assert_array_equal(out[1::4], add_sat ^ hadd)
    np.testing.assert_array_equal(out[2::4], -(np.isnan(y).astype(np.int32) + (y < 0.5) * 2 + np.signbit(y) * 4))
    mixed = np.trunc(y + (np.float32(2) - y) * np.float32(0.5))
    np.testing.assert_array_equal(out[3::4][1:], np.where(y < 0, -x, x)[1:] + mixed[1:].astype(np.int32))
    np.testing.assert_array_equal(flags[0::2], (x < 0).any(1))
    np.testing.assert_array_equal(flags[1::2], (x > -1000).all(1))


def test_constant_vectors_at_program_scope(run_kernel, options):
    src = """
    __constant float4 table[2] = {(float4)(1.0f, 2.0f, 3.0f, 4.0f), (float4)(5.0f)};
    __constant int2 pair = (int2)(1, 2);
    typedef struct { float3 p; int2 q; } S;
    __constant S s[2] = {{(float3)(1.0f, 2.0f, 3.0f), (int2)(7)}, {(float3)(4.0f), (int2)(8, 9)}};
    __kernel void k(__global float4 *out, __global float *sums)
    {
        int i = get_global_id(0);
        out[i] = table[i] + (float)pair.y;
        sums[i] = s[i].p.x + s[i].p.z + s[i].q.y;
    }"""
    out, sums = run_kernel(src, "k", (2,), (2,), np.zeros((2, 4), np.float32), np.zeros(2, np.float32),
                           options=options)
    assert out.tolist() == [[3, 4, 5, 6], [7, 7, 7, 7]] and sums.tolist() == [11, 17]


def test_a_constant_vector_needs_constant_lanes():
    src = "__constant float4 t = (float4)(1.0f, get_work_dim(), 2.0f, 3.0f);\n__kernel void k() {}"
    with pytest.raises(cl.RuntimeError) as error:
        cl.Program(cl.create_some_context(), src).build()
    assert "initializer element is not a compile-time constant" in str(error.value)
