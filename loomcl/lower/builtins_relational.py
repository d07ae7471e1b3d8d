"""The relational functions of OpenCL C (1.2 spec 6.12.6) lowered to comparisons and selects.

A comparison's i1 becomes the spec's truth value: 1 or 0 for a scalar (zero extension), -1 or 0 in
each lane of a vector (sign extension), so vector overloads need only their rows. The comparison
predicates are the spec's: `isnotequal` is unordered (true when either is NaN), the others are
ordered (false on NaN). `isfinite`/`isinf`/`isnormal` compare |x| with infinity and with the
smallest normal number, `signbit` tests the sign bit of the bits. `bitselect` picks bits with
`a ^ ((a ^ b) & c)` (on the bits, for floats); `select(a, b, c)` picks b where c is nonzero for a
scalar and where c's most significant bit is set in a vector lane. `any`/`all` test the most
significant bit of some or every lane.
"""
from __future__ import annotations

from ..frontend.builtins import Builtin, Overload
from ..ir import instructions as ins
from ..ir import types as ty
from ..ir.builder import Builder
from ..ir.values import Constant, Value
from .casts import bits, splat
from .types import value_type

Op = ins.BinaryOpcode
P = ins.Predicate
Cast = ins.CastOpcode

_SMALLEST_NORMAL = {16: 2.0 ** -14, 32: 2.0 ** -126, 64: 2.0 ** -1022}


def _truth(b: Builder, flag: Value, call: Overload) -> Value:
    result = value_type(call.result)
    extend = Cast.SEXT if isinstance(result, ty.VectorType) else Cast.ZEXT
    return b.cast(extend, flag, result)


def _comparison(predicate: P):
    return lambda b, args, call: _truth(b, b.compare(predicate, *args), call)


def _magnitude_test(predicate: P, bound):
    """|x| compared with bound(bits of x)."""
    def lower(b: Builder, args: list[Value], call: Overload) -> Value:
        (x,) = args
        magnitude = b.math(ins.MathFunction.FABS, [x])
        return _truth(b, b.compare(predicate, magnitude, splat(x.type, bound(bits(x.type)))), call)
    return lower


def isnan(b: Builder, args: list[Value], call: Overload) -> Value:
    (x,) = args
    return _truth(b, b.compare(P.UNO, x, x), call)


def isnormal(b: Builder, args: list[Value], call: Overload) -> Value:
    (x,) = args
    magnitude = b.math(ins.MathFunction.FABS, [x])
    large_enough = b.compare(P.OGE, magnitude, splat(x.type, _SMALLEST_NORMAL[bits(x.type)]))
    finite = b.compare(P.OLT, magnitude, splat(x.type, float("inf")))
    return _truth(b, b.binary(Op.AND, large_enough, finite), call)


def _integer_of_width(t: ty.Type) -> ty.Type:
    if isinstance(t, ty.VectorType):
        return ty.VectorType(_integer_of_width(t.element), t.count)
    return ty.IntType(t.bits)


def _as_bits(b: Builder, x: Value) -> Value:
    if ty.is_int(x.type):
        return x
    return b.cast(Cast.BITCAST, x, _integer_of_width(x.type))


def signbit(b: Builder, args: list[Value], call: Overload) -> Value:
    x = _as_bits(b, args[0])
    return _truth(b, b.compare(P.SLT, x, splat(x.type, 0)), call)


def bitselect(b: Builder, args: list[Value], call: Overload) -> Value:
    a, b_, c = (_as_bits(b, v) for v in args)
    picked = b.binary(Op.XOR, a, b.binary(Op.AND, b.binary(Op.XOR, a, b_), c))
    return picked if picked.type is args[0].type else b.cast(Cast.BITCAST, picked, args[0].type)


def select(b: Builder, args: list[Value], call: Overload) -> Value:
    a, b_, c = args
    if isinstance(c.type, ty.VectorType):
        picks_b = b.compare(P.SLT, c, splat(c.type, 0))
    else:
        picks_b = b.compare(P.NE, c, splat(c.type, 0))
    return b.select(picks_b, b_, a)


def _lanes_reduced(opcode: Op):
    """any/all: whether the most significant bit is set in any/every lane, as int 1 or 0."""
    def lower(b: Builder, args: list[Value], call: Overload) -> Value:
        (x,) = args
        negative = b.compare(P.SLT, x, splat(x.type, 0))
        if isinstance(x.type, ty.VectorType):
            lanes = [b.insert(ins.ExtractElement(negative, Constant(ty.i32, i))) for i in range(x.type.count)]
            negative = lanes[0]
            for lane in lanes[1:]:
                negative = b.binary(opcode, negative, lane)
        return b.cast(Cast.ZEXT, negative, ty.i32)
    return lower


RELATIONAL_FUNCTIONS = {
    Builtin.ISEQUAL: _comparison(P.OEQ),
    Builtin.ISNOTEQUAL: _comparison(P.UNE),
    Builtin.ISGREATER: _comparison(P.OGT),
    Builtin.ISGREATEREQUAL: _comparison(P.OGE),
    Builtin.ISLESS: _comparison(P.OLT),
    Builtin.ISLESSEQUAL: _comparison(P.OLE),
    Builtin.ISLESSGREATER: _comparison(P.ONE),
    Builtin.ISORDERED: _comparison(P.ORD),
    Builtin.ISUNORDERED: _comparison(P.UNO),
    Builtin.ISFINITE: _magnitude_test(P.OLT, lambda width: float("inf")),
    Builtin.ISINF: _magnitude_test(P.OEQ, lambda width: float("inf")),
    Builtin.ISNAN: isnan,
    Builtin.ISNORMAL: isnormal,
    Builtin.SIGNBIT: signbit,
    Builtin.BITSELECT: bitselect,
    Builtin.SELECT: select,
    Builtin.ANY: _lanes_reduced(Op.OR),
    Builtin.ALL: _lanes_reduced(Op.AND),
}
