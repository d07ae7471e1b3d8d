"""The common (OpenCL C 1.2 sec. 6.12.4) and relational (6.12.6) functions for float and double, and
bitselect/select for every scalar type, end to end against numpy, over random values and the
special ones: signed zeros, infinities, NaN, subnormals, the smallest normal and the largest
finite number."""
from __future__ import annotations

import numpy as np
import pytest

FLOATS = {"float": (np.float32, np.uint32, "int", "uint"), "double": (np.float64, np.uint64, "long", "ulong")}
INTEGERS = {"char": np.int8, "uchar": np.uint8, "short": np.int16, "ushort": np.uint16,
            "int": np.int32, "uint": np.uint32, "long": np.int64, "ulong": np.uint64}
SIGNED_OF_SIZE = {1: "char", 2: "short", 4: "int", 8: "long"}

COMMON = """
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
__kernel void common_functions(__global const T *x, __global const T *y, __global const T *z,
                               __global T *out) {
    int i = get_global_id(0);
    T a = x[i], b = y[i], c = z[i];
    __global T *o = out + 6 * i;
    o[0] = degrees(a);
    o[1] = radians(a);
    o[2] = mix(a, b, c);
    o[3] = step(b, a);
    o[4] = smoothstep(b, b + (T)2, a);
    o[5] = sign(a);
}
"""

RELATIONAL = """
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
__kernel void relational_functions(__global const T *x, __global const T *y, __global int *out) {
    int i = get_global_id(0);
    T a = x[i], b = y[i];
    __global int *o = out + 14 * i;
    o[0] = isequal(a, b);
    o[1] = isnotequal(a, b);
    o[2] = isgreater(a, b);
    o[3] = isgreaterequal(a, b);
    o[4] = isless(a, b);
    o[5] = islessequal(a, b);
    o[6] = islessgreater(a, b);
    o[7] = isordered(a, b);
    o[8] = isunordered(a, b);
    o[9] = isfinite(a);
    o[10] = isinf(a);
    o[11] = isnan(a);
    o[12] = isnormal(a);
    o[13] = signbit(a);
}
"""

SELECTION = """
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
__kernel void selection(__global const T *x, __global const T *y, __global const T *bits,
                        __global const I *signed_choice, __global const U *unsigned_choice,
                        __global T *out) {
    int i = get_global_id(0);
    out[3 * i] = bitselect(x[i], y[i], bits[i]);
    out[3 * i + 1] = select(x[i], y[i], signed_choice[i]);
    out[3 * i + 2] = select(x[i], y[i], unsigned_choice[i]);
}
"""


def special_values(dtype):
    info = np.finfo(dtype)
    return np.array([0.0, -0.0, np.inf, -np.inf, np.nan, 1.0, -1.0, info.tiny, -info.tiny,
                     info.tiny / 2, info.smallest_subnormal, info.max, -info.max, 0.5, 2.0],
                    dtype)


def float_inputs(dtype, rng, count=1024):
    """x and y: every pair of special values, then random values of all magnitudes."""
    special = special_values(dtype)
    pairs = np.array([(a, b) for a in special for b in special], dtype)
    fill = count - len(pairs)
    random = [(rng.standard_normal(fill) * 10.0 ** rng.integers(-3, 4, fill)).astype(dtype)
              for _ in range(2)]
    random[1][::4] = random[0][::4]  # some equal pairs
    return [np.concatenate([pairs[:, k], random[k]]) for k in range(2)]


def assert_same_floats(got, expected, what):
    """Equal values, NaN where NaN, and the same sign of zero."""
    np.testing.assert_array_equal(got, expected, err_msg=what)
    np.testing.assert_array_equal(np.signbit(got[got == 0]), np.signbit(expected[expected == 0]),
                                  err_msg=f"{what}: sign of zero")


@pytest.mark.parametrize("type_name", list(FLOATS))
def test_common_functions(run_kernel, rng, type_name):
    dtype = FLOATS[type_name][0]
    x, y = float_inputs(dtype, rng)
    z = rng.uniform(0, 1, x.size).astype(dtype)
    n = x.size
    (out,) = run_kernel(COMMON, "common_functions", (n,), (64,), x, y, z, np.zeros(6 * n, dtype),
                        options=f"-D T={type_name}")[3:]
    o = out.reshape(n, 6)
    with np.errstate(all="ignore"):
        # no contraction into fma: every result is the spec's formula, rounded operation by operation
        assert_same_floats(o[:, 0], x * dtype(180 / np.pi), "degrees")
        assert_same_floats(o[:, 1], x * dtype(np.pi / 180), "radians")
        assert_same_floats(o[:, 2], x + (y - x) * z, "mix")
        assert_same_floats(o[:, 3], np.where(x < y, dtype(0), dtype(1)), "step")
        t = (x - y) / ((y + dtype(2)) - y)
        defined = ~np.isnan(t)  # clamp leaves NaN undefined (fmin/fmax give 0 here)
        t = np.clip(t, dtype(0), dtype(1))
        assert_same_floats(o[defined, 4], (t * t * (dtype(3) - dtype(2) * t))[defined], "smoothstep")
        sign = np.where(x > 0, dtype(1), np.where(x < 0, dtype(-1), np.where(np.isnan(x), dtype(0), x)))
    assert_same_floats(o[:, 5], sign, "sign")


@pytest.mark.parametrize("type_name", list(FLOATS))
def test_relational_functions_give_one_or_zero(run_kernel, rng, type_name):
    dtype = FLOATS[type_name][0]
    x, y = float_inputs(dtype, rng)
    n = x.size
    (out,) = run_kernel(RELATIONAL, "relational_functions", (n,), (64,), x, y,
                        np.full(14 * n, 7, np.int32), options=f"-D T={type_name}")[2:]
    nan = np.isnan(x) | np.isnan(y)
    with np.errstate(invalid="ignore"):
        expected = {
            "isequal": x == y, "isnotequal": x != y, "isgreater": x > y, "isgreaterequal": x >= y,
            "isless": x < y, "islessequal": x <= y, "islessgreater": (x < y) | (x > y),
            "isordered": ~nan, "isunordered": nan, "isfinite": np.isfinite(x), "isinf": np.isinf(x),
            "isnan": np.isnan(x), "isnormal": np.isfinite(x) & (np.abs(x) >= np.finfo(dtype).tiny),
            "signbit": np.signbit(x),
        }
    o = out.reshape(n, 14)
    for k, (name, want) in enumerate(expected.items()):
        np.testing.assert_array_equal(o[:, k], want.astype(np.int32), err_msg=name)


def selection_inputs(type_name, rng, n):
    if type_name in FLOATS:
        dtype, bits_dtype, signed, unsigned = FLOATS[type_name]
        x, y = float_inputs(dtype, rng, n)
        bits = rng.integers(0, np.iinfo(bits_dtype).max, n, dtype=bits_dtype, endpoint=True)
        return x, y, bits.view(dtype), signed, unsigned
    dtype = INTEGERS[type_name]
    info = np.iinfo(dtype)
    x, y, bits = (rng.integers(info.min, info.max, n, dtype=dtype, endpoint=True) for _ in range(3))
    signed = SIGNED_OF_SIZE[np.dtype(dtype).itemsize]
    return x, y, bits, signed, "u" + signed


@pytest.mark.parametrize("type_name", list(INTEGERS) + list(FLOATS))
def test_bitselect_and_select(run_kernel, rng, type_name):
    n = 512
    x, y, bits, signed, unsigned = selection_inputs(type_name, rng, n)
    choices = [rng.integers(-2, 3, n).astype(INTEGERS[name]) for name in (signed, unsigned)]
    for choice in choices:
        choice[:4] = [0, 1, np.iinfo(choice.dtype).max, np.iinfo(choice.dtype).min]
    (out,) = run_kernel(SELECTION, "selection", (n,), (64,), x, y, bits, *choices,
                        np.zeros(3 * n, x.dtype),
                        options=f"-D T={type_name} -D I={signed} -D U={unsigned}")[5:]
    as_bits = INTEGERS["u" + SIGNED_OF_SIZE[x.dtype.itemsize]]
    xb, yb, cb = (v.view(as_bits) for v in (x, y, bits))
    o = out.reshape(n, 3).copy().view(as_bits)
    np.testing.assert_array_equal(o[:, 0], (xb & ~cb) | (yb & cb), err_msg="bitselect")
    np.testing.assert_array_equal(o[:, 1], np.where(choices[0] != 0, yb, xb), err_msg="select, signed c")
    np.testing.assert_array_equal(o[:, 2], np.where(choices[1] != 0, yb, xb), err_msg="select, unsigned c")
