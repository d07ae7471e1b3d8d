"""Double fmod (and remainder and remquo, built on it) is exact and vectorizes: bit for bit Python's C
library over random bit patterns (exponent distances up to 2^2045, subnormals, NaNs, infinities) and
the special values, with no fmod call left in the work-item loop."""
from __future__ import annotations

import math
import re
from fractions import Fraction

import numpy as np
import pytest

from loomcl.driver import backend
from loomcl.driver import compiler

SOURCE = """
__kernel void f(__global const double *a, __global const double *b, __global double *out) {
    int i = get_global_id(0);
    out[i] = NAME(a[i], b[i]);
}
"""
REMQUO = """
__kernel void f(__global const double *a, __global const double *b, __global double *out, __global int *quo) {
    int i = get_global_id(0);
    out[i] = remquo(a[i], b[i], &quo[i]);
}
"""
SPECIALS = np.array([0, -0.0, np.inf, -np.inf, np.nan, 1, -1, 5e-324, -5e-324, 1.7976931348623157e308,
                     2.2250738585072014e-308, 2.225073858507201e-308, 0.5, 7, -3, 2.0 ** 1000, 3 * 2.0 ** -1070])


def inputs():
    rng = np.random.default_rng(23)
    n = 1 << 14
    random_bits = [rng.integers(0, 2 ** 64, n, dtype=np.uint64).view(np.float64) for _ in range(2)]
    # far apart: |x| near the top of the range, |y| subnormal or tiny
    far_x = rng.uniform(1, 2, n) * 2.0 ** rng.integers(900, 1024, n)
    far_y = rng.integers(1, 2 ** 52, n, dtype=np.int64).view(np.float64) * rng.choice([1, 2.0 ** 60], n)
    gx, gy = (a.ravel() for a in np.meshgrid(SPECIALS, SPECIALS))
    x = np.concatenate([random_bits[0], far_x, rng.uniform(-100, 100, n), gx])
    y = np.concatenate([random_bits[1], far_y, rng.uniform(-10, 10, n), gy])
    return x, y


def same_bits(got, expected):
    return (np.isnan(got) & np.isnan(expected)) | (got.view(np.int64) == expected.view(np.int64))


def _fmod(a, b):
    return math.nan if math.isnan(a) or math.isnan(b) or math.isinf(a) or b == 0 else math.fmod(a, b)


def _remainder(a, b):
    if math.isnan(a) or math.isnan(b) or math.isinf(a) or b == 0:
        return math.nan
    return a if math.isinf(b) else math.remainder(a, b)


def check(got, x, y, reference):
    expected = np.array([reference(float(a), float(b)) for a, b in zip(x, y)])
    bad = ~same_bits(got, expected)
    assert not bad.any(), list(zip(x[bad], y[bad], got[bad], expected[bad]))[:5]


def test_fmod_is_exact(run_kernel):
    x, y = inputs()
    got = run_kernel(SOURCE.replace("NAME", "fmod"), "f", (x.size,), None, x, y, np.zeros_like(x))[2]
    check(got, x, y, _fmod)


def test_remainder_is_exact(run_kernel):
    x, y = inputs()
    got = run_kernel(SOURCE.replace("NAME", "remainder"), "f", (x.size,), None, x, y, np.zeros_like(x))[2]
    check(got, x, y, _remainder)


def test_remquo_is_exact_with_the_quotient_bits(run_kernel):
    x, y = inputs()
    out, quo = run_kernel(REMQUO, "f", (x.size,), None, x, y, np.zeros_like(x), np.zeros(x.size, np.int32))[2:]
    check(out, x, y, _remainder)
    finite = np.isfinite(x) & np.isfinite(y) & (y != 0)
    for a, b, r, q in zip(x[finite], y[finite], out[finite], quo[finite]):
        n = (Fraction(float(a)) - Fraction(float(r))) / Fraction(float(b))      # x - r = n y exactly
        assert n.denominator == 1
        assert abs(int(q)) % 8 == abs(n.numerator) % 8 and (q == 0 or (q < 0) == (n < 0)), (a, b, r, q, n)


@pytest.mark.parametrize("name", ["fmod", "remainder"])
def test_fmod_vectorizes_without_libm_calls(name):
    program = compiler.build(SOURCE.replace("NAME", name))
    text = backend.llvm_ir(program.work_group_ir("f", (256, 1, 1), ids_fit_int=True), program.kernels["f"],
                           program.options)
    assert "x double>" in text
    assert not re.search(r"call .*@fmod\(|= frem ", text)
