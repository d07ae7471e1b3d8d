"""Python's arithmetic on OpenCL C's fixed-width numbers (a mixin of FunctionTranslator).

Widths and wrapping are OpenCL C's: int32 arithmetic stays int32 (a Python int would grow), an
operation on two types converts to the wider one as C's usual arithmetic conversions say, unsigned
arithmetic wraps, and signed overflow is undefined as in C. Where Python's answer differs from C's
for numbers that fit, Python's is given:

* `/` is true division: integers are converted to float32 first (float64 if an operand is);
* `//` and `%` round toward minus infinity (prelude.py), for integers and floats; the floor of a
  float quotient is `floor(a / b)`; an integer divided by a constant power of two is shifted and
  masked (the same answers, negative numbers included). Mixing a signed and an unsigned integer in them is refused
  (C would convert the signed one to unsigned: `-7 // 2u` would be huge), unless the signed one is
  a constant of at least zero (`u // 4`);
* comparisons of a signed with an unsigned integer compare the values (both widened to int64),
  not C's unsigned reinterpretation; a signed with a 64-bit unsigned integer is refused;
* `**` with a small constant integer exponent (0 to 8) multiplies; a float power is `pow`;
* `<<`, `>>`, `&`, `|`, `^`, `~`: C's (shift counts taken modulo the width, as OpenCL C says).
Division by zero has no exception to raise in a kernel: the result is undefined, as in OpenCL C
(loomcl gives some value rather than trapping).
"""
from __future__ import annotations

import ast

from ..frontend import ast as A
from ..frontend import types as T
from ..frontend.conversions import usual_arithmetic
from .sema import checked

_C_OPS = {ast.Add: A.BinaryOp.ADD, ast.Sub: A.BinaryOp.SUB, ast.Mult: A.BinaryOp.MUL,
          ast.LShift: A.BinaryOp.SHL, ast.RShift: A.BinaryOp.SHR, ast.BitAnd: A.BinaryOp.BIT_AND,
          ast.BitOr: A.BinaryOp.BIT_OR, ast.BitXor: A.BinaryOp.BIT_XOR}
MAX_MULTIPLIED_POWER = 8


class ArithmeticTranslator:
    def binary(self, op, left: A.Expr, right: A.Expr, node) -> A.Expr:
        """`left op right` for Python's operator op on two rvalues."""
        if left.type.is_error or right.type.is_error:
            return self.c_binary(A.BinaryOp.ADD, left, right, node)
        if type(op) in _C_OPS:
            return self.c_binary(_C_OPS[type(op)], left, right, node)
        if isinstance(op, ast.Div):
            return self.true_division(left, right, node)
        if isinstance(op, (ast.FloorDiv, ast.Mod)):
            return self.floor_operation(op, left, right, node)
        if isinstance(op, ast.Pow):
            return self.power(left, right, node)
        raise self.fail(node, "the matrix product '@' is not supported in a kernel")

    def c_binary(self, op: A.BinaryOp, left: A.Expr, right: A.Expr, node) -> A.Expr:
        return self.sema.check(A.Binary(self.loc(node), op, checked(left), checked(right)))

    def convert_to(self, e: A.Expr, t: T.Type) -> A.Expr:
        if e.type.is_error or e.type.unqualified() == t:
            return e
        return self.sema.check(A.Cast(e.loc, None, checked(e), type=t))

    def true_division(self, left: A.Expr, right: A.Expr, node) -> A.Expr:
        lt, rt = left.type, right.type
        if lt.is_scalar and rt.is_scalar and lt.is_integer and rt.is_integer:
            left, right = self.convert_to(left, T.FLOAT), self.convert_to(right, T.FLOAT)
        return self.c_binary(A.BinaryOp.DIV, left, right, node)

    def floor_operation(self, op, left: A.Expr, right: A.Expr, node) -> A.Expr:
        lt, rt = left.type.unqualified(), right.type.unqualified()
        symbol = "//" if isinstance(op, ast.FloorDiv) else "%"
        if not (lt.is_arithmetic and rt.is_arithmetic):
            raise self.fail(node, f"'{symbol}' takes two numbers here (not '{lt}' and '{rt}'); vectors "
                                  f"and pointers have no floor division")
        if lt.is_integer and rt.is_integer and lt.signed != rt.signed and not (lt.is_bool or rt.is_bool) \
                and not _non_negative_constant(left if lt.signed else right):
            raise self.fail(node, f"'{symbol}' of a signed and an unsigned integer ('{lt}' and '{rt}'): "
                                  f"convert one of them, e.g. with np.int32(...) or np.uint32(...)")
        common = usual_arithmetic(lt, rt)
        shift = _power_of_two(right)
        left, right = self.convert_to(left, common), self.convert_to(right, common)
        if common.is_integer and shift is not None:  # exactly Python's floor rules, in one instruction
            if symbol == "//":
                return self.c_binary(A.BinaryOp.SHR, left, self.literal(shift, node), node)
            return self.c_binary(A.BinaryOp.BIT_AND, left, self.convert_to(self.literal((1 << shift) - 1, node),
                                                                         common), node)
        if common.is_integer and not common.signed:
            return self.c_binary(A.BinaryOp.DIV if symbol == "//" else A.BinaryOp.MOD, left, right, node)
        if common.is_floating and symbol == "//":
            quotient = self.c_binary(A.BinaryOp.DIV, left, right, node)
            return self.builtin_call("floor", [quotient], node)
        floordiv, mod = self.program.python_arithmetic(common)
        return self.user_call(floordiv if symbol == "//" else mod, [left, right], node)

    def power(self, left: A.Expr, right: A.Expr, node) -> A.Expr:
        exponent = node.right
        if isinstance(exponent, ast.Constant) and type(exponent.value) is int and \
                0 <= exponent.value <= MAX_MULTIPLIED_POWER and _read_once(node.left):
            result = self.literal(1, node) if exponent.value == 0 else left
            for _ in range(exponent.value - 1):
                result = self.c_binary(A.BinaryOp.MUL, result, left, node)
            return result if exponent.value else self.convert_to(result, left.type.unqualified())
        lt, rt = left.type.unqualified(), right.type.unqualified()
        if lt.is_integer and rt.is_integer:
            raise self.fail(node, f"an integer power needs a constant exponent from 0 to "
                                  f"{MAX_MULTIPLIED_POWER}; for others convert the base to a float")
        common = usual_arithmetic(lt, rt) if lt.is_scalar and rt.is_scalar else T.FLOAT
        if common.is_integer:
            common = T.FLOAT
        return self.builtin_call("pow", [self.convert_to(left, common), self.convert_to(right, common)], node)

    def comparison(self, op: A.BinaryOp, left: A.Expr, right: A.Expr, node) -> A.Expr:
        lt, rt = left.type.unqualified(), right.type.unqualified()
        if lt.is_integer and rt.is_integer and lt.is_scalar and rt.is_scalar and \
                lt.signed != rt.signed and not (lt.is_bool or rt.is_bool):
            unsigned = lt if not lt.signed else rt
            if unsigned.size >= 8:
                raise self.fail(node, f"comparing a signed with a 64-bit unsigned integer ('{lt}' and "
                                      f"'{rt}'): convert one of them first")
            left, right = self.convert_to(left, T.LONG), self.convert_to(right, T.LONG)
        return self.c_binary(op, left, right, node)


def _non_negative_constant(e: A.Expr) -> bool:
    return isinstance(e, A.IntLiteral) and e.value >= 0


def _power_of_two(e: A.Expr) -> int | None:
    """k when e is the integer constant 2**k (k >= 0): `x // 2**k` is `x >> k` and `x % 2**k` is
    `x & (2**k - 1)` for every x, negative ones included (an arithmetic shift rounds down)."""
    if isinstance(e, A.IntLiteral) and e.type.is_integer and e.value > 0 and e.value & (e.value - 1) == 0:
        return e.value.bit_length() - 1
    return None


def _read_once(node) -> bool:
    """Whether an expression may be evaluated more than once with the same result and no effect."""
    return all(not isinstance(sub, ast.Call) for sub in ast.walk(node))
