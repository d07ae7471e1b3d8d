"""The OpenCL 1.2 math library (OpenCL C 1.2 sec. 6.12.2) beyond one-to-one `MathCall`s: functions
composed here from IR arithmetic, bit operations, selects and the `MathCall`s that code generation
implements (so they inline and vectorize like their parts), and the functions that write through a
pointer argument.

Every helper works on scalar or vector operands of float or double alike (constants are splats, the
integer type of the bits follows the operand's shape), so a vector overload is only a new row.

* Exact functions (frexp, ldexp, ilogb, logb, nextafter, fract, modf, fdim, maxmag, minmag, nan) work
  on the representation: `_Bits.decompose` normalizes subnormals by one exact scaling. ldexp builds
  the result's exponent field directly and rounds at most once (a subnormal result is made as a
  normal number times 2^-(p+1), one rounding multiplication), so it is exact where C requires.
* fmod is `frem` (exact; code generation open-codes it, devlib/math/fmod.py and
  devlib/math/fmod_double.py). remainder and remquo derive from two exact fmods:
  a = fmod(|x|, |y|) and b = fmod(|x|, 8|y|); b - a is q|y| with q in 0..7 the low bits of the
  truncated quotient (recovered by rounding (b - a)/|y|, whose error is far below 1/2), and
  rounding to nearest (ties to even q) turns (a, q) into the remainder and the quotient's low bits.
* sinpi, cospi, tanpi reduce exactly: n = rint(2x), r = x - n/2 in [-1/4, 1/4] (exact), then
  sin/cos/tan of pi r picked and signed by n mod 4. |x| >= 2^(p+1) is an even integer, handled
  as 0 (keeping the sign) so that n fits in an int.
* asinpi, acospi, atanpi, atan2pi multiply by 1/pi (each step correctly rounded: within 2 ulp, the
  bounds are 4 ulp for float and 5 for double). rsqrt is 1/sqrt (two roundings).
* pown and rootn: pow of |x| with the sign taken from the integer n's parity; rootn refines
  pow(|x|, 1/n), whose 1/n rounding error is magnified by |ln x|, with one Newton step
  y + y (|x|/y^n - 1)/n.
"""
from __future__ import annotations

import math

from ..frontend import ast as A
from ..frontend.builtins import Builtin
from ..ir import instructions as ins
from ..ir import types as ty
from ..ir.builder import Builder
from ..ir.values import Value
from .casts import round_float, splat
from .types import value_type

M = ins.MathFunction
Op = ins.BinaryOpcode
P = ins.Predicate
C = ins.CastOpcode

# builtins that are one MathCall of the same arguments
MATH_FUNCTIONS = {
    Builtin.EXP2: M.EXP2, Builtin.LOG2: M.LOG2, Builtin.LOG10: M.LOG10, Builtin.TAN: M.TAN,
    Builtin.COPYSIGN: M.COPYSIGN, Builtin.TRUNC: M.TRUNC, Builtin.ROUND: M.ROUND, Builtin.RINT: M.RINT,
    Builtin.EXP10: M.EXP10, Builtin.EXPM1: M.EXPM1, Builtin.LOG1P: M.LOG1P,
    Builtin.HYPOT: M.HYPOT, Builtin.SINH: M.SINH, Builtin.COSH: M.COSH, Builtin.TANH: M.TANH,
    Builtin.ASINH: M.ASINH, Builtin.ACOSH: M.ACOSH, Builtin.ATANH: M.ATANH, Builtin.ASIN: M.ASIN,
    Builtin.ACOS: M.ACOS, Builtin.ATAN: M.ATAN, Builtin.ATAN2: M.ATAN2, Builtin.ERF: M.ERF,
    Builtin.ERFC: M.ERFC, Builtin.TGAMMA: M.TGAMMA, Builtin.LGAMMA: M.LGAMMA,
}

# builtins that are a MathCall times a constant
_SCALED = {
    Builtin.ASINPI: (M.ASIN, 1 / math.pi), Builtin.ACOSPI: (M.ACOS, 1 / math.pi),
    Builtin.ATANPI: (M.ATAN, 1 / math.pi), Builtin.ATAN2PI: (M.ATAN2, 1 / math.pi),
}


class _Bits:
    """IR composition on one floating-point type `t` (scalar or vector) and its bits."""

    def __init__(self, b: Builder, t: ty.Type) -> None:
        self.b, self.t = b, t
        scalar = ty.scalar_of(t)
        self.width = scalar.bits
        self.precision = {32: 23, 64: 52}[scalar.bits]      # stored mantissa bits
        self.bias = {32: 127, 64: 1023}[scalar.bits]
        self.max_field = 2 * self.bias + 1                  # exponent field of inf and NaN
        self.int = self.shaped(ty.IntType(scalar.bits))
        self.i32 = self.shaped(ty.i32)

    def shaped(self, scalar: ty.Type) -> ty.Type:
        return ty.VectorType(scalar, self.t.count) if isinstance(self.t, ty.VectorType) else scalar

    # -- building blocks ------------------------------------------------------------------------------

    def c(self, value: float) -> Value:
        return splat(self.t, value)

    def op(self, opcode: Op, a: Value, b: Value | float | int) -> Value:
        if not isinstance(b, Value):
            b = splat(a.type, b)
        return self.b.binary(opcode, a, b)

    def cmp(self, predicate: P, a: Value, b: Value | float | int) -> Value:
        if not isinstance(b, Value):
            b = splat(a.type, b)
        return self.b.compare(predicate, a, b)

    def select(self, condition: Value, a: Value | float | int, b: Value | float | int) -> Value:
        t = a.type if isinstance(a, Value) else b.type if isinstance(b, Value) else self.t
        a, b = (v if isinstance(v, Value) else splat(t, v) for v in (a, b))
        return self.b.select(condition, a, b)

    def call(self, function: M, *args: Value) -> Value:
        return self.b.math(function, list(args), self.t)

    def fabs(self, x: Value) -> Value:
        return self.call(M.FABS, x)

    def is_nan(self, x: Value) -> Value:
        return self.cmp(P.UNO, x, x)

    def either(self, a: Value, b: Value) -> Value:
        return self.b.binary(Op.OR, a, b)

    def both(self, a: Value, b: Value) -> Value:
        return self.b.binary(Op.AND, a, b)

    def bits(self, x: Value) -> Value:
        return self.b.cast(C.BITCAST, x, self.int)

    def from_bits(self, i: Value) -> Value:
        return self.b.cast(C.BITCAST, i, self.t)

    def to_i32(self, i: Value) -> Value:
        return i if self.int is self.i32 else self.b.cast(C.TRUNC, i, self.i32)

    def from_i32(self, i: Value) -> Value:
        return i if self.int is self.i32 else self.b.cast(C.SEXT, i, self.int)

    def is_odd(self, n: Value) -> Value:
        return self.cmp(P.NE, self.op(Op.AND, n, 1), 0)

    # -- the representation -----------------------------------------------------------------------------

    def decompose(self, x: Value) -> tuple[Value, Value]:
        """(bits, field) of x with subnormals scaled up by 2^(p+2) into normal numbers, and the
        i32 biased exponent field corrected for that scaling (so x = m 2^(field - bias))."""
        small = self.cmp(P.OLT, self.fabs(x), 2.0 ** (1 - self.bias))
        scaled = self.select(small, self.op(Op.FMUL, x, 2.0 ** (self.precision + 2)), x)
        bits = self.bits(scaled)
        field = self.to_i32(self.op(Op.AND, self.op(Op.LSHR, bits, self.precision), self.max_field))
        return bits, self.op(Op.SUB, field, self.select(small, splat(self.i32, self.precision + 2), 0))

    def with_field(self, bits: Value, field: Value) -> Value:
        """bits with the exponent field replaced by `field` (an i32 in 1..max_field - 1)."""
        cleared = self.op(Op.AND, bits, ~(self.max_field << self.precision))
        return self.from_bits(self.op(Op.OR, cleared, self.op(Op.SHL, self.from_i32(field), self.precision)))

    def is_zero_inf_nan(self, x: Value) -> Value:
        """x is +-0, +-inf or NaN (x - x is NaN exactly for inf and NaN): the fixed points of frexp,
        ldexp, modf and friends."""
        return self.either(self.cmp(P.OEQ, x, 0.0), self.is_nan(self.op(Op.FSUB, x, x)))

    def frexp(self, x: Value) -> tuple[Value, Value]:
        bits, field = self.decompose(x)
        mantissa = self.with_field(bits, splat(self.i32, self.bias - 1))
        exponent = self.op(Op.SUB, field, self.bias - 1)
        special = self.is_zero_inf_nan(x)
        return self.select(special, x, mantissa), self.select(special, 0, exponent)

    def ldexp(self, x: Value, n: Value) -> Value:
        bits, field = self.decompose(x)
        limit = self.max_field + self.precision + 4       # beyond it the result is 0 or inf anyway
        n = self.call_int(M.SMAX, self.call_int(M.SMIN, n, limit), -limit)
        field = self.call_int(M.SMAX, self.op(Op.ADD, field, n), -self.precision - 1)
        overflow = self.cmp(P.SGE, field, self.max_field)
        subnormal = self.cmp(P.SLT, field, 1)
        result = self.with_field(bits, self.select(subnormal, self.op(Op.ADD, field, self.precision + 2),
                                                   self.call_int(M.SMIN, field, self.max_field - 1)))
        result = self.op(Op.FMUL, result, self.select(subnormal, 2.0 ** -(self.precision + 2), 1.0))
        result = self.select(overflow, self.call(M.COPYSIGN, self.c(math.inf), x), result)
        return self.select(self.is_zero_inf_nan(x), x, result)

    def call_int(self, function: M, a: Value, b: Value | int) -> Value:
        if not isinstance(b, Value):
            b = splat(a.type, b)
        return self.b.math(function, [a, b], a.type)

    def ilogb(self, x: Value) -> Value:
        _, field = self.decompose(x)
        result = self.select(self.cmp(P.OEQ, x, 0.0), -2 ** 31, self.op(Op.SUB, field, self.bias))
        return self.select(self.is_nan(self.op(Op.FSUB, x, x)), 2 ** 31 - 1, result)  # inf and NaN

    def logb(self, x: Value) -> Value:
        _, field = self.decompose(x)
        result = self.b.cast(C.SITOFP, self.op(Op.SUB, field, self.bias), self.t)
        result = self.select(self.cmp(P.OEQ, x, 0.0), -math.inf, result)
        return self.select(self.is_nan(self.op(Op.FSUB, x, x)), self.op(Op.FMUL, x, x), result)

    def sign_bit(self, x: Value) -> Value:
        return self.cmp(P.SLT, self.bits(x), 0)

    def negate_if(self, condition: Value, x: Value) -> Value:
        return self.select(condition, self.b.fneg(x), x)

    def nextafter(self, x: Value, y: Value) -> Value:
        bits = self.bits(x)
        away_from_zero = self.b.binary(Op.XOR, self.cmp(P.OLT, x, y), self.cmp(P.OGT, x, 0.0))
        step = self.op(Op.ADD, bits, self.select(away_from_zero, splat(self.int, -1), splat(self.int, 1)))
        smallest = self.op(Op.OR, self.op(Op.AND, self.bits(y), 1 << (self.width - 1)), 1)  # toward y
        result = self.from_bits(self.select(self.cmp(P.OEQ, x, 0.0), smallest, step))
        result = self.select(self.cmp(P.OEQ, x, y), y, result)
        return self.select(self.cmp(P.UNO, x, y), self.op(Op.FADD, x, y), result)

    def fract(self, x: Value) -> tuple[Value, Value]:
        """(x - floor(x) kept below 1, floor(x)); inf gives a zero of its sign, NaN NaN."""
        whole = self.call(M.FLOOR, x)
        below_one = self.c(_rounded(self.t, 1.0 - 2.0 ** -(self.precision + 1)))
        part = self.call(M.FMIN, self.op(Op.FSUB, x, whole), below_one)
        part = self.select(self.cmp(P.OEQ, self.fabs(x), math.inf), self.call(M.COPYSIGN, self.c(0.0), x), part)
        return self.select(self.is_nan(x), x, part), whole

    def modf(self, x: Value) -> tuple[Value, Value]:
        whole = self.call(M.TRUNC, x)
        part = self.select(self.cmp(P.OEQ, self.fabs(x), math.inf), 0.0, self.op(Op.FSUB, x, whole))
        return self.call(M.COPYSIGN, part, x), whole

    def lgamma_r(self, x: Value) -> tuple[Value, Value]:
        """lgamma(x) and the sign of gamma(x): gamma(x) = pi / (sin(pi x) gamma(1 - x)) has the sign
        of sinpi(x) for x < 0; 0 at the poles and for NaN."""
        s = self.sinpi(x)
        one = splat(self.i32, 1)
        sign = self.select(self.cmp(P.OLT, s, 0.0), -1, self.select(self.cmp(P.OGT, s, 0.0), one, 0))
        sign = self.select(self.cmp(P.OGT, x, 0.0), one, sign)
        return self.call(M.LGAMMA, x), sign

    def magnitude_pick(self, x: Value, y: Value, larger: P, tie: M) -> Value:
        """maxmag/minmag: the argument of larger (smaller) magnitude, fmax/fmin on a tie or NaN."""
        ax, ay = self.fabs(x), self.fabs(y)
        return self.select(self.cmp(larger, ax, ay), x, self.select(self.cmp(larger, ay, ax), y,
                                                                   self.call(tie, x, y)))

    # -- remainders -------------------------------------------------------------------------------------

    def remquo(self, x: Value, y: Value, period: int = 8) -> tuple[Value, Value]:
        """(remainder(x, y), the quotient's low bits mod `period` with the sign of x/y)."""
        ax, ay = self.fabs(x), self.fabs(y)
        a = self.op(Op.FREM, ax, ay)
        b = self.op(Op.FREM, ax, self.op(Op.FMUL, ay, float(period)))
        q = self.op(Op.FDIV, self.op(Op.FSUB, b, a), ay)
        q = self.b.cast(C.FPTOSI, self.select(self.is_nan(q), 0.0, self.call(M.RINT, q)), self.i32)
        twice = self.op(Op.FADD, a, a)
        up = self.either(self.cmp(P.OGT, twice, ay), self.both(self.cmp(P.OEQ, twice, ay), self.is_odd(q)))
        r = self.negate_if(self.sign_bit(x), self.select(up, self.op(Op.FSUB, a, ay), a))
        q = self.op(Op.AND, self.select(up, self.op(Op.ADD, q, 1), q), period - 1)
        opposite = self.b.binary(Op.XOR, self.sign_bit(x), self.sign_bit(y))
        return r, self.select(opposite, self.op(Op.SUB, splat(self.i32, 0), q), q)

    # -- functions of pi x ------------------------------------------------------------------------------

    def pi_reduce(self, x: Value) -> tuple[Value, Value]:
        """(pi r, n mod 4) with x = n/2 + r, |r| <= 1/4, exactly (NaN gives NaN and 0)."""
        huge = self.cmp(P.OGE, self.fabs(x), 2.0 ** (self.precision + 1))  # even integers (and inf)
        x = self.select(huge, self.op(Op.FMUL, x, 0.0), x)
        n = self.call(M.RINT, self.op(Op.FMUL, x, 2.0))
        r = self.op(Op.FSUB, x, self.op(Op.FMUL, n, 0.5))
        quadrant = self.b.cast(C.FPTOSI, self.select(self.is_nan(n), 0.0, n), self.i32)
        pi_hi = self.c(math.pi)
        pi_lo = self.c(math.pi - _rounded(self.t, math.pi))
        return self.call(M.FMA, r, pi_hi, self.op(Op.FMUL, r, pi_lo)), self.op(Op.AND, quadrant, 3)

    def by_quadrant(self, quadrant: Value, values: tuple[Value, Value, Value, Value]) -> Value:
        result = values[3]
        for q in (2, 1, 0):
            result = self.select(self.cmp(P.EQ, quadrant, q), values[q], result)
        return result

    def sinpi(self, x: Value, cosine: bool = False) -> Value:
        pr, quadrant = self.pi_reduce(x)
        s, c = self.call(M.SIN, pr), self.call(M.COS, pr)
        values = (c, self.b.fneg(s), self.b.fneg(c), s) if cosine else (s, c, self.b.fneg(s), self.b.fneg(c))
        return self.by_quadrant(quadrant, values)

    def tanpi(self, x: Value) -> Value:
        pr, quadrant = self.pi_reduce(x)
        t = self.call(M.TAN, pr)
        odd = self.is_odd(quadrant)
        cotangent = self.op(Op.FDIV, self.c(-1.0), t)
        pole = self.select(self.cmp(P.EQ, quadrant, 1), math.inf, -math.inf)  # tanpi(n + 1/2), n even or odd
        cotangent = self.select(self.cmp(P.OEQ, t, 0.0), pole, cotangent)
        return self.select(odd, cotangent, t)

    def cbrt(self, x: Value) -> Value:
        """cbrt refined by one Newton step y - (y^3 - x)/(3 y^2) whose residual is exact to twice the
        precision (y^2 split by an fma): glibc's double cbrt is up to 2.5 ulp off (measured), over
        OpenCL's 2."""
        y = self.call(M.CBRT, x)
        square = self.op(Op.FMUL, y, y)
        square_lo = self.call(M.FMA, y, y, self.b.fneg(square))
        residual = self.call(M.FMA, square_lo, y, self.call(M.FMA, square, y, self.b.fneg(x)))
        refined = self.op(Op.FSUB, y, self.op(Op.FDIV, residual, self.op(Op.FMUL, square, 3.0)))
        normal = self.both(self.cmp(P.ONE, y, 0.0), self.cmp(P.OLT, self.fabs(y), math.inf))
        return self.select(normal, refined, y)

    # -- powers ------------------------------------------------------------------------------------------

    def pown(self, x: Value, n: Value) -> Value:
        y = self.call(M.POW, self.fabs(x), self.b.cast(C.SITOFP, n, self.t))
        return self.negate_if(self.both(self.sign_bit(x), self.is_odd(n)), y)

    def rootn(self, x: Value, n: Value) -> Value:
        ax, nf = self.fabs(x), self.b.cast(C.SITOFP, n, self.t)
        y = self.call(M.POW, ax, self.op(Op.FDIV, self.c(1.0), nf))
        yn = self.call(M.POW, y, nf)
        step = self.op(Op.FDIV, self.op(Op.FSUB, self.op(Op.FDIV, ax, yn), self.c(1.0)), nf)
        refined = self.call(M.FMA, y, step, y)
        normal = self.both(self.cmp(P.ONE, yn, 0.0), self.cmp(P.OLT, self.fabs(yn), math.inf))
        y = self.negate_if(self.both(self.sign_bit(x), self.is_odd(n)), self.select(normal, refined, y))
        invalid = self.either(self.both(self.cmp(P.OLT, x, 0.0), self.cmp(P.EQ, self.is_odd(n), 0)),
                              self.cmp(P.EQ, n, 0))
        return self.select(invalid, math.nan, y)

    def powr(self, x: Value, y: Value) -> Value:
        """pow for x >= 0, NaN where powr's definition exp(y log x) is 0 * inf or inf - inf."""
        zero_y = self.cmp(P.OEQ, y, 0.0)
        invalid = [self.cmp(P.OLT, x, 0.0), self.cmp(P.UNO, x, y),
                   self.both(self.cmp(P.OEQ, x, 0.0), zero_y), self.both(self.cmp(P.OEQ, x, math.inf), zero_y),
                   self.both(self.cmp(P.OEQ, x, 1.0), self.cmp(P.OEQ, self.fabs(y), math.inf))]
        any_invalid = invalid[0]
        for condition in invalid[1:]:
            any_invalid = self.either(any_invalid, condition)
        return self.select(any_invalid, math.nan, self.call(M.POW, self.fabs(x), y))


def _rounded(t: ty.Type, value: float) -> float:
    return round_float(ty.scalar_of(t), value)


class MathLowering:
    """Mixin of FunctionLowerer (through BuiltinLowering): needs `self.b` and `self._args`."""

    def _math_of(self, e: A.BuiltinCall) -> tuple[_Bits, list[Value]]:
        args = self._args(e)
        return _Bits(self.b, args[0].type), args

    def _scaled(self, e: A.BuiltinCall) -> Value:
        m, args = self._math_of(e)
        function, factor = _SCALED[e.builtin]
        return m.op(Op.FMUL, m.call(function, *args), factor)

    def _unary(self, e: A.BuiltinCall) -> Value:
        m, (x,) = self._math_of(e)
        return _UNARY[e.builtin](m, x)

    def _binary(self, e: A.BuiltinCall) -> Value:
        m, (x, y) = self._math_of(e)
        return _BINARY[e.builtin](m, x, y)

    def _with_output(self, e: A.BuiltinCall) -> Value:
        """Functions that return one result and store another through their last argument."""
        m, args = self._math_of(e)
        result, stored = _WITH_OUTPUT[e.builtin](m, *args[:-1])
        self.b.store(stored, args[-1])
        return result

    def _nan(self, e: A.BuiltinCall) -> Value:
        (code,) = self._args(e)
        m = _Bits(self.b, value_type(e.type))
        return m.from_bits(m.op(Op.OR, code, m.bits(m.c(math.nan))))


_UNARY = {
    Builtin.RSQRT: lambda m, x: m.op(Op.FDIV, m.c(1.0), m.call(M.SQRT, x)),
    Builtin.DEGREES: lambda m, x: m.op(Op.FMUL, x, 180 / math.pi),
    Builtin.RADIANS: lambda m, x: m.op(Op.FMUL, x, math.pi / 180),
    Builtin.SINPI: lambda m, x: m.sinpi(x),
    Builtin.COSPI: lambda m, x: m.sinpi(x, cosine=True),
    Builtin.TANPI: _Bits.tanpi,
    Builtin.ILOGB: _Bits.ilogb,
    Builtin.CBRT: _Bits.cbrt,
    Builtin.LOGB: _Bits.logb,
}

_BINARY = {
    Builtin.FMOD: lambda m, x, y: m.op(Op.FREM, x, y),
    Builtin.REMAINDER: lambda m, x, y: m.remquo(x, y, period=2)[0],
    Builtin.FDIM: lambda m, x, y: m.select(m.cmp(P.UNO, x, y), m.op(Op.FADD, x, y),
                                           m.select(m.cmp(P.OGT, x, y), m.op(Op.FSUB, x, y), 0.0)),
    Builtin.MAXMAG: lambda m, x, y: m.magnitude_pick(x, y, P.OGT, M.FMAX),
    Builtin.MINMAG: lambda m, x, y: m.magnitude_pick(x, y, P.OLT, M.FMIN),
    Builtin.NEXTAFTER: _Bits.nextafter,
    Builtin.POWR: _Bits.powr,
    Builtin.POWN: _Bits.pown,
    Builtin.ROOTN: _Bits.rootn,
    Builtin.LDEXP: _Bits.ldexp,
}

_WITH_OUTPUT = {
    Builtin.FREXP: _Bits.frexp,
    Builtin.REMQUO: _Bits.remquo,
    Builtin.FRACT: _Bits.fract,
    Builtin.MODF: _Bits.modf,
    Builtin.SINCOS: lambda m, x: (m.call(M.SIN, x), m.call(M.COS, x)),
    Builtin.LGAMMA_R: _Bits.lgamma_r,
}

MATH_HANDLERS = {
    **{b: MathLowering._scaled for b in _SCALED},
    **{b: MathLowering._unary for b in _UNARY},
    **{b: MathLowering._binary for b in _BINARY},
    **{b: MathLowering._with_output for b in _WITH_OUTPUT},
    Builtin.NAN: MathLowering._nan,
}
