"""The common functions of OpenCL C (1.2 spec 6.12.4) for float and double, lowered to pure IR
instructions that vectorize (min, max and clamp live in builtins.py).

Each follows the spec's defining formula (`degrees`/`radians` are in builtins_math.py): `mix(x, y, a)` is `x + (y - x) * a`, `step(edge, x)` is 0 below the edge and 1
from it on, `smoothstep` is the Hermite polynomial `t * t * (3 - 2t)` of `t` clamped to [0, 1], and
`sign` is +-1 for nonzero x, x itself for +-0 (the sign of zero kept) and 0 for NaN. Handlers take
(builder, argument values, overload) and work on scalars and vectors alike.
"""
from __future__ import annotations

from ..frontend.builtins import Builtin, Overload
from ..ir import instructions as ins
from ..ir.builder import Builder
from ..ir.values import Value
from .casts import splat

Op = ins.BinaryOpcode
P = ins.Predicate


def mix(b: Builder, args: list[Value], call: Overload) -> Value:
    x, y, a = args
    return b.binary(Op.FADD, x, b.binary(Op.FMUL, b.binary(Op.FSUB, y, x), a))


def step(b: Builder, args: list[Value], call: Overload) -> Value:
    edge, x = args
    below = b.compare(P.OLT, x, edge)
    return b.select(below, splat(x.type, 0.0), splat(x.type, 1.0))


def smoothstep(b: Builder, args: list[Value], call: Overload) -> Value:
    edge0, edge1, x = args
    t = b.binary(Op.FDIV, b.binary(Op.FSUB, x, edge0), b.binary(Op.FSUB, edge1, edge0))
    t = b.math(ins.MathFunction.FMIN, [b.math(ins.MathFunction.FMAX, [t, splat(t.type, 0.0)]),
                                       splat(t.type, 1.0)])
    cubic = b.binary(Op.FSUB, splat(t.type, 3.0), b.binary(Op.FMUL, splat(t.type, 2.0), t))
    return b.binary(Op.FMUL, b.binary(Op.FMUL, t, t), cubic)


def sign(b: Builder, args: list[Value], call: Overload) -> Value:
    (x,) = args
    zero = splat(x.type, 0.0)
    result = b.select(b.compare(P.OGT, x, zero), splat(x.type, 1.0), x)
    result = b.select(b.compare(P.OLT, x, zero), splat(x.type, -1.0), result)
    return b.select(b.compare(P.UNO, x, x), zero, result)


COMMON_FUNCTIONS = {
    Builtin.MIX: mix,
    Builtin.STEP: step,
    Builtin.SMOOTHSTEP: smoothstep,
    Builtin.SIGN: sign,
}
