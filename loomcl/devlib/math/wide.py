"""Vectorizable single-precision exp10, expm1, log1p, cbrt, hypot and the hyperbolic functions and
their inverses, evaluated in double and rounded to float once (see devlib/math/libm.py for why we write
our own; the double log2 and exp2 kernels are devlib/math/pow.py's, with relative errors of 2^-45 and
2^-34, so each result is within a hair of half an ulp of float). Vectorized they run on
<N x double>.

* exp(w) = 2^(w log2 e) (w log2 e rounds with a relative error 2^-53, |w| < 2^8); exp10 likewise.
* expm1 and sinh: their Taylor series (coefficients 1/k!) below |x| = 1/2, where exp(x) - 1 would
  cancel; exp above. cosh = (e + 1/e)/2; tanh = expm1(2x)/(expm1(2x) + 2).
* log1p(x) = ln(u) + (x - (u - 1))/u with u = 1 + x rounded (the second term restores what the
  rounding of u lost); below 2^-30 it is x. asinh |x| = log1p(|x| + x^2/(1 + sqrt(1 + x^2))),
  acosh x = log1p(t + sqrt(t (x + 1))) with t = x - 1, atanh x = log1p(2x/(1 - x))/2: no
  cancellation anywhere, and float's range squared fits in double.
* cbrt |x| = 2^(log2|x| / 3) with the sign of x; hypot = sqrt(x^2 + y^2) exactly squared in double.
Special values by final selects (C99 Annex F): NaN in, NaN out (hypot(inf, NaN) = inf), zeros keep
their sign in the odd functions, infinities fall out of the arithmetic.
"""
from __future__ import annotations

import math

from ...ir import types as ty
from ...ir.instructions import MathFunction as M
from ...llvmtext.module import ModuleText
from ...llvmtext.types import intrinsic_suffix
from .pow import _PowWriter

SUPPORTED = {M.EXP10, M.EXPM1, M.LOG1P, M.CBRT, M.HYPOT, M.SINH, M.COSH, M.TANH, M.ASINH, M.ACOSH,
             M.ATANH}

_EXPM1_TAYLOR = tuple(1 / math.factorial(k) for k in range(13, 0, -1))   # x P(x) = e^x - 1
_SINH_TAYLOR = tuple(1 / math.factorial(k) for k in range(13, 0, -2))    # in x^2, times x


def supports(function: M, t: ty.Type) -> bool:
    return function in SUPPORTED and ty.scalar_of(t) == ty.f32


def libm_function(module: ModuleText, function: M, t: ty.Type) -> str:
    name = f"loomcl.{function.value}.{intrinsic_suffix(t)}"
    if name not in module.declarations:
        body = _WideWriter(module, t)
        params = ("%x", "%y") if function == M.HYPOT else ("%x",)
        body.finish(getattr(body, function.value)(*(body.widen(p) for p in params)), params)
        module.declare(name, body.text(name, params))
    return f"@{name}"


class _WideWriter(_PowWriter):

    def widen(self, x: str) -> str:
        return self.op(f"fpext {self.F} {x} to {self.D}")

    def finish(self, result: str, params: tuple[str, ...]) -> None:
        """Round the double result to float; NaN operands give NaN (hypot decides itself)."""
        result = self.op(f"fptrunc {self.D} {result} to {self.F}")
        if params == ("%x",):
            result = self.select(self.fcmp("uno", "%x", "%x"), "%x", result)
        self.lines.append(f"  ret {self.F} {result}")

    def dcmp(self, predicate: str, a: str, b: str) -> str:
        return self.fcmp(predicate, a, b, t=self.D)

    def dselect(self, condition: str, a: str, b: str) -> str:
        return self.select(condition, a, b, t=self.D)

    def with_sign_of(self, magnitude: str, x: str) -> str:
        return self.call("copysign", magnitude, x, t=self.D)

    # -- kernels on doubles ------------------------------------------------------------------------------

    def exp_d(self, w: str) -> str:
        return self.exp2(self.dop("fmul", w, self.d(1 / math.log(2))))

    def expm1_d(self, x: str) -> str:
        series = self.dop("fmul", x, self.horner(x, _EXPM1_TAYLOR, t=self.D))
        large = self.dsub(self.exp_d(x), self.d(1.0))
        return self.dselect(self.dcmp("olt", self.call("fabs", x, t=self.D), self.d(0.5)), series, large)

    def dsub(self, a: str, b: str) -> str:
        return self.dop("fsub", a, b)

    def log1p_d(self, x: str) -> str:
        u = self.dop("fadd", x, self.d(1.0))
        ln_u = self.dop("fmul", self.log2_abs(u), self.d(math.log(2)))
        correction = self.dop("fdiv", self.dsub(x, self.dsub(u, self.d(1.0))), u)
        result = self.dop("fadd", ln_u, correction)
        result = self.dselect(self.dcmp("olt", self.call("fabs", x, t=self.D), self.d(2.0 ** -30)), x, result)
        result = self.dselect(self.dcmp("oeq", x, self.d(-1.0)), self.d(-math.inf), result)
        result = self.dselect(self.dcmp("olt", x, self.d(-1.0)), self.d(math.nan), result)
        return self.dselect(self.dcmp("oeq", x, self.d(math.inf)), x, result)

    # -- the functions (named after MathFunction values) --------------------------------------------------

    def exp10(self, x: str) -> str:
        return self.exp2(self.dop("fmul", x, self.d(math.log2(10))))

    def expm1(self, x: str) -> str:
        return self.expm1_d(x)

    def log1p(self, x: str) -> str:
        return self.log1p_d(x)

    def sinh(self, x: str) -> str:
        ax = self.call("fabs", x, t=self.D)
        x2 = self.dop("fmul", x, x)
        series = self.dop("fmul", x, self.horner(x2, _SINH_TAYLOR, t=self.D))
        e = self.exp_d(ax)
        large = self.dop("fmul", self.dsub(e, self.dop("fdiv", self.d(1.0), e)), self.d(0.5))
        return self.dselect(self.dcmp("olt", ax, self.d(0.5)), series, self.with_sign_of(large, x))

    def cosh(self, x: str) -> str:
        e = self.exp_d(self.call("fabs", x, t=self.D))
        return self.dop("fmul", self.dop("fadd", e, self.dop("fdiv", self.d(1.0), e)), self.d(0.5))

    def tanh(self, x: str) -> str:
        clamped = self.call("minnum", self.call("maxnum", x, self.d(-20.0), t=self.D), self.d(20.0), t=self.D)
        m = self.expm1_d(self.dop("fmul", clamped, self.d(2.0)))
        return self.dop("fdiv", m, self.dop("fadd", m, self.d(2.0)))

    def asinh(self, x: str) -> str:
        ax = self.call("fabs", x, t=self.D)
        x2 = self.dop("fmul", x, x)
        root = self.call("sqrt", self.dop("fadd", x2, self.d(1.0)), t=self.D)
        z = self.dop("fadd", ax, self.dop("fdiv", x2, self.dop("fadd", root, self.d(1.0))))
        z = self.dselect(self.dcmp("oeq", ax, self.d(math.inf)), ax, z)
        return self.with_sign_of(self.log1p_d(z), x)

    def acosh(self, x: str) -> str:
        t = self.dsub(x, self.d(1.0))
        root = self.call("sqrt", self.dop("fmul", t, self.dop("fadd", x, self.d(1.0))), t=self.D)
        result = self.log1p_d(self.dop("fadd", t, root))
        return self.dselect(self.dcmp("olt", x, self.d(1.0)), self.d(math.nan), result)

    def atanh(self, x: str) -> str:
        ratio = self.dop("fdiv", self.dop("fmul", x, self.d(2.0)), self.dsub(self.d(1.0), x))
        return self.dop("fmul", self.log1p_d(ratio), self.d(0.5))

    def cbrt(self, x: str) -> str:
        third = self.dop("fmul", self.log2_abs(x), self.d(1 / 3))
        return self.with_sign_of(self.exp2(third), x)

    def hypot(self, x: str, y: str) -> str:
        sum_of_squares = self.fma(x, x, self.dop("fmul", y, y), t=self.D)
        result = self.call("sqrt", sum_of_squares, t=self.D)
        infinite = self.op(f"or {self.B} {self.dcmp('oeq', self.call('fabs', x, t=self.D), self.d(math.inf))}, "
                           f"{self.dcmp('oeq', self.call('fabs', y, t=self.D), self.d(math.inf))}")
        return self.dselect(infinite, self.d(math.inf), result)
