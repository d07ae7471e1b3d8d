"""The integer functions (OpenCL C 1.2 sec. 6.12.3) for every scalar integer type, end to end,
against exact Python-integer references over random inputs and every pair of edge values
(minimum, -1, 0, 1, maximum and their neighbours; shift counts beyond the width for rotate;
overflowing sums and products for the _sat forms)."""
from __future__ import annotations

import numpy as np
import pytest

TYPES = {  # OpenCL name -> (numpy dtype, unsigned OpenCL name)
    "char": (np.int8, "uchar"), "uchar": (np.uint8, "uchar"),
    "short": (np.int16, "ushort"), "ushort": (np.uint16, "ushort"),
    "int": (np.int32, "uint"), "uint": (np.uint32, "uint"),
    "long": (np.int64, "ulong"), "ulong": (np.uint64, "ulong"),
}
WIDER = {"char": "short", "uchar": "ushort", "short": "int", "ushort": "uint", "int": "long",
         "uint": "ulong"}

INTEGER = """
__kernel void integer_functions(__global const T *x, __global const T *y, __global const T *z,
                                __global T *out, __global U *uout) {
    int i = get_global_id(0);
    T a = x[i], b = y[i], c = z[i];
    __global T *o = out + 11 * i;
    o[0] = add_sat(a, b);
    o[1] = sub_sat(a, b);
    o[2] = hadd(a, b);
    o[3] = rhadd(a, b);
    o[4] = clz(a);
    o[5] = ctz(a);
    o[6] = popcount(a);
    o[7] = rotate(a, b);
    o[8] = mul_hi(a, b);
    o[9] = mad_hi(a, b, c);
    o[10] = mad_sat(a, b, c);
    uout[2 * i] = abs(a);
    uout[2 * i + 1] = abs_diff(a, b);
}
"""

UPSAMPLE = """
__kernel void upsample_kernel(__global const T *hi, __global const U *lo, __global W *out) {
    int i = get_global_id(0);
    out[i] = upsample(hi[i], lo[i]);
}
"""

INT24 = """
__kernel void int24(__global const T *x, __global const T *y, __global const T *z, __global T *out) {
    int i = get_global_id(0);
    out[2 * i] = mul24(x[i], y[i]);
    out[2 * i + 1] = mad24(x[i], y[i], z[i]);
}
"""


def limits(dtype):
    info = np.iinfo(dtype)
    return int(info.min), int(info.max), info.bits


def edge_values(dtype):
    low, high, _ = limits(dtype)
    return sorted({low, low + 1, -1 if low else 2, 0, 1, 7, high - 1, high})


def inputs(dtype, rng, count=1024):
    """x, y, z: all pairs of edge values (z cycling through them), then random values."""
    edges = np.array(edge_values(dtype), dtype=object)
    pairs = np.array([(a, b) for a in edges for b in edges], dtype=object)
    low, high, _ = limits(dtype)
    fill = count - len(pairs)
    x = np.concatenate([pairs[:, 0], rng.integers(low, high, fill, endpoint=True, dtype=dtype)])
    y = np.concatenate([pairs[:, 1], rng.integers(low, high, fill, endpoint=True, dtype=dtype)])
    z = np.resize(edges, count)
    z[len(pairs):] = rng.integers(low, high, fill, endpoint=True, dtype=dtype)
    return [v.astype(dtype) for v in (x, y, z)]


def saturate(v, dtype):
    low, high, _ = limits(dtype)
    return min(max(v, low), high)


def wrap(v, dtype):
    low, _, bits = limits(dtype)
    return (v - low) % (1 << bits) + low


def count_leading_zeros(v, bits):
    return bits - (v % (1 << bits)).bit_length()


def count_trailing_zeros(v, bits):
    u = v % (1 << bits)
    return bits if u == 0 else (u & -u).bit_length() - 1


def rotate_left(v, n, bits):
    u, n = v % (1 << bits), n % bits
    return ((u << n) | (u >> (bits - n))) % (1 << bits)


def reference(a, b, c, dtype):
    """The 11 T results and the 2 unsigned results of the kernel for one input triple."""
    _, _, bits = limits(dtype)
    high_product = (a * b) >> bits
    results = [saturate(a + b, dtype), saturate(a - b, dtype), (a + b) >> 1, (a + b + 1) >> 1,
               count_leading_zeros(a, bits), count_trailing_zeros(a, bits),
               bin(a % (1 << bits)).count("1"), rotate_left(a, b, bits), high_product,
               high_product + c, saturate(a * b + c, dtype)]
    return [wrap(r, dtype) for r in results], [abs(a), abs(a - b)]


@pytest.mark.parametrize("type_name", list(TYPES))
def test_integer_functions(run_kernel, rng, type_name):
    dtype, unsigned = TYPES[type_name]
    x, y, z = inputs(dtype, rng)
    n = x.size
    out, uout = run_kernel(INTEGER, "integer_functions", (n,), (64,), x, y, z,
                           np.zeros(11 * n, dtype), np.zeros(2 * n, TYPES[unsigned][0]),
                           options=f"-D T={type_name} -D U={unsigned}")[3:]
    names = ["add_sat", "sub_sat", "hadd", "rhadd", "clz", "ctz", "popcount", "rotate", "mul_hi",
             "mad_hi", "mad_sat", "abs", "abs_diff"]
    got = np.concatenate([out.reshape(n, 11).astype(object), uout.reshape(n, 2).astype(object)],
                         axis=1)
    for k, (a, b, c) in enumerate(zip(*(v.astype(object) for v in (x, y, z)))):
        signed_results, unsigned_results = reference(int(a), int(b), int(c), dtype)
        expected = signed_results + unsigned_results
        for name, g, e in zip(names, got[k], expected):
            assert g == e, f"{name}({a}, {b}, {c}) = {g}, expected {e} ({type_name})"


@pytest.mark.parametrize("type_name", list(WIDER))
def test_upsample(run_kernel, rng, type_name):
    dtype, unsigned = TYPES[type_name]
    wide = WIDER[type_name]
    hi, lo, _ = inputs(dtype, rng, 256)
    lo = lo.astype(TYPES[unsigned][0])
    (out,) = run_kernel(UPSAMPLE, "upsample_kernel", (256,), (64,), hi, lo,
                        np.zeros(256, TYPES[wide][0]),
                        options=f"-D T={type_name} -D U={unsigned} -D W={wide}")[2:]
    bits = limits(dtype)[2]
    expected = [(int(h) << bits) | int(low) for h, low in zip(hi, lo)]
    assert out.astype(object).tolist() == expected


@pytest.mark.parametrize("type_name", ["int", "uint"])
def test_mul24_and_mad24_within_24_bits(run_kernel, rng, type_name):
    dtype = TYPES[type_name][0]
    low = -(1 << 23) if type_name == "int" else 0
    x, y = (rng.integers(low, 1 << 23, 512).astype(dtype) for _ in range(2))
    x[:4], y[:4] = [low, (1 << 23) - 1, 0, 1], [(1 << 23) - 1, (1 << 23) - 1, 5, low]
    z = rng.integers(low, 1 << 23, 512).astype(dtype)
    (out,) = run_kernel(INT24, "int24", (512,), (64,), x, y, z, np.zeros(1024, dtype),
                        options=f"-D T={type_name}")[3:]
    product = x.astype(np.int64) * y.astype(np.int64)
    np.testing.assert_array_equal(out[0::2], product.astype(dtype))
    np.testing.assert_array_equal(out[1::2], (product + z).astype(dtype))
