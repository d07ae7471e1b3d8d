"""The integer functions of OpenCL C (1.2 spec 6.12.3; abs, min, max and clamp live in builtins.py)
lowered to pure IR instructions, so they inline and vectorize inside work-item loops.

Where LLVM has an intrinsic of the same meaning the function is a `MathCall` (clz, ctz, popcount,
rotate, the saturating add and subtract); the rest is open-coded:

* `abs_diff` is max - min: the difference always fits the unsigned type, so a wrapping subtract
  is exact even where `x - y` overflows the signed type.
* `hadd`/`rhadd` add the halves, `(x >> 1) + (y >> 1)`, plus the carry of the low bits, so the
  sum never overflows.
* `mul_hi`, `mad_hi` and `mad_sat` compute in the integer of twice the width (i128 for long), where
  the exact product (and `x * y + z`) always fits; `mad_sat` clamps there before narrowing.
* `mul24`/`mad24` are the full 32-bit multiply: the spec leaves results undefined unless the
  operands fit in 24 bits, where the full product is the answer.

Every handler works on scalars and vectors alike (constants are splats), so a vector overload is
only a new row in frontend/builtins.py. Handlers take (builder, argument values, overload): the
overload's parameter types carry the signedness that IR integers lack.
"""
from __future__ import annotations

from ..frontend.builtins import Builtin, Overload
from ..ir import instructions as ins
from ..ir import types as ty
from ..ir.builder import Builder
from ..ir.values import Value
from .casts import bits, splat
from .types import is_signed, value_type

M = ins.MathFunction
Op = ins.BinaryOpcode


def _signed(call: Overload) -> bool:
    return is_signed(call.params[0])


def _intrinsic(function: M):
    return lambda b, args, call: b.math(function, args)


def _by_sign(signed: M, unsigned: M):
    return lambda b, args, call: b.math(signed if _signed(call) else unsigned, args)


def abs_diff(b: Builder, args: list[Value], call: Overload) -> Value:
    high = b.math(M.SMAX if _signed(call) else M.UMAX, args)
    low = b.math(M.SMIN if _signed(call) else M.UMIN, args)
    return b.sub(high, low)


def _sum_of_halves(b: Builder, x: Value, y: Value, call: Overload) -> Value:
    shift = Op.ASHR if _signed(call) else Op.LSHR
    one = splat(x.type, 1)
    return b.add(b.binary(shift, x, one), b.binary(shift, y, one))


def _low_bit_carry(b: Builder, opcode: Op, x: Value, y: Value) -> Value:
    return b.binary(Op.AND, b.binary(opcode, x, y), splat(x.type, 1))


def hadd(b: Builder, args: list[Value], call: Overload) -> Value:
    """(x + y) >> 1 without overflow: the low bits carry only when both are set."""
    x, y = args
    return b.add(_sum_of_halves(b, x, y, call), _low_bit_carry(b, Op.AND, x, y))


def rhadd(b: Builder, args: list[Value], call: Overload) -> Value:
    """(x + y + 1) >> 1 without overflow: the low bits carry when either is set."""
    x, y = args
    return b.add(_sum_of_halves(b, x, y, call), _low_bit_carry(b, Op.OR, x, y))


def _double_width(t: ty.Type) -> ty.Type:
    if isinstance(t, ty.VectorType):
        return ty.VectorType(_double_width(t.element), t.count)
    return ty.IntType(2 * t.bits)


def _widen(b: Builder, x: Value, call: Overload) -> Value:
    extend = ins.CastOpcode.SEXT if _signed(call) else ins.CastOpcode.ZEXT
    return b.cast(extend, x, _double_width(x.type))


def _wide_product(b: Builder, x: Value, y: Value, call: Overload) -> Value:
    return b.mul(_widen(b, x, call), _widen(b, y, call))


def _high_half(b: Builder, wide: Value, t: ty.Type) -> Value:
    shifted = b.binary(Op.LSHR, wide, splat(wide.type, bits(t)))
    return b.cast(ins.CastOpcode.TRUNC, shifted, t)


def mul_hi(b: Builder, args: list[Value], call: Overload) -> Value:
    x, y = args
    return _high_half(b, _wide_product(b, x, y, call), x.type)


def mad_hi(b: Builder, args: list[Value], call: Overload) -> Value:
    x, y, z = args
    return b.add(mul_hi(b, [x, y], call), z)


def mad_sat(b: Builder, args: list[Value], call: Overload) -> Value:
    x, y, z = args
    exact = b.add(_wide_product(b, x, y, call), _widen(b, z, call))
    limits = call.params[0].element if call.params[0].is_vector else call.params[0]
    if _signed(call):
        exact = b.math(M.SMAX, [exact, splat(exact.type, limits.min_value)])
        exact = b.math(M.SMIN, [exact, splat(exact.type, limits.max_value)])
    else:
        exact = b.math(M.UMIN, [exact, splat(exact.type, limits.max_value)])
    return b.cast(ins.CastOpcode.TRUNC, exact, x.type)


def upsample(b: Builder, args: list[Value], call: Overload) -> Value:
    """(hi << width) | lo in the double-width type; hi's extension is shifted out, so zext."""
    hi, lo = args
    wide = value_type(call.result)
    high = b.binary(Op.SHL, b.cast(ins.CastOpcode.ZEXT, hi, wide), splat(wide, bits(hi.type)))
    return b.binary(Op.OR, high, b.cast(ins.CastOpcode.ZEXT, lo, wide))


def mul24(b: Builder, args: list[Value], call: Overload) -> Value:
    return b.mul(*args)


def mad24(b: Builder, args: list[Value], call: Overload) -> Value:
    x, y, z = args
    return b.add(b.mul(x, y), z)


INTEGER_FUNCTIONS = {
    Builtin.ABS_DIFF: abs_diff,
    Builtin.ADD_SAT: _by_sign(M.SADD_SAT, M.UADD_SAT),
    Builtin.SUB_SAT: _by_sign(M.SSUB_SAT, M.USUB_SAT),
    Builtin.HADD: hadd,
    Builtin.RHADD: rhadd,
    Builtin.CLZ: _intrinsic(M.CLZ),
    Builtin.CTZ: _intrinsic(M.CTZ),
    Builtin.POPCOUNT: _intrinsic(M.POPCOUNT),
    Builtin.ROTATE: _intrinsic(M.ROTATE),
    Builtin.MUL_HI: mul_hi,
    Builtin.MAD_HI: mad_hi,
    Builtin.MAD_SAT: mad_sat,
    Builtin.UPSAMPLE: upsample,
    Builtin.MUL24: mul24,
    Builtin.MAD24: mad24,
}
