"""Constant folding of typed expressions (C 6.6).

`fold(expr)` returns the value of a constant expression (an int for integer types, a float for
floating types) or None if the expression is not constant. It runs on sema's typed AST, so every
conversion is already an explicit Cast and every operator's type is known: folding is evaluation in
the node's type, with integer results wrapped to the type's width (two's complement) and floats
rounded to single precision when the type is float. Division by zero is not a constant for
integers; for floats it follows IEEE (this is how INFINITY and NAN, defined as 1.0f/0.0f and
0.0f/0.0f, fold).
"""
from __future__ import annotations

import math
import struct

from . import ast as A
from . import types as T

_Number = int | float


def fold(e: A.Expr) -> _Number | None:
    if e.type is not None and e.type.is_error:  # already diagnosed: nothing to fold
        return None
    handler = _HANDLERS.get(type(e))
    return handler(e) if handler else None


def fold_int(e: A.Expr) -> int | None:
    value = fold(e)
    return value if isinstance(value, int) and e.type is not None and e.type.is_integer else None


def round_to(t: T.Type, value: _Number) -> _Number:
    """value represented in type t."""
    if t.is_integer:
        return t.wrap(int(value))
    if t.unqualified() == T.FLOAT:
        return _to_f32(float(value))
    if t.unqualified() == T.HALF:
        return struct.unpack("e", struct.pack("e", value))[0] if abs(value) < 65520 else \
            math.copysign(math.inf, value)
    return float(value)


def _to_f32(value: float) -> float:
    if math.isnan(value) or math.isinf(value):
        return value
    if abs(value) >= 3.4028235677973366e38:  # rounds past FLT_MAX
        return math.copysign(math.inf, value)
    return struct.unpack("f", struct.pack("f", value))[0]


def _literal(e) -> _Number:
    return e.value


def _cast(e: A.Cast) -> _Number | None:
    if e.kind in (A.CastKind.LOAD, A.CastKind.ARRAY_TO_POINTER, A.CastKind.TO_VOID):
        return None
    value = fold(e.operand)
    if value is None or not e.type.is_arithmetic:
        return None
    if e.type.is_bool:
        return int(value != 0)
    if e.type.is_integer and isinstance(value, float):
        if math.isnan(value) or math.isinf(value):
            return None
        value = int(value)  # truncation toward zero
    return round_to(e.type, value)


def _unary(e: A.Unary) -> _Number | None:
    value = fold(e.operand)
    if value is None:
        return None
    if e.op is A.UnaryOp.MINUS:
        value = -value
    elif e.op is A.UnaryOp.BIT_NOT:
        value = ~value
    elif e.op is A.UnaryOp.LOGICAL_NOT:
        value = int(not value)
    return round_to(e.type, value)


def _binary(e: A.Binary) -> _Number | None:
    left = fold(e.left)
    if e.op.is_logical and left is not None:
        if bool(left) == (e.op is A.BinaryOp.LOGICAL_OR):
            return int(bool(left))
        right = fold(e.right)
        return None if right is None else int(bool(right))
    right = fold(e.right)
    if left is None or right is None:
        return None
    if e.op.is_comparison:
        return int(_compare(e.op, left, right))
    value = _arith(e.op, left, right, e.type)
    return None if value is None else round_to(e.type, value)


def _compare(op: A.BinaryOp, x, y) -> bool:
    return {A.BinaryOp.LT: x < y, A.BinaryOp.GT: x > y, A.BinaryOp.LE: x <= y,
            A.BinaryOp.GE: x >= y, A.BinaryOp.EQ: x == y, A.BinaryOp.NE: x != y}[op]


def _arith(op: A.BinaryOp, x, y, t: T.Type) -> _Number | None:
    if op in (A.BinaryOp.DIV, A.BinaryOp.MOD):
        return _divide(op, x, y, t)
    if op.is_shift:
        y &= t.bits - 1  # OpenCL C 6.3(j): the count is taken modulo the width
        return x << y if op is A.BinaryOp.SHL else x >> y
    return {A.BinaryOp.MUL: lambda: x * y, A.BinaryOp.ADD: lambda: x + y,
            A.BinaryOp.SUB: lambda: x - y, A.BinaryOp.BIT_AND: lambda: x & y,
            A.BinaryOp.BIT_OR: lambda: x | y, A.BinaryOp.BIT_XOR: lambda: x ^ y}[op]()


def _divide(op: A.BinaryOp, x, y, t: T.Type) -> _Number | None:
    if t.is_floating:
        if y == 0:
            if x == 0 or math.isnan(x):
                return math.nan
            return math.copysign(math.inf, x) * math.copysign(1.0, y)
        return x / y if op is A.BinaryOp.DIV else math.fmod(x, y)
    if y == 0:
        return None
    quotient = abs(x) // abs(y) * (1 if (x < 0) == (y < 0) else -1)
    return quotient if op is A.BinaryOp.DIV else x - quotient * y


def _conditional(e: A.Conditional) -> _Number | None:
    cond = fold(e.cond)
    if cond is None:
        return None
    return fold(e.then if cond else e.else_)


_HANDLERS = {
    A.IntLiteral: _literal, A.FloatLiteral: _literal, A.Cast: _cast, A.Unary: _unary,
    A.Binary: _binary, A.Conditional: _conditional,
}
