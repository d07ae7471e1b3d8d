"""Vectorizable double-precision expm1, log1p, sinh, cosh and tanh, written in LLVM IR from the double
exp and log kernels of devlib/math/exp_log_double.py (branch-free; see devlib/math/libm.py for why).

* expm1 x = 2^n (1 + p) - 1 = 2^n p + (2^n - 1) with e^x = 2^n (1 + p): for n = 0 that is p itself,
  which the exp kernel gives to 2^-57 relative, so there is no cancellation near 0; 2^n - 1 is exact
  for the n in play (x is clamped to [-40, 712]: below, expm1 rounds to -1); for n > 60 it is
  2^n (1 + p) with the exponent applied in two halves.
* log1p x = ln u + (x - (u - 1))/u with u = 1 + x rounded (the quotient restores what the rounding of
  u lost; fdlibm's correction), ln from the double log kernel.
* sinh |x| = (E + E/(E + 1))/2 with E = expm1 |x| below 22 (no cancellation for small x), and
  2^(n-1) (1 + p) above; cosh |x| = e/2 + 1/(2e) below 22, 2^(n-1) (1 + p) above (so results near the
  overflow threshold stay finite where they should); tanh |x| = E/(E + 2) with E = expm1 2|x| below
  22, 1 above. Odd functions copy the sign of x, so -0 stays -0.
* The inverses through log1p, without cancellation (as the float ones in devlib/math/wide.py):
  asinh |x| = log1p(|x| + x^2/(1 + sqrt(1 + x^2))), acosh x = log1p(t + sqrt(t (x + 1))) with
  t = x - 1, atanh |x| = log1p(2|x|/(1 - |x|))/2; above 2^28 (where x^2 could overflow) asinh and acosh
  are ln|x| + ln 2.
OpenCL 1.2 allows 3 ulp for expm1, 2 for log1p, 4 for sinh, cosh, asinh and acosh, 5 for tanh and
atanh; measured errors are in tests/e2e/test_math_double.py. NaN gives NaN; infinities fall out of the clamps and the log's selects.
"""
from __future__ import annotations

from ...ir import types as ty
from ...ir.instructions import MathFunction as M
from ...llvmtext.module import ModuleText
from ...llvmtext.types import intrinsic_suffix
from .exp_log_double import _ExpLogWriter

SUPPORTED = {M.EXPM1, M.LOG1P, M.SINH, M.COSH, M.TANH, M.ASINH, M.ACOSH, M.ATANH}

_LARGE = 22.0      # beyond, e^-|x| is below half an ulp of e^|x|
_HUGE = 2.0 ** 28  # beyond, asinh |x| and acosh x are ln 2|x| to within half an ulp


def supports(function: M, t: ty.Type) -> bool:
    return function in SUPPORTED and ty.scalar_of(t) == ty.f64


def libm_function(module: ModuleText, function: M, t: ty.Type) -> str:
    name = f"loomcl.{function.value}.{intrinsic_suffix(t)}"
    if name not in module.declarations:
        body = _HyperbolicWriter(module, t)
        result = getattr(body, function.value)("%x")
        body.lines.append(f"  ret {body.F} {body.select(body.fcmp('uno', '%x', '%x'), '%x', result)}")
        module.declare(name, body.text(name))
    return f"@{name}"


class _HyperbolicWriter(_ExpLogWriter):

    def power_of_two(self, n: str) -> str:
        exponent = self.op(f"fptosi {self.F} {n} to {self.I}")
        biased = self.op(f"zext {self.I} {self.op(f'add {self.I} {exponent}, {self.i(1023)}')} to {self.L}")
        return self.op(f"bitcast {self.L} {self.op(f'shl {self.L} {biased}, {self.l(52)}')} to {self.F}")

    def expm1_parts(self, x: str) -> tuple[str, str, str]:
        """(expm1 x, n, p) with e^x = 2^n (1 + p)."""
        n, p = self.exp_parts(M.EXP, x, low=-40.0)
        huge = self.fcmp("ogt", n, self.d(60.0))
        scale = self.power_of_two(self.select(huge, self.d(0.0), n))
        moderate = self.fma(scale, p, self.dop("fsub", scale, self.d(1.0)))
        result = self.select(huge, self.times_power_of_two(self.dop("fadd", p, self.d(1.0)), n), moderate)
        return self.select(self.fcmp("oeq", x, self.d(0.0)), x, result), n, p

    def half_exp(self, n: str, p: str) -> str:
        """e^x / 2 from its parts."""
        return self.times_power_of_two(self.dop("fadd", p, self.d(1.0)), self.dop("fsub", n, self.d(1.0)))

    def expm1(self, x: str) -> str:
        return self.expm1_parts(x)[0]

    def log1p(self, x: str) -> str:
        u = self.dop("fadd", x, self.d(1.0))
        lost = self.dop("fdiv", self.dop("fsub", x, self.dop("fsub", u, self.d(1.0))), u)
        # u = 0 or inf makes the correction 0/0 or inf/inf: there the log alone is right
        result = self.dop("fadd", self.log(M.LOG, u), self.select(self.fcmp("ord", lost, lost), lost, self.d(0.0)))
        return self.select(self.fcmp("oeq", x, self.d(0.0)), x, result)   # keeps -0

    def sinh(self, x: str) -> str:
        ax = self.call("fabs", x)
        e, n, p = self.expm1_parts(ax)
        ratio = self.dop("fdiv", e, self.dop("fadd", e, self.d(1.0)))
        small = self.dop("fmul", self.dop("fadd", e, ratio), self.d(0.5))
        result = self.select(self.fcmp("olt", ax, self.d(_LARGE)), small, self.half_exp(n, p))
        return self.call("copysign", result, x)

    def cosh(self, x: str) -> str:
        ax = self.call("fabs", x)
        n, p = self.exp_parts(M.EXP, ax)
        half = self.half_exp(n, p)
        small = self.dop("fadd", half, self.dop("fdiv", self.d(0.25), half))
        return self.select(self.fcmp("olt", ax, self.d(_LARGE)), small, half)

    def tanh(self, x: str) -> str:
        ax = self.call("fabs", x)
        e = self.expm1_parts(self.dop("fmul", ax, self.d(2.0)))[0]
        small = self.dop("fdiv", e, self.dop("fadd", e, self.d(2.0)))
        return self.call("copysign", self.select(self.fcmp("olt", ax, self.d(_LARGE)), small, self.d(1.0)), x)

    def large_log(self, ax: str) -> str:
        """ln|x| + ln 2, for |x| >= 2^28."""
        return self.dop("fadd", self.log(M.LOG, ax), self.d(0.6931471805599453))

    def asinh(self, x: str) -> str:
        ax = self.call("fabs", x)
        square = self.dop("fmul", ax, ax)
        root = self.call("sqrt", self.dop("fadd", square, self.d(1.0)))
        small = self.log1p(self.dop("fadd", ax, self.dop("fdiv", square, self.dop("fadd", root, self.d(1.0)))))
        result = self.select(self.fcmp("olt", ax, self.d(_HUGE)), small, self.large_log(ax))
        return self.call("copysign", result, x)

    def acosh(self, x: str) -> str:
        t = self.dop("fsub", x, self.d(1.0))
        root = self.call("sqrt", self.dop("fmul", t, self.dop("fadd", x, self.d(1.0))))
        small = self.log1p(self.dop("fadd", t, root))
        result = self.select(self.fcmp("olt", x, self.d(_HUGE)), small, self.large_log(x))
        return self.select(self.fcmp("olt", x, self.d(1.0)), self.d(float("nan")), result)

    def atanh(self, x: str) -> str:
        ax = self.call("fabs", x)   # on |x|, where 1 - |x| is exact near 1 (Sterbenz)
        ratio = self.dop("fdiv", self.dop("fmul", ax, self.d(2.0)), self.dop("fsub", self.d(1.0), ax))
        return self.call("copysign", self.dop("fmul", self.log1p(ratio), self.d(0.5)), x)
