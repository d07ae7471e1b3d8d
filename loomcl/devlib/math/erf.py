"""Vectorizable float erf, written in LLVM IR in float throughout (erfc and double erf are in
devlib/math/erf_double.py). Float lanes keep the full vector width: evaluating the double code and
rounding, as before, halved it and paid a double division per lane.

* |x| < 0.875: erf x = x P(x^2), P of degree 6 (fit relative error 2^-37).
* |x| >= 0.875: erf |x| = 1 - e^(R(a) - a^2) with a = min(|x|, 4), R(a) = ln erfc a + a^2 of degree 8 in
  a - 2.4375 (fit absolute error 2^-30; R is smooth where ln erfc a alone is steep). The exponent is
  rounded once by an fma; its error, at most |R - a^2| 2^-24 relative in erfc, is below half an ulp of
  erf because erfc <= 0.22 here. From 4 on erfc is below 2^-25 and erf rounds to 1.
Polynomials fitted for loomcl by least squares at Chebyshev nodes. erf(+-0) = +-0, erf(+-inf) = +-1,
NaN gives NaN. OpenCL 1.2 allows 16 ulp; measured: under 3 ulp (tests/e2e/test_math_double.py).
"""
from __future__ import annotations

from ...ir import types as ty
from ...ir.instructions import MathFunction as M
from ...llvmtext.module import ModuleText
from ...llvmtext.types import intrinsic_suffix
from .libm import _Writer

SUPPORTED = {M.ERF}

_SMALL = 0.875
_ERF_SMALL = (8.671101096348498e-05, -0.000821010914593634, 0.005206660753233767, -0.026861549792350434,
              0.11283732364318015, -0.3761263602277909, 1.1283791668646372)
_TAIL_END, _TAIL_CENTRE = 4.0, 2.4375
_LN_ERFC_PLUS_SQUARE = (
    1.605432133157199e-06, -1.410911613169974e-05, 8.342988760145309e-05, -0.0004503075738007027,
    0.002301059690803024, -0.0114165779339185, 0.05819413963286498, -0.3598233774483493,
    -1.5345508856574404)


def supports(function: M, t: ty.Type) -> bool:
    return function in SUPPORTED and ty.scalar_of(t) == ty.f32


def libm_function(module: ModuleText, function: M, t: ty.Type) -> str:
    name = f"loomcl.{function.value}.{intrinsic_suffix(t)}"
    if name not in module.declarations:
        body = _Writer(module, t)
        body.lines.append(f"  ret {body.F} {_erf(body, '%x')}")
        module.declare(name, body.text(name))
    return f"@{name}"


def _erf(w: _Writer, x: str) -> str:
    ax = w.call("fabs", x)
    small = w.op(f"fmul {w.F} {x}, {w.horner(w.op(f'fmul {w.F} {x}, {x}'), _ERF_SMALL)}")
    a = w.call("minnum", ax, w.f(_TAIL_END))
    r = w.horner(w.op(f"fsub {w.F} {a}, {w.f(_TAIL_CENTRE)}"), _LN_ERFC_PLUS_SQUARE)
    erfc = w.exp_of(w.call("fma", w.op(f"fneg {w.F} {a}"), a, r))
    big = w.call("copysign", w.op(f"fsub {w.F} {w.f(1.0)}, {erfc}"), x)
    result = w.select(w.fcmp("olt", ax, w.f(_SMALL)), small, big)
    return w.select(w.fcmp("uno", x, x), x, result)
