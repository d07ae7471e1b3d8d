"""Front-end gaps that OpenCL software written elsewhere hit (issue 18: loopy, hashcat, clFFT,
piglit, the Khronos CTS): each test is a construct clang accepts, with the type or the exact
diagnostic clang's rules give."""
from __future__ import annotations

import pytest

from loomcl.frontend import types as T

from .util import compile_log, compile_ok, kernel_body


@pytest.mark.parametrize("spelling", ["restrict", "__restrict", "__restrict__"])
def test_restrict_spellings_qualify_pointers(spelling):
    unit = compile_ok(f"__kernel void k(__global float *{spelling} out, "
                      f"__global const float *{spelling} const in) {{ float *{spelling} p = 0; }}")
    out, in_ = unit.functions[0].params
    assert out.type.quals.restrict and in_.type.quals.restrict and in_.type.quals.const


@pytest.mark.parametrize("spelling, qualifier", [("__const", "const"), ("__const__", "const"),
                                                 ("__volatile", "volatile"), ("__volatile__", "volatile")])
def test_gnu_const_and_volatile_spellings(spelling, qualifier):
    unit = compile_ok(f"__kernel void k(__global {spelling} int *p) {{ }}")
    assert getattr(unit.functions[0].params[0].type.pointee.quals, qualifier)


def test_string_literal_initializers_become_element_values():
    unit = compile_ok('__constant char s[] = "ab"; __constant uchar u[2] = "\\xff\\x01"; '
                      '__constant char z[4] = {"x"};')
    s, u, z = unit.globals
    assert s.type.length == 3 and [i.value for i in s.init.items] == [97, 98, 0]
    assert u.type.length == 2 and [i.value for i in u.init.items] == [255, 1]  # no room: NUL dropped
    assert [i.value for i in z.init.items] == [120, 0]  # the rest is zero


def test_a_string_literal_elsewhere_is_a_constant_char_array():
    unit = compile_ok('int f(__constant char *s) { return s[0]; } '
                      '__kernel void k(__global int *o) { o[0] = f("abc") + f("abc") + "xy"[1]; }')
    strings = [g for g in unit.globals if g.name == ".str"]
    assert [g.type for g in strings] == [T.with_address_space(T.array_of(T.CHAR, 4), T.AddressSpace.CONSTANT),
                                         T.with_address_space(T.array_of(T.CHAR, 3), T.AddressSpace.CONSTANT)]


def test_too_long_string_initializer_warns_as_clang_does():
    log = compile_log('__constant char s[2] = "abc";', "-Werror")
    assert log == ("t.cl:1:24: error: initializer-string for char array is too long "
                   "[-Werror,-Wexcess-initializers]\n"
                   '__constant char s[2] = "abc";\n'
                   "                       ^")


def test_a_string_literal_cannot_initialize_a_private_char_pointer():
    log = compile_log('__kernel void k() { char *p = "abc"; }', "-cl-std=CL1.2")
    assert "error: initializing '__private char *' with an expression of incompatible type '__constant char *'" in log


def test_enumerators_outside_int_take_the_enums_wider_type():
    """As clang types them in C: int when the value fits, else the enum's underlying type."""
    body = kernel_body("""
        enum md5 { MD5M_A = 0x67452301U, MD5M_B = 0xefcdab89U, NEXT };
        enum sip { S0 = 0x736f6d6570736575UL, S1 = 1 };
        enum neg { N0 = -1, N1 = 0x80000000 };
        __kernel void k() { MD5M_A; MD5M_B; NEXT; S0; S1; N0; N1; }""", "-w")
    typed = [(s.expr.value, s.expr.type) for s in body]
    assert typed == [(0x67452301, T.INT), (0xefcdab89, T.UINT), (0xefcdab8a, T.UINT),
                     (0x736f6d6570736575, T.ULONG), (1, T.INT), (-1, T.INT), (0x80000000, T.LONG)]


def test_enumerator_beyond_ulong_is_an_error():
    log = compile_log("enum big { B = 0xffffffffffffffffUL, C };")
    assert log.startswith("t.cl:1:38: error: enumerator value 18446744073709551616 is not "
                          "representable in the largest integer type")


def test_parameter_qualifiers_are_not_part_of_the_function_type():
    """hashcat declares `u8x f(const u64x v);` and defines `u8x f(u64x a)` (C11 6.7.6.3p15)."""
    unit = compile_ok("""
        typedef ulong u64x; typedef uchar u8x;
        u8x f(const u64x v);
        u8x f(u64x a) { return (u8x)a; }
        int g(__global int *const restrict p);
        int g(__global int *p) { return *p; }
        __kernel void k(__global int *o) { o[0] = f(3) + g(o); }""")
    assert [f.name for f in unit.functions] == ["f", "g", "k"]


def test_pointee_qualifiers_still_conflict():
    log = compile_log("int g(__global const int *p);\nint g(__global int *p) { return *p; }")
    assert log.startswith("t.cl:2:5: error: conflicting types for 'g'")


POINTER_CONVERSIONS = """void take(__global float *p) { p[0] = 1.0f; }
__global float *give(__global const float *p) { return p; }
__kernel void k(__global float2 *bufOut, __global const float *in) {
  __global float4 *p = bufOut;
  __global float *q;
  q = in;
  take(in);
}"""


def test_pointer_conversions_clang_only_warns_about_are_warnings():
    """clFFT stores through `__global float4 *p = bufOut;` from a `float2 *`; clang warns."""
    warnings = compile_ok(POINTER_CONVERSIONS).warnings.splitlines()[::3]
    assert warnings == [
        "t.cl:2:56: warning: returning '__global const float *' from a function with result type "
        "'__global float *' discards qualifiers [-Wincompatible-pointer-types-discards-qualifiers]",
        "t.cl:4:24: warning: incompatible pointer types initializing '__global float4 *' with an "
        "expression of type '__global float2 *' [-Wincompatible-pointer-types]",
        "t.cl:6:7: warning: assigning to '__global float *' from '__global const float *' discards "
        "qualifiers [-Wincompatible-pointer-types-discards-qualifiers]",
        "t.cl:7:8: warning: passing '__global const float *' to parameter of type '__global float *' "
        "discards qualifiers [-Wincompatible-pointer-types-discards-qualifiers]"]


def test_pointer_conversion_warnings_fail_under_werror():
    log = compile_log(POINTER_CONVERSIONS, "-Werror")
    assert log.count("error: ") == 4 and "[-Werror,-Wincompatible-pointer-types]" in log


def test_a_pointer_conversion_across_address_spaces_stays_an_error():
    log = compile_log("__kernel void k(__global float *g) { __local float *l = g; }")
    assert "error: initializing '__local float *' with an expression of incompatible type " \
           "'__global float *'" in log


PRAGMAS = """#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#pragma OPENCL EXTENSION all : disable
#pragma OPENCL EXTENSION unknown_ext : enable
#pragma OPENCL EXTENSION cl_khr_fp64 : enabled
__kernel void k() {}"""


def test_unknown_extension_pragmas_warn_as_clang_does():
    assert compile_ok(PRAGMAS).warnings == (
        "t.cl:3:26: warning: unknown OpenCL extension 'unknown_ext' - ignoring [-Wignored-pragmas]\n"
        "#pragma OPENCL EXTENSION unknown_ext : enable\n"
        "                         ^~~~~~~~~~~\n"
        "t.cl:4:40: warning: expected 'enable', 'disable', 'begin' or 'end' - ignoring [-Wignored-pragmas]\n"
        "#pragma OPENCL EXTENSION cl_khr_fp64 : enabled\n"
        "                                       ^~~~~~~")


def test_unknown_extension_pragma_fails_under_werror_and_is_silent_under_w():
    assert "error: unknown OpenCL extension 'unknown_ext' - ignoring [-Werror,-Wignored-pragmas]" \
        in compile_log(PRAGMAS, "-Werror")
    assert compile_ok(PRAGMAS, "-w").warnings == ""
