"""Bit-exact conversions between IEEE binary16 (half) bit patterns and float or double, in integer
arithmetic (OpenCL C 6.12.7: vload_half, vstore_half with its four rounding modes).

Why not LLVM's `fpext`/`fptrunc` on `half`: x86 converts float<->half in hardware only with F16C, and
double->half never; otherwise LLVM calls compiler-rt (`__truncdfhf2`, `__extendhfsf2`, ...), which
the JIT-ed code cannot reach. Going through float for double->half would also round twice. So every
conversion here is a handful of lane-wise integer operations (shifts by a per-lane amount, selects)
that work on scalars and vectors alike and vectorize (AVX2 `vpsrlvd`/`vpsrlvq`).

half to float: normal numbers rebias the exponent (+112), subnormals are exact as `m * 2^-24`
(an integer below 2^10 times a power of two), infinities and NaNs keep their payload bits.

float or double to half, for a source with an m-bit mantissa and exponent e (unbiased):
* the significand (with its implicit bit) shifted right by s = m - 10 gives the half's 11-bit
  significand for e >= -14, added to `(e + 14) << 10` (the implicit bit carries into the exponent
  field); for e < -14 the half is subnormal and s = m - 24 - e (at most m + 2: anything smaller is
  below half the least subnormal, and still inexact);
* the bits shifted out decide the rounding: to nearest even (more than half, or exactly half with
  an odd result), toward +inf or -inf (any bits, by the sign), toward zero (never). Rounding up may
  carry into the next binade or to infinity, which is the right answer in the modes that round up;
* e > 15 overflows: to infinity when rounding away from zero in that direction, otherwise to the
  largest finite half (IEEE 754 7.4); NaNs stay NaN (quieted, top payload bits kept), infinities stay.
"""
from __future__ import annotations

from ..ir import instructions as ins
from ..ir import types as ty
from ..ir.builder import Builder
from ..ir.values import Value
from .casts import splat

Op = ins.BinaryOpcode
P = ins.Predicate
C = ins.CastOpcode

HALF_INFINITY, HALF_MAX, HALF_QUIET_NAN = 0x7C00, 0x7BFF, 0x7E00
ROUNDING_MODES = ("rte", "rtz", "rtp", "rtn")


def shaped(t: ty.Type, scalar: ty.Type) -> ty.Type:
    """`scalar`, or a vector of it with as many lanes as t."""
    return ty.VectorType(scalar, t.count) if isinstance(t, ty.VectorType) else scalar


class _Lanes:
    """Integer operations on values of one (scalar or vector) type, constants given as ints."""

    def __init__(self, b: Builder, t: ty.Type) -> None:
        self.b, self.t = b, t

    def const(self, v):
        return splat(self.t, v) if isinstance(v, int) else v

    def op(self, opcode, a, c):
        return self.b.binary(opcode, self.const(a), self.const(c))

    def cmp(self, predicate, a, c):
        return self.b.compare(predicate, self.const(a), self.const(c))

    def select(self, condition, a, c):
        return self.b.select(condition, self.const(a), self.const(c))


def half_to_float(b: Builder, half_bits: Value) -> Value:
    """The float (or float vector) that the i16 half bit patterns stand for, exactly."""
    i32, f32 = shaped(half_bits.type, ty.i32), shaped(half_bits.type, ty.f32)
    x = _Lanes(b, i32)
    h = b.cast(C.ZEXT, half_bits, i32)
    sign = x.op(Op.SHL, x.op(Op.AND, h, 0x8000), 16)
    magnitude = x.op(Op.AND, h, 0x7FFF)
    normal = x.op(Op.ADD, x.op(Op.SHL, magnitude, 13), (127 - 15) << 23)
    special = x.op(Op.OR, x.op(Op.SHL, magnitude, 13), 0x7F800000)
    scaled = b.binary(Op.FMUL, b.cast(C.SITOFP, magnitude, f32), splat(f32, 2.0 ** -24))
    subnormal = b.cast(C.BITCAST, scaled, i32)
    result = x.select(x.cmp(P.UGE, magnitude, HALF_INFINITY), special, normal)
    result = x.select(x.cmp(P.ULT, magnitude, 0x400), subnormal, result)
    return b.cast(C.BITCAST, x.op(Op.OR, result, sign), f32)


def float_to_half(b: Builder, value: Value, mode: str = "rte") -> Value:
    """The i16 half bit patterns of float or double `value`, rounded once in `mode`."""
    width = ty.scalar_of(value.type).bits
    m, bias = {32: (23, 127), 64: (52, 1023)}[width]
    t = shaped(value.type, ty.IntType(width))
    x = _Lanes(b, t)
    bits = b.cast(C.BITCAST, value, t)
    sign = x.op(Op.LSHR, bits, width - 1)
    magnitude = x.op(Op.AND, bits, (1 << (width - 1)) - 1)
    exponent_field = x.op(Op.LSHR, magnitude, m)
    mantissa = x.op(Op.AND, magnitude, (1 << m) - 1)
    is_normal = x.cmp(P.NE, exponent_field, 0)
    significand = x.select(is_normal, x.op(Op.OR, mantissa, 1 << m), mantissa)
    e = x.op(Op.SUB, x.select(is_normal, exponent_field, 1), bias)
    finite = _round_finite(x, significand, e, sign, m, mode)
    nan = x.op(Op.OR, x.op(Op.LSHR, mantissa, m - 10), HALF_QUIET_NAN)
    special = x.select(x.cmp(P.NE, mantissa, 0), nan, HALF_INFINITY)
    result = x.select(x.cmp(P.SGT, e, 15), _overflow(x, sign, mode), finite)
    result = x.select(x.cmp(P.EQ, exponent_field, (1 << (width - m - 1)) - 1), special, result)
    result = x.op(Op.OR, result, x.op(Op.SHL, sign, 15))
    return b.cast(C.TRUNC, result, shaped(value.type, ty.i16))


def _round_finite(x: _Lanes, significand: Value, e: Value, sign: Value, m: int, mode: str) -> Value:
    """The half magnitude bits of significand * 2^(e - m), for e <= 15, rounded in `mode`."""
    subnormal = x.cmp(P.SLT, e, -14)
    tiny_shift = x.b.math(ins.MathFunction.SMIN, [x.op(Op.SUB, m - 24, e), x.const(m + 2)], x.t)
    shift = x.select(subnormal, tiny_shift, m - 10)
    base = x.select(subnormal, 0, x.op(Op.SHL, x.op(Op.ADD, e, 14), 10))
    kept = x.op(Op.LSHR, significand, shift)
    rest = x.op(Op.AND, significand, x.op(Op.SUB, x.op(Op.SHL, 1, shift), 1))
    truncated = x.op(Op.ADD, base, kept)
    if mode == "rtz":
        return truncated
    if mode == "rte":
        halfway = x.op(Op.SHL, 1, x.op(Op.SUB, shift, 1))
        odd = x.cmp(P.NE, x.op(Op.AND, kept, 1), 0)
        tie_to_odd = x.b.binary(Op.AND, x.cmp(P.EQ, rest, halfway), odd)
        up = x.b.binary(Op.OR, x.cmp(P.UGT, rest, halfway), tie_to_odd)
    else:
        toward = 0 if mode == "rtp" else 1          # the sign whose values round away from zero
        up = x.b.binary(Op.AND, x.cmp(P.NE, rest, 0), x.cmp(P.EQ, sign, toward))
    return x.op(Op.ADD, truncated, x.b.cast(C.ZEXT, up, x.t))


def _overflow(x: _Lanes, sign: Value, mode: str) -> Value:
    """The magnitude of a value beyond the largest half: infinity, or the largest finite half where
    the rounding goes toward zero for that sign."""
    if mode == "rte":
        return x.const(HALF_INFINITY)
    if mode == "rtz":
        return x.const(HALF_MAX)
    negative = x.cmp(P.NE, sign, 0)
    if mode == "rtp":
        return x.select(negative, HALF_MAX, HALF_INFINITY)
    return x.select(negative, HALF_INFINITY, HALF_MAX)
