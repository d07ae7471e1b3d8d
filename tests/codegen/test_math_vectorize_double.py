"""The double-precision math library and float erf, erfc, tgamma, lgamma inline into the work-item loop and vectorize
with it (no scalar libm call left), and their vector-type forms agree with the scalar forms bit for bit.
Accuracy is measured in tests/e2e/test_math_double.py."""
import re

import numpy as np
import pytest

from loomcl import ir
from loomcl.driver import backend
from loomcl.ir import types as ty

from codegen_helpers import launch
from math_kernels import build_math

F = ir.MathFunction
DOUBLE = [F.SIN, F.COS, F.TAN, F.EXP, F.EXP2, F.EXP10, F.LOG, F.LOG2, F.LOG10, F.POW, F.ATAN, F.ATAN2,
          F.ASIN, F.ACOS, F.ERF, F.ERFC, F.EXPM1, F.LOG1P, F.SINH, F.COSH, F.TANH,
          F.ASINH, F.ACOSH, F.ATANH, F.CBRT, F.HYPOT, F.TGAMMA, F.LGAMMA]
LOCAL = 64


@pytest.mark.parametrize("function", DOUBLE)
def test_double_functions_vectorize_without_libm_calls(function):
    text = backend.llvm_ir(build_math(function, function.arity, ty.f64, local=256))
    assert "x double>" in text
    assert not re.search(rf"call .*@({function.value}|llvm\.{function.value}\.)", text)


@pytest.mark.parametrize("function", [F.ERFC, F.TGAMMA, F.LGAMMA])   # float erf is float inside (test_math.py)
def test_float_functions_in_double_vectorize_without_libm_calls(function):
    text = backend.llvm_ir(build_math(function, 1, ty.f32, local=256))
    assert "x double>" in text
    assert not re.search(rf"call .*@{function.value}f\(", text)


def _aligned(a: np.ndarray) -> np.ndarray:
    """A copy on a 64-byte boundary: `<4 x double>` loads assume their natural 32-byte alignment, as
    the runtime's buffers give it and numpy's allocations need not."""
    raw = np.zeros(a.size + 64 // a.itemsize, a.dtype)
    start = (-raw.ctypes.data % 64) // a.itemsize
    view = raw[start:start + a.size]
    view[:] = a
    return view


def _run(function, inputs, t):
    lanes = t.count if isinstance(t, ty.VectorType) else 1
    inputs = [_aligned(a) for a in inputs]
    out = _aligned(np.zeros_like(inputs[0]))
    launch(backend.compile_work_group(build_math(function, len(inputs), t, local=LOCAL)), [*inputs, out],
           (inputs[0].size // lanes,))
    return out


@pytest.mark.parametrize("function", DOUBLE)
def test_double_vector_forms_agree_with_scalar(function):
    rng = np.random.default_rng(5)
    size = 4 * LOCAL * 8
    inputs = [rng.uniform(0.1, 3, size) * rng.choice([-1, 1], size) for _ in range(function.arity)]
    if function in (F.LOG, F.LOG2, F.LOG10, F.POW, F.LOG1P):
        inputs[0] = np.abs(inputs[0])
    if function in (F.ASIN, F.ACOS, F.ATANH):
        inputs[0] = inputs[0] / 3
    if function == F.ACOSH:
        inputs[0] = np.abs(inputs[0]) + 1
    inputs[0][:4] = [1e300, -0.0, 7.0, 0.5]
    v4 = ty.VectorType(ty.f64, 4)
    np.testing.assert_array_equal(_run(function, inputs, v4), _run(function, inputs, ty.f64))


@pytest.mark.parametrize("function", [F.ERF, F.ERFC, F.TGAMMA, F.LGAMMA])
def test_float_vector_forms_agree_with_scalar(function):
    x = np.random.default_rng(6).uniform(-6, 30, 4 * LOCAL * 8).astype(np.float32)
    x[:4] = [0.5, -0.0, 3.0, -2.5]
    np.testing.assert_array_equal(_run(function, [x], ty.VectorType(ty.f32, 4)), _run(function, [x], ty.f32))
