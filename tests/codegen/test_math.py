"""Math builtins: results against float64 numpy references (in ulps), and vectorization of the
work-item loop around them."""
import re

import numpy as np
import pytest

from loomcl import codegen, ir
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
    launch(codegen.compile_work_group(build_math(function, arity, t)), [*inputs, out], (N,))
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
    (F.SIN, np.sin, 1), (F.COS, np.cos, 1), (F.TAN, np.tan, 1), (F.POW, np.power, 2),
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


@pytest.mark.parametrize("function", [F.EXP, F.LOG, F.LOG2])
def test_own_transcendentals_vectorize_without_libm_calls(function):
    text = codegen.llvm_ir(build_math(function, 1, local=256))
    assert "x float>" in text
    assert not re.search(r"call .*@(expf|logf|log2f|llvm\.(exp|log))", text)
