"""Vectorizable single-precision tgamma and lgamma, evaluated in double and rounded once (branch-free;
see devlib/math/libm.py for why we write our own). Vectorized they run on <N x double>.

* y = x for x >= 1/2, else 1 - x (exact in double) for the reflection below.
* Below 8, y is shifted up: ln Gamma(y) = ln Gamma(y + 8) - ln(y (y + 1) ... (y + 7)); the product is
  formed with factors 1 where no shift is needed, so one formula serves every lane.
* ln Gamma(z), z >= 8: Stirling's series (z - 1/2) ln z - z + ln(2 pi)/2 + 1/(12z) - 1/(360z^3)
  + 1/(1260z^5) - 1/(1680z^7) + 1/(1188z^9), whose first omitted term is below 2^-50 at z = 8.
  ln and exp are the double kernels of devlib/math/exp_log_double.py.
* x < 1/2 by reflection: Gamma(x) = pi / (sin(pi x) Gamma(1 - x)), ln|Gamma(x)| = ln pi
  - ln|sin(pi x)| - ln Gamma(1 - x), with sin(pi x) = (-1)^n sin(pi r), n = rint(x), r = x - n exact,
  |r| <= 1/2, from its Taylor series (to r^17: 2^-43, far below a float ulp).
Special values (C99 Annex F): lgamma(1) = lgamma(2) = +0 exactly, tgamma(+-0) = +-inf, tgamma of a
negative integer or -inf is NaN, tgamma(inf) = inf; lgamma of a non-positive integer or +-inf is inf; NaN gives NaN. Float results
overflow to inf and underflow to +-0 in the final rounding. OpenCL 1.2 allows tgamma 16 ulp and sets no
bound for lgamma; measured in tests/e2e/test_math_library.py.
"""
from __future__ import annotations

import math

from ...ir import types as ty
from ...ir.instructions import MathFunction as M
from ...llvmtext.module import ModuleText
from ...llvmtext.types import intrinsic_suffix, llvm_type
from .hyperbolic_double import _HyperbolicWriter

SUPPORTED = {M.TGAMMA, M.LGAMMA}

_SHIFT = 8
_STIRLING = (1 / 1188, -1 / 1680, 1 / 1260, -1 / 360, 1 / 12)          # in 1/z^2, times 1/z
_SIN_PI = tuple((-1) ** k * math.pi ** (2 * k + 1) / math.factorial(2 * k + 1) for k in range(8, -1, -1))


def supports(function: M, t: ty.Type) -> bool:
    return function in SUPPORTED and ty.scalar_of(t) == ty.f32


def libm_function(module: ModuleText, function: M, t: ty.Type) -> str:
    name = f"loomcl.{function.value}.{intrinsic_suffix(t)}"
    if name not in module.declarations:
        lanes = t.count if isinstance(t, ty.VectorType) else None
        body = _GammaWriter(module, ty.f64 if lanes is None else ty.VectorType(ty.f64, lanes))
        outer = llvm_type(t)
        x = body.op(f"fpext {outer} %x to {body.F}")
        result = body.op(f"fptrunc {body.F} {getattr(body, function.value)(x)} to {outer}")
        module.declare(name, "\n".join([f"define internal {outer} @{name}({outer} %x) #0 {{", "entry:",
                                        *body.lines, f"  ret {outer} {result}", "}", ""]))
    return f"@{name}"


class _GammaWriter(_HyperbolicWriter):

    def neg(self, a: str) -> str:
        return self.op(f"fneg {self.F} {a}")

    def reflected(self, x: str) -> tuple[str, str]:
        """(reflect, y): reflect where x < 1/2, y = 1 - x there, else x."""
        reflect = self.fcmp("olt", x, self.d(0.5))
        return reflect, self.select(reflect, self.dop("fsub", self.d(1.0), x), x)

    def log_gamma_of(self, y: str) -> tuple[str, str]:
        """(ln Gamma(y + shift) by Stirling, the shift's product) for y >= 1/2."""
        shifted = self.fcmp("olt", y, self.d(float(_SHIFT)))
        product = self.d(1.0)
        for k in range(_SHIFT):
            factor = self.select(shifted, self.dop("fadd", y, self.d(float(k))), self.d(1.0))
            product = self.dop("fmul", product, factor)
        z = self.select(shifted, self.dop("fadd", y, self.d(float(_SHIFT))), y)
        inverse = self.dop("fdiv", self.d(1.0), z)
        series = self.dop("fmul", inverse, self.horner(self.dop("fmul", inverse, inverse), _STIRLING, t=self.F))
        main = self.fma(self.dop("fsub", z, self.d(0.5)), self.log(M.LOG, z), self.neg(z))
        return self.dop("fadd", main, self.dop("fadd", series, self.d(0.5 * math.log(2 * math.pi)))), product

    def sin_pi(self, x: str) -> str:
        n = self.call("rint", x)
        r = self.dop("fsub", x, n)
        s = self.dop("fmul", r, self.horner(self.dop("fmul", r, r), _SIN_PI, t=self.F))
        half = self.dop("fmul", n, self.d(0.5))
        odd = self.fcmp("une", self.call("floor", half), half)
        return self.select(odd, self.neg(s), s)

    def non_positive_integer(self, x: str) -> str:
        return self.op(f"and {self.B} {self.fcmp('ole', x, self.d(0.0))}, {self.fcmp('oeq', self.call('floor', x), x)}")

    def tgamma(self, x: str) -> str:
        reflect, y = self.reflected(x)
        log_gamma, product = self.log_gamma_of(y)
        gamma_y = self.dop("fdiv", self.exp(M.EXP, log_gamma), product)
        reflected = self.dop("fdiv", self.d(math.pi), self.dop("fmul", self.sin_pi(x), gamma_y))
        result = self.select(reflect, reflected, gamma_y)
        pole = self.op(f"and {self.B} {self.non_positive_integer(x)}, {self.fcmp('one', x, self.d(0.0))}")
        result = self.select(pole, self.d(float("nan")), result)          # includes -inf
        result = self.select(self.fcmp("oeq", x, self.d(0.0)), self.call("copysign", self.d(float("inf")), x), result)
        result = self.select(self.fcmp("oeq", x, self.d(float("inf"))), x, result)
        return self.select(self.fcmp("uno", x, x), x, result)

    def lgamma(self, x: str) -> str:
        reflect, y = self.reflected(x)
        log_gamma, product = self.log_gamma_of(y)
        lgamma_y = self.dop("fsub", log_gamma, self.log(M.LOG, product))
        log_sin = self.log(M.LOG, self.call("fabs", self.sin_pi(x)))
        reflected = self.dop("fsub", self.dop("fsub", self.d(math.log(math.pi)), log_sin), lgamma_y)
        result = self.select(reflect, reflected, lgamma_y)
        infinite = self.op(f"or {self.B} {self.non_positive_integer(x)}, "
                           f"{self.fcmp('oeq', self.call('fabs', x), self.d(float('inf')))}")
        result = self.select(infinite, self.d(float("inf")), result)
        exact_zero = self.op(f"or {self.B} {self.fcmp('oeq', x, self.d(1.0))}, {self.fcmp('oeq', x, self.d(2.0))}")
        result = self.select(exact_zero, self.d(0.0), result)
        return self.select(self.fcmp("uno", x, x), x, result)
