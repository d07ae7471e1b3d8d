"""Kernels in the style of OpenCL software written elsewhere (issue 18), run against numpy: each
pins a language gap such a client hit."""
from __future__ import annotations

import numpy as np
import pytest

import loomcl as cl

from e2e_helpers import build, launch

LOOPY = """
#define lid(N) ((int) get_local_id(N))
#define gid(N) ((int) get_group_id(N))

__kernel void __attribute__ ((reqd_work_group_size(16, 1, 1)))
loopy_kernel(__global float const *__restrict__ a, __global float *__restrict out, int const n)
{
  if (-1 + -16 * gid(0) + -1 * lid(0) + n >= 0)
    out[16 * gid(0) + lid(0)] = 2.0f * a[16 * gid(0) + lid(0)];
}
"""


def test_loopy_style_restrict_pointers(run_kernel, rng):
    a = rng.random(100, dtype=np.float32)
    _, out = run_kernel(LOOPY, "loopy_kernel", (112,), (16,), a, np.zeros(100, np.float32), np.int32(100))
    np.testing.assert_array_equal(out, 2 * a)


HASHCAT_STYLE = """
#include M2S(INCLUDE_PATH/inc_scale.h)
#ifdef DROPPED
#error "-U did not undefine DROPPED"
#endif
__kernel void scaled(__global int *out) {
    int i = get_global_id(0);
    out[i] = i * SCALE + OFFSET + sizeof(GREETING);
}
"""


def test_hashcat_style_build_options(run_kernel, tmp_path):
    """hashcat's options: function-like -D macros, a computed #include of a stringized path, values
    with spaces and quotes as a shell splits them, and -U after -D."""
    (tmp_path / "inc_scale.h").write_text("#define OFFSET (SCALE * 100)\n")
    options = ["-D XM2S(x)=#x", "-D M2S(x)=XM2S(x)", f"-D INCLUDE_PATH={tmp_path}", f"-I {tmp_path}",
               "-D 'SCALE=(2 + 1)'", '-DGREETING=\\"hello\\"', "-DDROPPED -UDROPPED", "-w"]
    (out,) = run_kernel(HASHCAT_STYLE, "scaled", (16,), (4,), np.zeros(16, np.int32), options=" ".join(options))
    np.testing.assert_array_equal(out, np.arange(16) * 3 + 300 + 6)


STRINGS = """
__constant char greeting[] = "hello";
__constant char fixed[3] = "abc";
__constant char table[2][4] = {"ab", "cde"};
typedef struct { int id; char name[8]; } rec;
__constant rec recs[2] = {{1, "one"}, {2, "two"}};

int length(const __constant char *s) { int n = 0; while (s[n]) n++; return n; }

__kernel void strings(__global int *out) {
    char priv[] = "xyz";
    char braced[6] = {"ab"};
    __constant char *p = "pointer!";
    rec r = {7, "seven"};
    out[0] = sizeof(greeting);
    out[1] = greeting[1];
    out[2] = fixed[2];
    out[3] = table[1][2];
    out[4] = recs[1].name[1];
    out[5] = priv[2] + sizeof(priv) * 1000;
    out[6] = braced[1] + braced[4] * 1000 + sizeof(braced) * 100000;
    out[7] = length(p);
    out[8] = length("a literal");
    out[9] = r.name[4];
    out[10] = "index"[2];
    out[11] = sizeof("four");
}
"""


def test_string_literals_outside_printf(run_kernel):
    """The CTS's and hashcat's uses: __constant char arrays, private char arrays, struct members,
    literals passed to `const __constant char *`."""
    (out,) = run_kernel(STRINGS, "strings", (1,), (1,), np.zeros(12, np.int32))
    expected = [6, ord("e"), ord("c"), ord("e"), ord("w"), ord("z") + 4000, ord("b") + 600000, 8, 9,
                ord("n"), ord("d"), 5]
    np.testing.assert_array_equal(out, expected)


WIDE_ENUM = """
typedef enum md5_constants { MD5M_A = 0x67452301U, MD5M_B = 0xefcdab89U } md5_constants_t;
typedef enum siphash_constants { SIPHASHM_0 = 0x736f6d6570736575UL } siphash_constants_t;

__kernel void wide_enum(__global const uint *in, __global uint *sum32, __global ulong *sum64) {
    int i = get_global_id(0);
    sum32[i] = in[i] + MD5M_B;          // uint arithmetic: wraps modulo 2^32
    sum64[i] = in[i] ^ SIPHASHM_0;      // ulong
}
"""


def test_hashcat_enumerators_above_int_max(run_kernel, rng):
    data = rng.integers(0, 2**32, 64, dtype=np.uint32)
    _, sum32, sum64 = run_kernel(WIDE_ENUM, "wide_enum", (64,), (16,), data, np.zeros(64, np.uint32),
                                 np.zeros(64, np.uint64))
    np.testing.assert_array_equal(sum32, data + np.uint32(0xefcdab89))
    np.testing.assert_array_equal(sum64, data.astype(np.uint64) ^ np.uint64(0x736f6d6570736575))


CLFFT_STYLE = """
__kernel void widen(__global float2 *bufOut, __global const float *in) {
    __global float4 *p = bufOut;      // clang: a warning, and the store goes through p
    __global float *w = in;           // drops const: a warning
    int i = get_global_id(0);
    p[i] = (float4)(w[4 * i], w[4 * i + 1], w[4 * i + 2], w[4 * i + 3]) * 2.0f;
}
"""


@pytest.mark.filterwarnings("ignore::UserWarning")  # the build log is not empty: that is the point
def test_clfft_style_pointer_conversions_build_and_run(ctx, queue, rng):
    src = rng.random(64, dtype=np.float32)
    log = build(ctx, CLFFT_STYLE).get_build_info(ctx.devices[0], cl.program_build_info.LOG)
    assert "[-Wincompatible-pointer-types]" in log
    out, _ = launch(ctx, queue, CLFFT_STYLE, "widen", (16,), (4,), np.zeros(32, np.complex64), src)
    np.testing.assert_array_equal(out.view(np.float32), 2 * src)


VSTORE_LOCAL = """
__kernel void through_local(__local int4 *shared, __global const int4 *src, __global int4 *dst,
                            __global int *dst3, uint shift) {
    int tid = get_local_id(0);
    shared[tid] = (int4)(int)0;                     // a cast of a cast, not a vector literal
    barrier(CLK_LOCAL_MEM_FENCE);
    vstore4(src[tid], tid, (__local int *)shared);
    barrier(CLK_LOCAL_MEM_FENCE);
    int priv[8];
    vstore4(vload4(tid, (__local int *)shared), 0, priv);
    vstore4(vload4(0, priv) * 2, 1, priv);
    dst[tid] = vload4(1, priv) + (int4)(int)shift;
    __local int *words = (__local int *)shared;
    barrier(CLK_LOCAL_MEM_FENCE);
    vstore3(vload3(tid, (__global const int *)src), tid, words + 1);
    barrier(CLK_LOCAL_MEM_FENCE);
    vstore3(vload3(tid, words + 1), tid, dst3);
}
"""


def test_cts_style_vload_vstore_on_local_and_private_memory(run_kernel, rng):
    src = rng.integers(-1000, 1000, (8, 4)).astype(np.int32)
    _, dst, dst3 = run_kernel(VSTORE_LOCAL, "through_local", (8,), (8,), cl.LocalMemory(8 * 16), src,
                              np.zeros((8, 4), np.int32), np.zeros(24, np.int32), np.uint32(5))
    np.testing.assert_array_equal(dst, 2 * src + 5)
    np.testing.assert_array_equal(dst3, src.ravel()[:24])


PARTIAL_VECTOR_ARRAY = """
typedef struct { int id; float4 v; } item;
__kernel void partial(__global int4 *out, __global const int4 *in, __global float4 *vout) {
    int4 a[2] = { in[0] };          // piglit: a[1] is zero
    float3 b[3] = { (float3)(1.0f, 2.0f, 3.0f) };
    item c[2] = { { 7 } };
    out[0] = a[0];
    out[1] = a[1];
    vout[0] = (float4)(b[0], b[2].x);
    vout[1] = (float4)(b[1], (float)c[0].id) + c[1].v + c[0].v;
}
"""


def test_piglit_partial_initializer_of_a_vector_array(run_kernel):
    """The zero of a vector element left out of an initializer was a scalar constant of vector
    type, on which scalarize_vectors raised AttributeError ("a bug in loomcl")."""
    out, _, vout = run_kernel(PARTIAL_VECTOR_ARRAY, "partial", (1,), (1,), np.full((2, 4), -1, np.int32),
                              np.array([[1, 2, 3, 4]], np.int32), np.full((2, 4), -1, np.float32))
    np.testing.assert_array_equal(out, [[1, 2, 3, 4], [0, 0, 0, 0]])
    np.testing.assert_array_equal(vout, [[1, 2, 3, 0], [0, 0, 0, 7]])


AS_TYPE_3_4 = """
__kernel void as_type_3_4(__global const float *in, __global uint *narrowed, __global int *widened,
                          __global uint *same, __global uchar *bytes) {
    int i = get_global_id(0);
    float4 v = vload4(i, in);
    vstore3(as_uint3(v), i, narrowed);          // the first three lanes' bits
    int4 w = as_int4(v.xyz);                    // lane 3 undefined: only 0-2 are checked
    vstore3(w.xyz, i, widened);
    vstore3(as_uint3(v.xyz), i, same);          // 3 lanes to 3 lanes
    uchar3 b = as_uchar3(as_int(v.x));          // a 4-byte scalar to a 3-vector of bytes
    vstore3(as_uchar3(as_char3(b)), i, bytes);
}
"""


def test_as_type_between_3_and_4_lane_vectors(run_kernel, rng):
    """The CTS's astype: as_type3(vec4) keeps the first lanes' bits; as_type4(vec3) compiles."""
    data = rng.standard_normal(32).astype(np.float32)
    _, narrowed, widened, same, bytes_ = run_kernel(
        AS_TYPE_3_4, "as_type_3_4", (8,), (4,), data, np.zeros(24, np.uint32), np.zeros(24, np.int32),
        np.zeros(24, np.uint32), np.zeros(24, np.uint8))
    lanes = data.reshape(8, 4)[:, :3].ravel()
    np.testing.assert_array_equal(narrowed, lanes.view(np.uint32))
    np.testing.assert_array_equal(widened, lanes.view(np.int32))
    np.testing.assert_array_equal(same, lanes.view(np.uint32))
    np.testing.assert_array_equal(bytes_.reshape(8, 3), data.reshape(8, 4)[:, :1].view(np.uint8)[:, :3])


SCALAR_SPLAT = """
__kernel void splat(__global uint4 *words, __global float4 *f) {
    int i = get_global_id(0);
    uint4 v = words[i];
    words[i] = rotate(v & 0x00FF00FF, 24u) | rotate(v & 0xFF00FF00, 8u);   // hashcat's hc_swap32_4
    f[i] = mad(f[i], 2.0f, (float4)(1.0f));
}
"""


def test_scalar_arguments_splat_into_vector_builtins(run_kernel, rng):
    """clang converts a scalar argument to a vector parameter (a splat) when no overload takes the
    scalar: rotate(uint4, uint) is rotate(uint4, uint4)."""
    words = rng.integers(0, 2**32, (16, 4), dtype=np.uint32)
    f = rng.standard_normal((16, 4)).astype(np.float32)
    swapped, out = run_kernel(SCALAR_SPLAT, "splat", (16,), (4,), words, f)
    np.testing.assert_array_equal(swapped, words.byteswap())
    np.testing.assert_allclose(out, f * 2 + 1, rtol=1e-6)


COMPOUND_LITERALS = """
__kernel void compound(__global int2 *coords, __global int *scalars) {
    int tidX = get_global_id(0), tidY = 7;
    int2 c = (int2) {tidX, tidY};              // the CTS's test_buffers image_migrate
    coords[tidX] = c + (int2){1}.yx;           // lanes not written are zero; a postfix applies
    scalars[tidX] = (int){5} + (int4){1, 2, 3, 4}.w + (float4){(float2)(0.5f), 1.5f}.z;
}
"""


def test_compound_literals_of_vectors_and_scalars(run_kernel):
    """`(int2){x, y}`: a compound literal of a vector is its brace list's value, lanes in order and
    the rest zero (clang's rule), where `(int2)(x)` would copy x into every lane."""
    coords, scalars = run_kernel(COMPOUND_LITERALS, "compound", (8,), (4,), np.zeros((8, 2), np.int32),
                                 np.zeros(8, np.int32))
    np.testing.assert_array_equal(coords, np.stack([np.arange(8), np.full(8, 8)], axis=1))
    np.testing.assert_array_equal(scalars, np.full(8, 5 + 4 + 1))


def test_compound_literal_of_a_struct_is_a_clear_error(ctx):
    source = "struct S { int a; };\n__kernel void k(__global int *o) { o[0] = ((struct S){1}).a; }"
    with pytest.raises(cl.RuntimeError) as failed:
        cl.Program(ctx, source).build()
    assert "<kernel>:2:44: error: compound literals of type 'struct S' are not supported (only of vector and scalar types)" \
        in str(failed.value)


VEC_STEP = """
typedef char TypeToTest;
typedef float3 Three;
__kernel void steps(__global int *dest) {
    float2 v2; Three v3; long16 v16; TypeToTest c;
    int i = 0;
    dest[i++] = vec_step(char);                  // the CTS's test_vectors step_type, step_var, ...
    dest[i++] = vec_step(TypeToTest);
    dest[i++] = vec_step(c);
    dest[i++] = vec_step(v2);
    dest[i++] = vec_step(Three);                 // a 3-lane vector steps as 4
    dest[i++] = vec_step(v3);
    dest[i++] = vec_step v16;
    dest[i++] = vec_step(uchar8) + vec_step(double);
}
"""


def test_vec_step_counts_lanes_of_types_and_expressions(run_kernel):
    (dest,) = run_kernel(VEC_STEP, "steps", (1,), (1,), np.zeros(8, np.int32))
    np.testing.assert_array_equal(dest, [1, 1, 1, 2, 4, 4, 16, 9])


def test_vec_step_of_a_pointer_is_a_clear_error(ctx):
    source = "__kernel void k(__global int *o) { o[0] = vec_step(o); }"
    with pytest.raises(cl.RuntimeError) as failed:
        cl.Program(ctx, source).build()
    assert "<kernel>:1:43: error: invalid vec_step argument of type '__global int *' (a scalar or vector " \
           "type)" in str(failed.value)


UNROLL_HINT = """
__kernel void pragma_unroll(__global uint *dst) {
    __attribute__((opencl_unroll_hint))            // the CTS's test_compiler pragma_unroll
    for (size_t i = 0; i < 100; ++i)
        dst[i] = i;
    __attribute__((opencl_unroll_hint(2))) while (dst[0] < 3) dst[0]++;
    __attribute__((aligned(16))) int kept = 5;     // attributes that begin a declaration
    dst[1] += kept;
}
"""


def test_loop_attributes_are_hints(run_kernel):
    (dst,) = run_kernel(UNROLL_HINT, "pragma_unroll", (1,), (1,), np.zeros(100, np.uint32))
    np.testing.assert_array_equal(dst, [3, 6] + list(range(2, 100)))


SATURATING = """
__kernel void sat(__global const float *f, __global const double *d, __global int *i, __global uint *u,
                  __global long *l, __global ulong *ul) {
    int k = get_global_id(0);
    i[k] = convert_int_sat(f[k]);     // the CTS's test_conversions: inf and 2^31 give INT_MAX,
    u[k] = convert_uint_sat(f[k]);    // not the largest float below it
    l[k] = convert_long_sat(d[k]);
    ul[k] = convert_ulong_sat_rtz(d[k]);
}
"""


def test_saturating_conversions_reach_the_integer_maximum(run_kernel):
    f = np.array([np.inf, 2.0**31, 2.0**32, 3e9, -np.inf, np.nan, 2147483520.0, 1.5], np.float32)
    d = np.array([np.inf, 2.0**63, float.fromhex("0x1.fffffffffffffp+63"), 2.0**64, -np.inf, np.nan, 2.0**62, 1.5], np.float64)
    _, _, i, u, l, ul = run_kernel(SATURATING, "sat", (8,), (8,), f, d, np.zeros(8, np.int32),
                                   np.zeros(8, np.uint32), np.zeros(8, np.int64), np.zeros(8, np.uint64))
    imax, umax, lmax, ulmax = 2**31 - 1, 2**32 - 1, 2**63 - 1, 2**64 - 1
    np.testing.assert_array_equal(i, [imax, imax, imax, imax, -2**31, 0, 2147483520, 1])
    np.testing.assert_array_equal(u, [umax, 2**31, umax, 3000000000, 0, 0, 2147483520, 1])
    np.testing.assert_array_equal(l, [lmax, lmax, lmax, lmax, -2**63, 0, 2**62, 1])
    np.testing.assert_array_equal(ul, np.array([ulmax, 2**63, 0xfffffffffffff800, ulmax, 0, 0, 2**62, 1], np.uint64))


def test_piglit_bswap_writes_past_its_buffer_into_padding(ctx, queue):
    """piglit's bswap.cl launches 24 work-items on 8-element ushort2 buffers: the overrun is its own
    bug, but it must land in loomcl's padding (it corrupted the host's heap: 'corrupted size vs.
    prev_size' when the process ended) and leave the 8 elements right."""
    source = ("kernel void swap(global ushort2 *out, global ushort2 *in) "
              "{ int i = get_global_id(0); out[i] = in[i].yx; }")
    program = cl.Program(ctx, source).build()
    pairs = np.arange(16, dtype=np.uint16)
    mf = cl.mem_flags
    src = cl.Buffer(ctx, mf.READ_WRITE | mf.COPY_HOST_PTR, hostbuf=np.tile(pairs, 3))
    out = cl.Buffer(ctx, mf.READ_WRITE, pairs.nbytes)
    for _ in range(50):   # many allocations around the overrun: a damaged heap aborts
        program.swap(queue, (24,), None, out, src)
        scratch = [cl.Buffer(ctx, mf.READ_WRITE, pairs.nbytes) for _ in range(4)]
    result = np.empty_like(pairs)
    cl.enqueue_copy(queue, result, out)
    assert np.array_equal(result, pairs.reshape(8, 2)[:, ::-1].ravel()) and len(scratch) == 4


PIGLIT_VECTOR_MATH = """
__kernel void k(__global float4 *x, __global int4 *n, __global float4 *o, __global int4 *e) {
  int i = get_global_id(0);
  int4 ex; float4 m = frexp(x[i], &ex);
  int4 quo; float4 r = remquo(x[i], (float4)1.5f, &quo);
  int4 sign; float4 lg = lgamma_r(x[i], &sign);
  o[4*i] = ldexp(m, n[i]) + ldexp(m, 2);
  o[4*i+1] = pown(x[i], n[i]) + rootn(x[i], n[i] + 1);
  o[4*i+2] = r; o[4*i+3] = lg;
  e[4*i] = ilogb(x[i]); e[4*i+1] = ex; e[4*i+2] = quo; e[4*i+3] = sign;
}"""


def test_piglit_vector_forms_of_the_math_functions_with_int_lanes(ctx, queue):
    """piglit's builtin-float-{ilogb,ldexp,frexp,pown,rootn,remquo,lgamma_r}: the gentype forms with
    intn (OpenCL C 6.15.2) were 'no matching function' (only the scalar forms existed)."""
    import math
    x = np.array([0.75, 3.0, 10.5, 100.0], np.float32)
    n = np.array([1, 2, 3, -1], np.int32)
    mf = cl.mem_flags
    out, ints = np.zeros((4, 4), np.float32), np.zeros((4, 4), np.int32)
    buffers = [cl.Buffer(ctx, mf.COPY_HOST_PTR, hostbuf=a) for a in (x, n)]
    buffers += [cl.Buffer(ctx, mf.WRITE_ONLY, a.nbytes) for a in (out, ints)]
    cl.Program(ctx, PIGLIT_VECTOR_MATH).build().k(queue, (1,), None, *buffers)
    cl.enqueue_copy(queue, out, buffers[2])
    cl.enqueue_copy(queue, ints, buffers[3])
    mantissa, exponent = np.frexp(x)
    quotient = np.round(x / 1.5)   # no halfway cases among these
    rootn = [v ** (1 / k) if k else math.nan for v, k in zip(x.astype(float), n + 1)]
    np.testing.assert_allclose(out[0], np.ldexp(mantissa, n) + np.ldexp(mantissa, 2), rtol=0)
    np.testing.assert_allclose(out[1], x.astype(float) ** n + rootn, rtol=1e-6)
    np.testing.assert_allclose(out[2], x - quotient * 1.5, rtol=0, atol=1e-6)
    np.testing.assert_allclose(out[3], [math.lgamma(v) for v in x], rtol=1e-6)
    assert ints.tolist() == [[-1, 1, 3, 6], exponent.tolist(), [int(q) % 8 for q in quotient], [1, 1, 1, 1]]


PIGLIT_SHUFFLE = """
kernel void t(global float *out, global float *in, global uint *mask, global int *out2, global int8 *in2) {
    vstore4(shuffle(vload8(0, in), vload4(0, mask)), 0, out);
    vstore16(shuffle2(in2[0], in2[1], vload16(0, mask)), 0, out2);
}"""


def test_piglit_shuffle_and_shuffle2_with_run_time_masks(ctx, queue):
    """piglit's builtin-shuffle-*: shuffle/shuffle2 (OpenCL C 6.15.12) were undeclared; a mask lane
    counts only its low bits (log2 of the source lanes: 3 for float8, 4 for shuffle2 of two int8)."""
    floats = np.arange(8, dtype=np.float32) * 1.5
    ints = np.arange(16, dtype=np.int32) * 10
    mask = np.array([3, 0, 9, 7, 31, 1, 2, 100, 15, 8, 4, 5, 6, 7, 12, 13], np.uint32)
    mf = cl.mem_flags
    out, out2 = np.zeros(4, np.float32), np.zeros(16, np.int32)
    b_out, b_out2 = cl.Buffer(ctx, mf.WRITE_ONLY, out.nbytes), cl.Buffer(ctx, mf.WRITE_ONLY, out2.nbytes)
    sources = [cl.Buffer(ctx, mf.COPY_HOST_PTR, hostbuf=a) for a in (floats, mask, ints)]
    cl.Program(ctx, PIGLIT_SHUFFLE).build().t(queue, (1,), None, b_out, sources[0], sources[1], b_out2, sources[2])
    cl.enqueue_copy(queue, out, b_out)
    cl.enqueue_copy(queue, out2, b_out2)
    assert out.tolist() == [4.5, 0.0, 1.5, 10.5] and out2.tolist() == ints[mask % 16].tolist()
