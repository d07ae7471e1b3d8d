"""Conversions to float or double rounded toward zero, +inf or -inf (OpenCL C 6.2.3.2:
`convert_float_rtz(long)`, `convert_double_rtp(ulong)`, `convert_float_rtn(double)`, ...).

LLVM's `sitofp`/`uitofp`/`fptrunc` round to nearest even. The directed result is that nearest
value r, or r's neighbour toward zero or toward the asked infinity when r lies on the wrong side
of the exact source value x. So each lane needs only two exact comparisons of r with x, made in
double, and a step of one in r's bit pattern (adjacent floats of one sign have adjacent patterns):

* x a double, or an integer of at most 32 bits: double holds x exactly, and r widened to double.
* x a 64-bit integer: split as hi * 2^32 + lo (hi signed for a signed source, lo in [0, 2^32)).
  hi * 2^32 is exact in double, and so is r - hi * 2^32: both are multiples of min(ulp(r), 2^32)
  and their difference is at most ulp(r) + 2^32, well within 53 bits of that unit. Comparing the
  difference with lo (exact) compares r with x, including r = 2^63 or 2^64 beyond x's type.

Rounded to nearest, r never crosses zero and is an infinity only from a double beyond the float
range, whose step toward zero is FLT_MAX as IEEE 754 7.4 asks; ties and exact values compare
equal and stay; NaN compares unordered and stays.
"""
from __future__ import annotations

from ..frontend import types as T
from ..ir import instructions as ins
from ..ir import types as ty
from ..ir.builder import Builder
from ..ir.values import Value
from .casts import splat
from .half import shaped
from .types import is_signed

Op = ins.BinaryOpcode
P = ins.Predicate
C = ins.CastOpcode

DIRECTED_MODES = ("rtz", "rtp", "rtn")
_PRECISION = {32: 24, 64: 53}  # significand bits of float and double


def round_directed(b: Builder, x: Value, source: T.Type, nearest: Value, mode: str) -> Value:
    """`nearest` (x converted to float or double, rounded to nearest even) rounded instead in the
    directed `mode`; `source` is x's frontend element type."""
    target_bits = ty.scalar_of(nearest.type).bits
    exact_bits = target_bits if source.is_floating else _PRECISION[target_bits]
    if mode not in DIRECTED_MODES or source.bits <= exact_bits:
        return nearest  # exact: from a float no wider, or an integer within the target's precision
    above, below = _compare_exactly(b, x, source, nearest)
    bits_type = shaped(nearest.type, ty.IntType(target_bits))
    bits = b.cast(C.BITCAST, nearest, bits_type)
    negative = b.compare(P.SLT, bits, splat(bits_type, 0))
    one, minus_one, none = (splat(bits_type, v) for v in (1, -1, 0))
    if mode == "rtz":   # |r| > |x|: one step of magnitude down
        wrong, step = b.select(negative, below, above), minus_one
    elif mode == "rtp":  # r < x: one step toward +inf
        wrong, step = below, b.select(negative, minus_one, one)
    else:               # r > x: one step toward -inf
        wrong, step = above, b.select(negative, one, minus_one)
    stepped = b.binary(Op.ADD, bits, b.select(wrong, step, none))
    return b.cast(C.BITCAST, stepped, nearest.type)


def _compare_exactly(b: Builder, x: Value, source: T.Type, nearest: Value) -> tuple[Value, Value]:
    """(r > x, r < x) lane-wise, exactly, for r = nearest."""
    f64 = shaped(x.type, ty.f64)
    r = nearest if ty.scalar_of(nearest.type).bits == 64 else b.cast(C.FPEXT, nearest, f64)
    if source.is_floating:
        exact = x
    elif source.bits <= 32:
        exact = b.cast(C.SITOFP if is_signed(source) else C.UITOFP, x, f64)
    else:
        i64 = x.type
        signed = is_signed(source)
        hi = b.binary(Op.ASHR if signed else Op.LSHR, x, splat(i64, 32))
        lo = b.binary(Op.AND, x, splat(i64, 0xFFFFFFFF))
        high = b.binary(Op.FMUL, b.cast(C.SITOFP if signed else C.UITOFP, hi, f64), splat(f64, 2.0 ** 32))
        r = b.binary(Op.FSUB, r, high)
        exact = b.cast(C.UITOFP, lo, f64)
    return b.compare(P.OGT, r, exact), b.compare(P.OLT, r, exact)
