"""Math builtins: results against float64 numpy references (in ulps), and vectorization of the
work-item loop around them."""
import re

import numpy as np
import pytest

from loomcl import ir
from loomcl.driver import backend
from loomcl.ir import types as ty

from codegen_helpers import launch
from math_kernels import build_math

F = ir.MathFunction
N = 1 << 14


def _ulp_error(got, exact):
    """Error in units of the last place of float32 at the exact value."""
    exact32 = exact.astype(np.float32)
    ulp = np.spacing(np.abs(exact32)).astype(np.float64)
    both_inf = np.isinf(got) & np.isinf(exact32) & (np.sign(got) == np.sign(exact32))
    both_nan = np.isnan(got) & np.isnan(exact)
    with np.errstate(invalid="ignore"):
        err = np.abs(got.astype(np.float64) - exact) / ulp
    return np.where(both_inf | both_nan, 0.0, err)


def _run(function, arity, inputs, t=ty.f32):
    out = np.zeros(N, inputs[0].dtype)
    launch(backend.compile_work_group(build_math(function, arity, t)), [*inputs, out], (N,))
    return out


RNG = np.random.default_rng(7)


def _wide_positive():
    exponents = RNG.uniform(-149, 128, N)
    x = np.exp2(exponents).astype(np.float32)
    x[:8] = [0.0, -0.0, np.inf, -1.0, np.nan, 1.0, 2.0, 1e-45]
    return x


EXACT = {
    F.EXP: (np.exp, lambda: RNG.uniform(-110, 95, N).astype(np.float32)),
    F.EXP2: (np.exp2, lambda: RNG.uniform(-155, 130, N).astype(np.float32)),
    F.LOG: (np.log, _wide_positive),
    F.LOG2: (np.log2, _wide_positive),
    F.LOG10: (np.log10, _wide_positive),
}


@pytest.mark.parametrize("function", list(EXACT))
def test_own_transcendentals_within_opencl_ulp_bounds(function):
    reference, make = EXACT[function]
    x = make()
    if function in (F.EXP, F.EXP2):
        x[:6] = [np.inf, -np.inf, np.nan, 0.0, -0.0, 88.72]
    with np.errstate(all="ignore"):
        exact = reference(x.astype(np.float64))
        got = _run(function, 1, [x])
    err = _ulp_error(got, exact)
    assert err.max() <= 3.0, (x[err.argmax()], got[err.argmax()], exact[err.argmax()])


@pytest.mark.parametrize("function, reference, arity", [
    (F.SQRT, np.sqrt, 1), (F.FABS, np.abs, 1), (F.FLOOR, np.floor, 1), (F.CEIL, np.ceil, 1),
    (F.TRUNC, np.trunc, 1), (F.RINT, np.rint, 1), (F.FMIN, np.fmin, 2), (F.FMAX, np.fmax, 2),
    (F.COPYSIGN, np.copysign, 2), (F.FMA, lambda a, b, c: a * b + c, 3)])
def test_intrinsic_math(function, reference, arity):
    inputs = [RNG.uniform(-10, 10, N).astype(np.float32) for _ in range(arity)]
    if function in (F.POW, F.SQRT):
        inputs[0] = np.abs(inputs[0])
    got = _run(function, arity, inputs)
    np.testing.assert_allclose(got, reference(*[a.astype(np.float64) for a in inputs]), rtol=3e-6, atol=1e-6)


def test_round_is_half_away_from_zero():
    x = np.tile(np.array([0.5, 1.5, 2.5, -0.5, -2.5, 2.4], np.float32), N // 6 + 1)[:N]
    np.testing.assert_array_equal(_run(F.ROUND, 1, [x]), np.sign(x) * np.floor(np.abs(x) + 0.5))


@pytest.mark.parametrize("function, reference", [
    (F.SMIN, np.minimum), (F.SMAX, np.maximum), (F.ABS, np.abs),
    (F.UMIN, lambda a, b: np.minimum(a.view(np.uint32), b.view(np.uint32)).view(np.int32))])
def test_integer_math(function, reference):
    arity = 1 if function == F.ABS else 2
    inputs = [RNG.integers(-2**31, 2**31, N).astype(np.int32) for _ in range(arity)]
    np.testing.assert_array_equal(_run(function, arity, inputs, ty.i32), reference(*inputs))


def test_double_precision_math_uses_intrinsics():
    x = RNG.uniform(0.1, 10, N)
    np.testing.assert_allclose(_run(F.LOG, 1, [x], ty.f64), np.log(x), rtol=1e-15)


@pytest.mark.parametrize("function", [F.EXP, F.LOG, F.LOG2, F.SIN, F.COS, F.TAN, F.POW])
def test_own_transcendentals_vectorize_without_libm_calls(function):
    text = backend.llvm_ir(build_math(function, 2 if function == F.POW else 1, local=256))
    assert "x float>" in text
    assert not re.search(r"call .*@(expf|logf|log2f|sinf|cosf|tanf|powf|"
                         r"llvm\.(exp|exp2|log|log2|log10|sin|cos|tan|pow)\.)", text)


# -- sin, cos, tan (devlib/math/trig.py) and pow (devlib/math/pow.py) -----------------------------------------

LOCAL = 64


def _run_any(function, inputs, t=ty.f32):
    """f over arrays of any length (padded to whole work-groups)."""
    lanes = t.count if isinstance(t, ty.VectorType) else 1
    n = inputs[0].size // lanes
    pad = (-n) % LOCAL
    padded = [np.concatenate([a, np.ones(pad * lanes, a.dtype)]) for a in inputs]
    out = np.zeros_like(padded[0])
    kernel = backend.compile_work_group(build_math(function, len(inputs), t, local=LOCAL))
    launch(kernel, [*padded, out], (n + pad,))
    return out[:n * lanes]


def _trig_inputs(rng, n=1 << 16):
    """Small, medium, large and random-bit arguments, floats next to multiples of pi/2 (where the
    reduction cancels most), and the special values: about 300000 points."""
    quadrants = np.arange(1, 20000) * (np.pi / 2)
    near = quadrants.astype(np.float32)
    huge = np.float32([16367173 * 2.0 ** 72, 3.4028235e38, 1e38, 1.0e30, 8.6e24, 2.0 ** 100, 1e6, 1e9])
    bits = rng.integers(0, 2 ** 32, n, dtype=np.uint64).astype(np.uint32).view(np.float32)
    parts = [rng.uniform(-np.pi, np.pi, n), rng.uniform(-1e5, 1e5, n),
             np.exp2(rng.uniform(-30, 128, n)) * rng.choice([-1.0, 1.0], n), bits[np.isfinite(bits)],
             near, np.nextafter(near, np.float32(0)), np.nextafter(near, np.float32(np.inf)), huge, -huge]
    return np.concatenate([np.asarray(p, np.float32) for p in parts])


TRIG = {F.SIN: (np.sin, 4.0), F.COS: (np.cos, 4.0), F.TAN: (np.tan, 4.0)}  # OpenCL 1.2 allows tan 5


@pytest.mark.parametrize("function", list(TRIG))
def test_trig_within_opencl_ulp_bounds_over_the_whole_float_range(function):
    reference, bound = TRIG[function]
    x = _trig_inputs(np.random.default_rng(11))
    got = _run_any(function, [x])
    err = _ulp_error(got, reference(x.astype(np.float64)))
    worst = err.argmax()
    assert err.max() <= bound, (x[worst], got[worst], err.max())


@pytest.mark.parametrize("function", list(TRIG))
def test_trig_special_values(function):
    x = np.float32([0.0, -0.0, 1e-45, -1e-45, 1e-38, -3e-39, 2.0 ** -20, np.inf, -np.inf, np.nan])
    got = _run_any(function, [x])
    assert np.all(np.isnan(got[-3:]))
    if function == F.COS:
        np.testing.assert_array_equal(got[:-3], np.ones(7, np.float32))
    else:  # odd functions: x itself for tiny x, with the sign of zero kept
        np.testing.assert_array_equal(got[:-3].view(np.uint32), x[:-3].view(np.uint32))


@pytest.mark.parametrize("function", list(TRIG) + [F.POW])
def test_own_functions_of_vector_type(function):
    """The `<4 x float>` forms (masked gathers for the 2/pi table) agree with the scalar forms."""
    v4 = ty.VectorType(ty.f32, 4)
    rng = np.random.default_rng(5)
    inputs = [np.concatenate([rng.uniform(-50, 50, 4000), np.exp2(rng.uniform(-20, 127, 4000))]).astype(np.float32)
              for _ in range(2 if function == F.POW else 1)]
    if function == F.POW:
        inputs[0] = np.abs(inputs[0])
        inputs[1] = rng.uniform(-3, 3, inputs[1].size).astype(np.float32)
    np.testing.assert_array_equal(_run_any(function, inputs, v4), _run_any(function, inputs))


def test_pow_within_opencl_ulp_bound():
    rng = np.random.default_rng(13)
    n = 1 << 16
    x = np.concatenate([rng.uniform(0, 10, n), np.exp2(rng.uniform(-149, 128, n)), 1 + rng.uniform(-1e-3, 1e-3, n),
                        -rng.uniform(0, 10, n), rng.uniform(-3, 3, n)]).astype(np.float32)
    y = np.concatenate([rng.uniform(-10, 10, n), rng.uniform(-1, 1, n), rng.uniform(-1e5, 1e5, n),
                        rng.integers(-40, 40, n), rng.integers(-200, 200, n)]).astype(np.float32)
    got = _run_any(F.POW, [x, y])
    with np.errstate(all="ignore"):
        exact = np.power(x.astype(np.float64), y.astype(np.float64))
        overflow = np.abs(exact) > np.finfo(np.float32).max
        err = np.where(overflow, np.where(np.isinf(got), 0.0, np.inf), _ulp_error(got, exact))
    worst = err.argmax()
    assert err.max() <= 16.0, (x[worst], y[worst], got[worst], exact[worst])
    assert err.max() <= 1.0  # measured: 0.5 ulp and a hair (one rounding of a double result)


def test_pow_special_cases_follow_c99():
    """Every pair of special operands, bit for bit (signed zeros included) against numpy's C pow."""
    xs = np.float32([0.0, -0.0, 1, -1, 0.5, -0.5, 2, -2, np.inf, -np.inf, np.nan, 1e-45, -1e-45, 3.4e38, -3.4e38])
    ys = np.float32([0.0, -0.0, 1, -1, 2, -2, 3, -3, 0.5, -0.5, np.inf, -np.inf, np.nan, 1e-45, 1e30, -1e30,
                     25, -25, 16777216, 16777217, 127, -149])
    gx, gy = (a.ravel() for a in np.meshgrid(xs, ys))
    got = _run_any(F.POW, [gx, gy])
    with np.errstate(all="ignore"):
        exact = np.power(gx.astype(np.float64), gy.astype(np.float64)).astype(np.float32)
    same = (np.isnan(got) & np.isnan(exact)) | (got.view(np.uint32) == exact.view(np.uint32))
    assert same.all(), list(zip(gx[~same], gy[~same], got[~same], exact[~same]))


def test_two_over_pi_table():
    mpmath = pytest.importorskip("mpmath")
    from loomcl.devlib.math.trig import two_over_pi_windows
    mpmath.mp.prec = 400
    two_over_pi = int(mpmath.floor(2 / mpmath.pi * mpmath.mpf(2) ** 300))
    windows = two_over_pi_windows()
    for e in (0, 56, 57, 127, 151, 200, 254, 255):
        last = e - 151 + 95
        expected = (two_over_pi >> (300 - last)) & ((1 << 96) - 1) if last >= 0 else 0
        assert windows[e] == (expected >> 64, (expected >> 32) & 0xFFFFFFFF, expected & 0xFFFFFFFF), e


WIDE = [F.EXP10, F.EXPM1, F.LOG1P, F.CBRT, F.HYPOT, F.SINH, F.COSH, F.TANH, F.ASINH, F.ACOSH, F.ATANH, F.ATAN,
        F.ASIN, F.ACOS]
IN_FLOAT = [F.ERF, F.ATAN2]   # devlib/math/erf.py, atan2.py: float lanes only, the full vector width


@pytest.mark.parametrize("function", IN_FLOAT)
def test_float_functions_evaluated_in_float_keep_float_lanes(function):
    text = backend.llvm_ir(build_math(function, function.arity, local=256))
    assert "x float>" in text and "double" not in text
    assert not re.search(rf"call .*@{function.value}f?\(", text)


@pytest.mark.parametrize("function", WIDE)
def test_float_functions_evaluated_in_double_vectorize_without_libm_calls(function):
    text = backend.llvm_ir(build_math(function, function.arity, local=256))
    assert "x double>" in text
    assert not re.search(rf"call .*@{function.value}f?\(", text)


@pytest.mark.parametrize("function", WIDE + IN_FLOAT)
def test_float_functions_of_vector_type_agree_with_scalar(function):
    """The `<4 x float>` forms agree with the scalar forms bit for bit."""
    v4 = ty.VectorType(ty.f32, 4)
    rng = np.random.default_rng(12)
    inputs = [rng.uniform(0.5, 4, 4000).astype(np.float32) * np.float32(rng.choice([-1, 1], 4000))
              for _ in range(function.arity)]
    if function == F.ACOSH:
        inputs[0] = np.abs(inputs[0]) + np.float32(1)
    if function in (F.ASIN, F.ACOS):
        inputs[0] = inputs[0] / np.float32(4)
    np.testing.assert_array_equal(_run_any(function, inputs, v4), _run_any(function, inputs))
