"""Vectorizable single-precision pow, written in LLVM IR (see devlib/math/libm.py for why and how).

pow(x, y) = 2^(y log2|x|): log2|x| and w = y log2|x| in double (|w| up to 151 must be known to about
2^-30 absolute), 2^w from there in float (OpenCL allows 16 ulp; measured: within 2). Vectorized, the
double part runs on <N x double>, the rest on <N x float>.

* log2|x|: x in double is normal even when it is a float subnormal; |x| = 2^e m with m in
  [sqrt(1/2), sqrt 2), t = (m - 1)/(m + 1), ln m = 2 atanh t = 2 (t + t^3 Q(t^2)) with a minimax Q
  (relative error 2^-45 on |t| <= 0.1716), log2|x| = e + 2 log2(e) (t + t^3 Q).
* 2^w: w clamped to [-151, 129] (beyond, a float result is 0 or inf anyway), n = rint(w), f = w - n
  exactly, then in float e^(f ln2) 2^n as libm.py's exp does it (one rounding of f ln2 to float costs
  2^-25 relative), rounded once also into the subnormal range and to inf. The double 2^w of the
  functions computed in double (devlib/math/wide.py) is `exp2`: a degree-7 minimax polynomial (2^-34)
  times 2^n made from exponent bits.
* C99 Annex F / OpenCL special cases by final selects: pow(x, +-0) = 1 and pow(1, y) = 1 even for
  NaN; pow(-1, +-inf) = 1; finite x < 0 with non-integral finite y is NaN; the sign of x survives
  only for odd integral y (so pow(-0, -3) = -inf, pow(-inf, 3) = -inf, pow(-0, 2) = +0);
  |x| = 0 or inf makes log2 -inf or inf, so zeros, infinities and the +-inf exponents fall out of
  the arithmetic; any other NaN operand gives NaN.
"""
from __future__ import annotations

from ...ir import types as ty
from ...ir.instructions import MathFunction
from ...llvmtext.module import ModuleText
from ...llvmtext.types import intrinsic_suffix
from .libm import _Writer

SUPPORTED = {MathFunction.POW}

_LOG_Q = (9.79217577426844e-2, 1.108808759518004e-1, 1.4286054736324122e-1, 1.9999997809474e-1,
          3.3333333337904647e-1)
_EXP2_POLY = (1.5201911517721822e-5, 1.546930441292775e-4, 1.3333922710534706e-3, 9.618027212641628e-3,
              5.5504103531368594e-2, 2.4022651198460193e-1, 6.931471807285826e-1, 9.999999999616522e-1)


def supports(function: MathFunction, t: ty.Type) -> bool:
    return function in SUPPORTED and ty.scalar_of(t) == ty.f32


def libm_function(module: ModuleText, function: MathFunction, t: ty.Type) -> str:
    name = f"loomcl.{function.value}.{intrinsic_suffix(t)}"
    if name not in module.declarations:
        body = _PowWriter(module, t)
        body.pow()
        module.declare(name, body.text(name, ("%x", "%y")))
    return f"@{name}"


class _PowWriter(_Writer):

    def dop(self, opcode: str, a: str, b: str) -> str:
        return self.op(f"{opcode} {self.D} {a}, {b}")

    def log2_abs(self, x: str) -> str:
        """log2|x| in double for a double x that came from a float (-inf at 0, inf at inf)."""
        ax = self.call("fabs", x, t=self.D)
        bits = self.op(f"bitcast {self.D} {ax} to {self.L}")
        biased = self.op(f"trunc {self.L} {self.op(f'lshr {self.L} {bits}, {self.l(52)}')} to {self.I}")
        m_bits = self.op(f"or {self.L} {self.op(f'and {self.L} {bits}, {self.l((1 << 52) - 1)}')}, "
                         f"{self.l(1023 << 52)}")
        m = self.op(f"bitcast {self.L} {m_bits} to {self.D}")
        big = self.fcmp("ogt", m, self.d(1.4142135623730951), t=self.D)
        m = self.select(big, self.dop("fmul", m, self.d(0.5)), m, t=self.D)
        bias = self.op(f"select {self.B} {big}, {self.I} {self.i(-1022)}, {self.I} {self.i(-1023)}")
        exponent = self.op(f"add {self.I} {biased}, {bias}")
        e = self.op(f"sitofp {self.I} {exponent} to {self.D}")
        t = self.dop("fdiv", self.dop("fsub", m, self.d(1.0)), self.dop("fadd", m, self.d(1.0)))
        t2 = self.dop("fmul", t, t)
        u = self.fma(self.dop("fmul", t, t2), self.horner(t2, _LOG_Q, t=self.D), t, t=self.D)  # atanh t
        log2 = self.fma(u, self.d(2.8853900817779268), e, t=self.D)  # 2 log2(e) atanh t + e
        log2 = self.select(self.fcmp("oeq", ax, self.d(0.0), t=self.D), self.d(float("-inf")), log2, t=self.D)
        return self.select(self.fcmp("oeq", ax, self.d(float("inf")), t=self.D), ax, log2, t=self.D)

    def exp2(self, w: str) -> str:
        """2^w in double for finite or infinite w (NaN is the caller's)."""
        w = self.call("minnum", self.call("maxnum", w, self.d(-300.0), t=self.D), self.d(300.0), t=self.D)
        n = self.call("rint", w, t=self.D)
        p = self.horner(self.dop("fsub", w, n), _EXP2_POLY, t=self.D)
        biased = self.op(f"add nsw {self.I} {self.op(f'fptosi {self.D} {n} to {self.I}')}, {self.i(1023)}")
        scale_bits = self.op(f"shl {self.L} {self.op(f'zext {self.I} {biased} to {self.L}')}, {self.l(52)}")
        return self.dop("fmul", p, self.op(f"bitcast {self.L} {scale_bits} to {self.D}"))

    def exp2_to_float(self, w: str) -> str:
        """2^w as a float for a double w (NaN is the caller's): n = rint(w) and f = w - n in double,
        then e^(f ln2) 2^n by the float exp of devlib/math/libm.py, on float lanes."""
        w = self.call("minnum", self.call("maxnum", w, self.d(-151.0), t=self.D), self.d(129.0), t=self.D)
        n = self.call("rint", w, t=self.D)
        r = self.dop("fmul", self.dop("fsub", w, n), self.d(0.6931471805599453))
        return self.exp_reduced(self.op(f"fptrunc {self.D} {r} to {self.F}"),
                                self.op(f"fptrunc {self.D} {n} to {self.F}"))

    def pow(self) -> None:
        xd, yd = (self.op(f"fpext {self.F} {v} to {self.D}") for v in ("%x", "%y"))
        result = self.exp2_to_float(self.dop("fmul", yd, self.log2_abs(xd)))
        self.lines.append(f"  ret {self.F} {self.special_cases(result)}")

    def special_cases(self, result: str) -> str:
        """pow(%x, %y) given `result` = |x|^y for the ordinary cases; constants by `self.f`, so a
        double writer that makes `f` double constants shares it."""
        y_integral = self.fcmp("oeq", self.call("trunc", "%y"), "%y")
        half_y = self.op(f"fmul {self.F} %y, {self.f(0.5)}")
        y_odd = self.op(f"and {self.B} {y_integral}, {self.fcmp('une', self.call('trunc', half_y), half_y)}")
        x_negative = self.fcmp("olt", self.call("copysign", self.f(1.0), "%x"), self.f(0.0))
        negate = self.op(f"and {self.B} {x_negative}, {y_odd}")
        result = self.select(negate, self.op(f"fneg {self.F} {result}"), result)
        finite_negative = self.op(f"and {self.B} {self.fcmp('olt', '%x', self.f(0.0))}, "
                                  f"{self.fcmp('one', '%x', self.f(float('-inf')))}")
        fractional_y = self.op(f"xor {self.B} {y_integral}, {self.splat('i1', 'true')}")
        invalid = self.op(f"and {self.B} {finite_negative}, {fractional_y}")
        result = self.select(invalid, self.f(float("nan")), result)
        result = self.select(self.fcmp("uno", "%x", "%y"), self.op(f"fadd {self.F} %x, %y"), result)
        unit_x = self.fcmp("oeq", self.call("fabs", "%x"), self.f(1.0))
        infinite_y = self.fcmp("oeq", self.call("fabs", "%y"), self.f(float("inf")))
        x_one, y_zero = self.fcmp("oeq", "%x", self.f(1.0)), self.fcmp("oeq", "%y", self.f(0.0))
        one = self.op(f"or {self.B} {self.op(f'and {self.B} {unit_x}, {infinite_y}')}, "
                      f"{self.op(f'or {self.B} {x_one}, {y_zero}')}")
        return self.select(one, self.f(1.0), result)
