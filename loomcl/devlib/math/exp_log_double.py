"""Vectorizable double-precision exp, exp2, exp10, log, log2 and log10, written in LLVM IR (branch-free,
like their float versions in devlib/math/libm.py, whose writer this uses at type double).

* exp family: x = n ln2 + r (resp. n + r/ln2, n log10(2) + r/ln10) with n = rint(x log2 b), the
  constant split so that r comes out as a double-double r + r_lo with |r| <= ln2/2; then
  e^r = 1 + (r + (r^2 P(r) + r_lo)) with a degree-9 P (relative error 2^-57.7), times 2^n in two
  exponent-bit halves so that results near overflow and in the subnormal range round once.
* log family: subnormals scaled by 2^54; x = 2^e (1 + f), 1 + f in [sqrt(1/2), sqrt 2);
  s = f/(2 + f), ln(1 + f) = f - f^2/2 + s (f^2/2 + s^2 T(s^2)) (fdlibm's arrangement, a degree-6 T,
  2^-59.4), kept as a double-double; the result is e c + ln(1 + f) k with (c, k) = (ln 2, 1),
  (1, log2 e), (log10 2, log10 e) in double-double, summed so that e c and the head add exactly.
Coefficients fitted for loomcl by weighted least squares at Chebyshev nodes. Special values (C99
Annex F) by final selects: NaN in, NaN out; exp(+-inf) = inf, 0; log(0) = -inf, log(x < 0) = NaN,
log(inf) = inf. OpenCL 1.2 allows 3 ulp; measured errors are in tests/e2e/test_math_double.py.
"""
from __future__ import annotations

import math

from ...ir import types as ty
from ...ir.instructions import MathFunction as M
from ...llvmtext.module import ModuleText
from ...llvmtext.types import intrinsic_suffix
from .libm import _Writer

SUPPORTED = {M.EXP, M.EXP2, M.EXP10, M.LOG, M.LOG2, M.LOG10}

_EXP_POLY = (2.502464503817165e-08, 2.763112587047299e-07, 2.7557507287621106e-06, 2.4801490345121574e-05,
             0.00019841269597114638, 0.001388888894667982, 0.008333333333451435, 0.04166666666651632,
             0.16666666666666483, 0.5000000000000012)
_LOG_POLY = (0.14797435111060112, 0.15313888042192034, 0.18183571384202746, 0.22222198419192288,
             0.2857142874413889, 0.3999999999940507, 0.6666666666666736)


def _split(value: float, lost: float, keep_bits: int = 32) -> tuple[float, float]:
    """(head, tail): head = value with only `keep_bits` significant bits (so that head times an
    integer of up to 53 - keep_bits bits is exact), tail = the rest, from the exact `value + lost`."""
    exponent = math.frexp(value)[1]
    head = math.ldexp(math.floor(math.ldexp(value, keep_bits - exponent)), exponent - keep_bits)
    return head, (value - head) + lost


# constants as double-doubles (head, tail), the tail the next 53 bits of the exact value; the _STEP
# forms have a 32-bit head, so that n times it is exact in a reduction
_LN2 = (0.6931471805599453, 2.3190468138462996e-17)
_LN2_STEP = _split(*_LN2)
_LOG10_2 = (0.3010299956639812, -2.8037281277851704e-18)
_LOG10_2_STEP = _split(*_LOG10_2)
_LN10 = (2.302585092994046, -2.1707562233822494e-16)
_LOG2E = (1.4426950408889634, 2.0355273740931033e-17)
_LOG10E = (0.4342944819032518, 1.098319650216765e-17)


def supports(function: M, t: ty.Type) -> bool:
    return function in SUPPORTED and ty.scalar_of(t) == ty.f64


def libm_function(module: ModuleText, function: M, t: ty.Type) -> str:
    name = f"loomcl.{function.value}.{intrinsic_suffix(t)}"
    if name not in module.declarations:
        body = _ExpLogWriter(module, t)
        result = body.exp(function, "%x") if function in (M.EXP, M.EXP2, M.EXP10) else body.log(function, "%x")
        body.lines.append(f"  ret {body.F} {result}")
        module.declare(name, body.text(name))
    return f"@{name}"


class _ExpLogWriter(_Writer):

    def dop(self, opcode: str, a: str, b: str) -> str:
        return self.op(f"{opcode} {self.F} {a}, {b}")

    def two_product(self, a: str, b: str) -> tuple[str, str]:
        """a b exactly, as head and tail."""
        head = self.dop("fmul", a, b)
        return head, self.call("fma", a, b, self.op(f"fneg {self.F} {head}"))

    def times_constant(self, a: str, a_lo: str, c: tuple[float, float]) -> tuple[str, str]:
        """(a + a_lo)(c_hi + c_lo) as a double-double (the a_lo c_lo term dropped)."""
        head, tail = self.two_product(a, self.d(c[0]))
        return head, self.fma(a_lo, self.d(c[0]), self.fma(a, self.d(c[1]), tail))

    # -- exp, exp2, exp10 ----------------------------------------------------------------------------

    def exp(self, function: M, x: str) -> str:
        n, p = self.exp_parts(function, x)
        y = self.times_power_of_two(self.dop("fadd", p, self.d(1.0)), n)
        return self.select(self.fcmp("uno", x, x), x, y)

    def exp_parts(self, function: M, x: str, low: float | None = None) -> tuple[str, str]:
        """(n, p) with b^x = 2^n (1 + p) (b = e, 2, 10 by `function`), x clamped to [low, the
        overflow end]; p is e^r - 1 for |r| <= ln2/2 to 2^-57 relative."""
        if function == M.EXP2:
            bottom, high, log2_base = -1080.0, 1030.0, 1.0
        elif function == M.EXP10:
            bottom, high, log2_base = -330.0, 310.0, math.log2(10)
        else:
            bottom, high, log2_base = -750.0, 712.0, 1 / math.log(2)
        x = self.call("minnum", self.call("maxnum", x, self.d(bottom if low is None else low)), self.d(high))
        n = self.call("rint", self.dop("fmul", x, self.d(log2_base)))
        if function == M.EXP2:
            r, r_lo = self.times_constant(self.dop("fsub", x, n), self.d(0.0), _LN2)
        else:
            step = _LN2_STEP if function == M.EXP else _LOG10_2_STEP
            reduced = self.fma(n, self.d(-step[0]), x)            # exact: n has 12 bits, the head 32
            tail = self.dop("fmul", n, self.d(-step[1]))
            r = self.dop("fadd", reduced, tail)
            r_lo = self.dop("fadd", self.dop("fsub", reduced, r), tail)
            if function == M.EXP10:
                r, r_lo = self.times_constant(r, r_lo, _LN10)
        r2 = self.dop("fmul", r, r)
        return n, self.dop("fadd", r, self.fma(r2, self.horner(r, _EXP_POLY, t=self.F), r_lo))

    def times_power_of_two(self, p: str, n: str) -> str:
        """p 2^n for integral n in [-1080, 1030], as p 2^(n/2) 2^(n - n/2): each factor normal."""
        ni = self.op(f"fptosi {self.F} {n} to {self.I}")
        half = self.op(f"ashr {self.I} {ni}, {self.i(1)}")
        rest = self.op(f"sub {self.I} {ni}, {half}")
        for k in (half, rest):
            biased = self.op(f"zext {self.I} {self.op(f'add {self.I} {k}, {self.i(1023)}')} to {self.L}")
            bits = self.op(f"shl {self.L} {biased}, {self.l(52)}")
            p = self.dop("fmul", p, self.op(f"bitcast {self.L} {bits} to {self.F}"))
        return p

    # -- log, log2, log10 ---------------------------------------------------------------------------

    def log(self, function: M, x: str) -> str:
        e, head, tail = self.log_parts(x)
        if function == M.LOG:
            c, (y, y_lo) = _LN2_STEP, (head, tail)
        elif function == M.LOG2:
            c, (y, y_lo) = (1.0, 0.0), self.times_constant(head, tail, _LOG2E)
        else:
            c, (y, y_lo) = _LOG10_2_STEP, self.times_constant(head, tail, _LOG10E)
        a = self.dop("fmul", e, self.d(c[0]))                     # exact: e has 11 bits
        s = self.dop("fadd", a, y)                                # TwoSum(a, y)
        a_part = self.dop("fsub", s, y)
        lost = self.dop("fadd", self.dop("fsub", a, a_part), self.dop("fsub", y, self.dop("fsub", s, a_part)))
        core = self.dop("fadd", s, self.fma(e, self.d(c[1]), self.dop("fadd", lost, y_lo)))
        result = self.select(self.fcmp("oeq", x, self.d(0.0)), self.d(float("-inf")), core)
        result = self.select(self.fcmp("olt", x, self.d(0.0)), self.d(float("nan")), result)
        result = self.select(self.fcmp("oeq", x, self.d(float("inf"))), x, result)
        return self.select(self.fcmp("uno", x, x), x, result)

    def log_parts(self, x: str) -> tuple[str, str, str]:
        """(e, head, tail) with x = 2^e (1 + f) and ln(1 + f) = head + tail, for positive finite x."""
        small = self.fcmp("olt", x, self.d(2.2250738585072014e-308))
        x = self.select(small, self.dop("fmul", x, self.d(2.0 ** 54)), x)
        bits = self.op(f"bitcast {self.F} {x} to {self.L}")
        biased = self.op(f"trunc {self.L} {self.op(f'lshr {self.L} {bits}, {self.l(52)}')} to {self.I}")
        m_bits = self.op(f"or {self.L} {self.op(f'and {self.L} {bits}, {self.l((1 << 52) - 1)}')}, "
                         f"{self.l(1023 << 52)}")
        m = self.op(f"bitcast {self.L} {m_bits} to {self.F}")
        big = self.fcmp("ogt", m, self.d(1.4142135623730951))
        m = self.select(big, self.dop("fmul", m, self.d(0.5)), m)
        bias = self.op(f"select {self.B} {big}, {self.I} {self.i(-1022)}, {self.I} {self.i(-1023)}")
        e = self.op(f"sitofp {self.I} {self.op(f'add {self.I} {biased}, {bias}')} to {self.F}")
        e = self.dop("fsub", e, self.select(small, self.d(54.0), self.d(0.0)))
        f = self.dop("fsub", m, self.d(1.0))                      # exact
        s = self.dop("fdiv", f, self.dop("fadd", f, self.d(2.0)))
        z = self.dop("fmul", s, s)
        half_f2 = self.dop("fmul", self.dop("fmul", f, f), self.d(0.5))
        rest = self.dop("fmul", s, self.fma(z, self.horner(z, _LOG_POLY, t=self.F), half_f2))
        head = self.dop("fsub", f, half_f2)
        tail = self.dop("fadd", self.dop("fsub", self.dop("fsub", f, head), half_f2), rest)
        return e, head, tail
