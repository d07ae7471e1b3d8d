"""Vectorizable double-precision tgamma and lgamma, written in LLVM IR (branch-free; see devlib/math/libm.py
for why we write our own). ln Gamma is carried as a double-double (head + tail), since tgamma is
e^(ln Gamma) and an absolute error in an exponent of up to 709 is a relative error of the result.

* x >= -1/2 directly, below by reflection on y = -x (exact): Gamma(x) = -pi / (x sin(pi x) Gamma(y)),
  ln|Gamma(x)| = ln pi - ln|x sin(pi x)| - ln Gamma(y).
* Below 12, y is shifted up: Gamma(y) = Gamma(y + 12) / (y (y + 1) ... (y + 11)); each factor y + k is
  exact as a double-double (two_sum), and so is their product up to 2^-100 or so; factors are 1 where
  no shift is needed, so one formula serves every lane.
* ln Gamma(z), z >= 11.5: Stirling's series (z - 1/2) ln z - z + ln(2 pi)/2 + sum B_2k / (2k (2k - 1)
  z^(2k - 1)), k = 1..8 (the first omitted term is below 2^-62 at z = 11.5); ln z in double-double is
  devlib/math/pow_double.py's log, e^ its double-double exp.
* lgamma within 1/8 of 1 and 2, where it is near 0: its Taylor series there (relative accuracy).
* sin(pi x) = (-1)^n sin(pi r), n = rint(x), r = x - n exact, |r| <= 1/2, by its Taylor series to
  r^25 (2^-66).
* Near overflow the exponent is taken 512 ln 2 lower and 2^512 put back after the division, so
  tgamma(x) for x in (-184, -171.6) comes out subnormal rather than as 0 from pi / inf.
Special values (C99 Annex F): lgamma(1) = lgamma(2) = +0, tgamma(+-0) = +-inf, tgamma of a negative
integer or -inf is NaN, tgamma(inf) = inf; lgamma of a non-positive integer or +-inf is inf; NaN gives
NaN. OpenCL 1.2 allows tgamma 16 ulp and sets no bound for lgamma; measured errors are in
tests/e2e/test_math_double.py.
"""
from __future__ import annotations

import math

from ...ir import types as ty
from ...ir.instructions import MathFunction as M
from ...llvmtext.module import ModuleText
from ...llvmtext.types import intrinsic_suffix
from .pow_double import _DoublePowWriter

SUPPORTED = {M.TGAMMA, M.LGAMMA}

_SHIFT = 12
_STIRLING = (-0.029550653594771242, 0.00641025641025641, -0.0019175269175269176, 0.0008417508417508417,
             -0.0005952380952380953, 0.0007936507936507937, -0.002777777777777778, 0.08333333333333333)
_HALF_LN_2PI = (0.9189385332046728, -3.8782941580672414e-17)
_LN_PI = (1.1447298858494002, 1.0265951162707826e-17)
_SCALED_FROM = 150.0                                       # y above this: the exponent less 512 ln 2
_LN2_512 = (354.891356446692, 1.1873519686893054e-14)
# lgamma(1 + t) = t P(t) and lgamma(2 + t) = t Q(t) for |t| < 1/8: coefficients (-1)^k zeta(k)/k and
# (-1)^k (zeta(k) - 1)/k (k >= 2; -gamma and 1 - gamma first), to t^20 (2^-60 relative)
_NEAR_ONE = (0.05000004769810169, -0.05263167937961666, 0.055555767627403614, -0.058823978658684585,
             0.06250095514121304, -0.06666870588242046, 0.07143294629536133, -0.0769325164113522,
             0.083353840546109, -0.09095401714582904, 0.1000994575127818, -0.11133426586956469,
             0.12550966952474304, -0.1440498967688461, 0.1695571769974082, -0.20738555102867398,
             0.27058080842778454, -0.40068563438653143, 0.8224670334241132, -0.5772156649015329)
_NEAR_TWO = (4.7698101693639804e-08, -1.0043224823968099e-07, 2.1207184805554665e-07, -4.492469198764566e-07,
             9.55141213040742e-07, -2.039215753801366e-06, 4.374866789907488e-06, -9.439488275268397e-06,
             2.050721277567069e-05, -4.492623673813314e-05, 9.945751278180853e-05, -0.00022315475845357939,
             0.0005096695247430425, -0.001192753911703261, 0.0028905103307415234, -0.007385551028673986,
             0.020580808427784546, -0.0673523010531981, 0.3224670334241132, 0.42278433509846713)
_NEAR = 0.125
_SIN_PI = tuple((-1) ** k * math.pi ** (2 * k + 1) / math.factorial(2 * k + 1) for k in range(12, -1, -1))


def supports(function: M, t: ty.Type) -> bool:
    return function in SUPPORTED and ty.scalar_of(t) == ty.f64


def libm_function(module: ModuleText, function: M, t: ty.Type) -> str:
    name = f"loomcl.{function.value}.{intrinsic_suffix(t)}"
    if name not in module.declarations:
        body = _GammaDoubleWriter(module, t)
        body.lines.append(f"  ret {body.F} {getattr(body, function.value)('%x')}")
        module.declare(name, body.text(name))
    return f"@{name}"


class _GammaDoubleWriter(_DoublePowWriter):

    def dd_const(self, pair: tuple[float, float]) -> tuple[str, str]:
        return self.d(pair[0]), self.d(pair[1])

    def mul_dd(self, a: tuple[str, str], b: tuple[str, str]) -> tuple[str, str]:
        head = self.dop("fmul", a[0], b[0])
        tail = self.call("fma", a[0], b[0], self.neg(head))
        tail = self.dop("fadd", tail, self.fma(a[0], b[1], self.dop("fmul", a[1], b[0])))
        return self.fast_two_sum(head, tail)

    def add_dd(self, a: tuple[str, str], b: tuple[str, str]) -> tuple[str, str]:
        head, lost = self.two_sum(a[0], b[0])
        return self.fast_two_sum(head, self.dop("fadd", lost, self.dop("fadd", a[1], b[1])))

    def neg_dd(self, a: tuple[str, str]) -> tuple[str, str]:
        return self.neg(a[0]), self.neg(a[1])

    def shifted(self, y: str) -> tuple[tuple[str, str], tuple[str, str]]:
        """(z, product) as double-doubles: z = y + 12 and the product of y + k, k < 12, below 12;
        z = y and product 1 above."""
        shift = self.fcmp("olt", y, self.d(float(_SHIFT)))
        one = (self.d(1.0), self.d(0.0))
        product = one
        for k in range(_SHIFT):
            factor = self.two_sum(y, self.d(float(k))) if k else (y, self.d(0.0))
            product = self.mul_dd(product, tuple(self.select(shift, f, o) for f, o in zip(factor, one)))
        z = self.two_sum(y, self.d(float(_SHIFT)))
        return tuple(self.select(shift, s, u) for s, u in zip(z, (y, self.d(0.0)))), product

    def log_dd(self, a: tuple[str, str]) -> tuple[str, str]:
        head, tail = self.log_abs(a[0])
        return self.fast_two_sum(head, self.dop("fadd", tail, self.dop("fdiv", a[1], a[0])))

    def stirling(self, z: tuple[str, str]) -> tuple[str, str]:
        """ln Gamma(z) for z >= 11.5."""
        inverse = self.dop("fdiv", self.d(1.0), z[0])
        series = self.dop("fmul", inverse, self.horner(self.dop("fmul", inverse, inverse), _STIRLING, t=self.F))
        main = self.mul_dd((self.dop("fsub", z[0], self.d(0.5)), z[1]), self.log_dd(z))
        main = self.add_dd(self.add_dd(main, self.neg_dd(z)), self.dd_const(_HALF_LN_2PI))
        return self.fast_two_sum(main[0], self.dop("fadd", main[1], series))

    def sin_pi(self, x: str) -> str:
        n = self.call("rint", x)
        r = self.dop("fsub", x, n)
        s = self.dop("fmul", r, self.horner(self.dop("fmul", r, r), _SIN_PI, t=self.F))
        half = self.dop("fmul", n, self.d(0.5))
        return self.select(self.fcmp("une", self.call("floor", half), half), self.neg(s), s)

    def parts(self, x: str) -> tuple[str, str, tuple[str, str], tuple[str, str]]:
        """(reflect, y, ln Gamma(z), product): y = -x where x < -1/2, else x; Gamma(y) = Gamma(z)/product."""
        reflect = self.fcmp("olt", x, self.d(-0.5))
        y = self.select(reflect, self.neg(x), x)
        z, product = self.shifted(y)
        return reflect, y, self.stirling(z), product

    def non_positive_integer(self, x: str) -> str:
        return self.op(f"and {self.B} {self.fcmp('ole', x, self.d(0.0))}, {self.fcmp('oeq', self.call('floor', x), x)}")

    def tgamma(self, x: str) -> str:
        reflect, y, log_gamma, product = self.parts(x)
        scaled = self.fcmp("ogt", y, self.d(_SCALED_FROM))
        offset = tuple(self.select(scaled, self.neg(c), self.d(0.0)) for c in self.dd_const(_LN2_512))
        lowered = self.add_dd(log_gamma, offset)
        e = self.exp_double_double(*lowered)
        quotient = self.dop("fdiv", e, product[0])
        gamma_y = self.fma(self.neg(quotient), self.dop("fdiv", product[1], product[0]), quotient)  # / (1 + tail/head)
        gamma_y = self.select(self.fcmp("oeq", self.call("fabs", quotient), self.d(math.inf)), quotient, gamma_y)
        direct = self.dop("fmul", gamma_y, self.select(scaled, self.d(2.0 ** 512), self.d(1.0)))
        reflected = self.dop("fdiv", self.d(-math.pi), self.dop("fmul", self.dop("fmul", x, self.sin_pi(x)), gamma_y))
        reflected = self.dop("fmul", reflected, self.select(scaled, self.d(2.0 ** -512), self.d(1.0)))
        result = self.select(reflect, reflected, direct)
        pole = self.op(f"and {self.B} {self.non_positive_integer(x)}, {self.fcmp('one', x, self.d(0.0))}")
        result = self.select(pole, self.d(math.nan), result)                     # includes -inf
        result = self.select(self.fcmp("oeq", x, self.d(0.0)), self.call("copysign", self.d(math.inf), x), result)
        result = self.select(self.fcmp("oeq", x, self.d(math.inf)), x, result)
        return self.select(self.fcmp("uno", x, x), x, result)

    def lgamma(self, x: str) -> str:
        reflect, y, log_gamma, product = self.parts(x)
        lgamma_y = self.add_dd(log_gamma, self.neg_dd(self.log_dd(product)))
        log_sin = self.log_abs(self.dop("fmul", x, self.sin_pi(x)))
        reflected = self.add_dd(self.add_dd(self.dd_const(_LN_PI), self.neg_dd(log_sin)), self.neg_dd(lgamma_y))
        result = self.select(reflect, self.dop("fadd", *reflected), self.dop("fadd", *lgamma_y))
        for centre, series in ((1.0, _NEAR_ONE), (2.0, _NEAR_TWO)):                 # where lgamma is near 0
            t = self.dop("fsub", x, self.d(centre))                                  # exact
            near = self.fcmp("olt", self.call("fabs", t), self.d(_NEAR))
            result = self.select(near, self.dop("fmul", t, self.horner(t, series, t=self.F)), result)
        infinite = self.op(f"or {self.B} {self.non_positive_integer(x)}, "
                           f"{self.fcmp('oeq', self.call('fabs', x), self.d(math.inf))}")
        result = self.select(infinite, self.d(math.inf), result)
        exact_zero = self.op(f"or {self.B} {self.fcmp('oeq', x, self.d(1.0))}, {self.fcmp('oeq', x, self.d(2.0))}")
        result = self.select(exact_zero, self.d(0.0), result)
        return self.select(self.fcmp("uno", x, x), x, result)

