"""Evaluation of `#if` / `#elif` conditions (C 6.10.1).

By the time this runs the preprocessor has replaced `defined X`, expanded macros and turned every
remaining identifier into 0, so the line holds only numbers, character literals and operators. The
evaluator is precedence climbing over C's binary operator table, plus unary operators, parentheses
and `?:`. Arithmetic is on 64-bit values; a value is unsigned if it came from an unsigned literal or
from an operation with an unsigned operand (C: intmax_t / uintmax_t), which matters for `<` and `>>`.
"""
from __future__ import annotations

from . import literals
from .tokens import Token, TokenKind

_MASK = (1 << 64) - 1
_BINARY_PRECEDENCE = {
    "||": 1, "&&": 2, "|": 3, "^": 4, "&": 5, "==": 6, "!=": 6,
    "<": 7, ">": 7, "<=": 7, ">=": 7, "<<": 8, ">>": 8, "+": 9, "-": 9, "*": 10, "/": 10, "%": 10,
}


class PPExprError(Exception):
    def __init__(self, token: Token, message: str):
        super().__init__(message)
        self.token = token


class _Value:
    """A 64-bit value and whether it is unsigned."""

    __slots__ = ("value", "unsigned")

    def __init__(self, value: int, unsigned: bool = False):
        value &= _MASK
        if not unsigned and value >> 63:
            value -= 1 << 64
        self.value, self.unsigned = value, unsigned


def evaluate(tokens: list[Token], end: Token) -> int:
    """The value of the condition `tokens`; raises PPExprError on a malformed expression.
    `end` locates errors about a missing operand at the end of the line."""
    parser = _Evaluator(tokens, end)
    result = parser.conditional()
    if parser.pos != len(tokens):
        raise PPExprError(tokens[parser.pos], "token is not a valid binary operator in a "
                                              "preprocessor subexpression")
    return result.value


class _Evaluator:
    def __init__(self, tokens: list[Token], end: Token):
        self.tokens, self.pos, self.end = tokens, 0, end

    def peek(self) -> Token:
        return self.tokens[self.pos] if self.pos < len(self.tokens) else self.end

    def take(self) -> Token:
        tok = self.peek()
        self.pos += 1
        return tok

    def expect(self, text: str) -> None:
        tok = self.take()
        if not tok.is_(text):
            raise PPExprError(tok, f"expected '{text}' in preprocessor expression")

    # conditional = binary(1) ("?" conditional ":" conditional)?
    def conditional(self) -> _Value:
        cond = self.binary(1)
        if not self.peek().is_("?"):
            return cond
        self.take()
        then = self.conditional()
        self.expect(":")
        other = self.conditional()
        chosen = then if cond.value else other
        return _Value(chosen.value, then.unsigned or other.unsigned)

    # binary(p) = unary (binop-of-precedence->=p binary(p+1))*
    def binary(self, min_prec: int) -> _Value:
        left = self.unary()
        while (prec := _BINARY_PRECEDENCE.get(self.peek().text)) and prec >= min_prec \
                and self.peek().kind is TokenKind.PUNCT:
            op = self.take()
            right = self.binary(prec + 1)
            left = _apply(op, left, right)
        return left

    # unary = ("+" | "-" | "!" | "~") unary | primary
    def unary(self) -> _Value:
        tok = self.peek()
        if tok.kind is TokenKind.PUNCT and tok.text in ("+", "-", "!", "~"):
            self.take()
            v = self.unary()
            if tok.text == "-":
                return _Value(-v.value, v.unsigned)
            if tok.text == "~":
                return _Value(~v.value, v.unsigned)
            if tok.text == "!":
                return _Value(int(not v.value))
            return v
        return self.primary()

    # primary = "(" conditional ")" | number | character
    def primary(self) -> _Value:
        tok = self.take()
        if tok.is_("("):
            v = self.conditional()
            self.expect(")")
            return v
        if tok.kind is TokenKind.PP_NUMBER:
            return _number(tok)
        if tok.kind is TokenKind.CHAR:
            values = literals.decode_escapes(tok.text[1:-1]) or [0]
            return _Value(values[0] - 256 if values[0] > 127 else values[0])
        if tok.kind is TokenKind.EOF or tok is self.end:
            raise PPExprError(tok, "expected value in expression")
        raise PPExprError(tok, f"invalid token '{tok.text}' at start of a preprocessor expression")


def _number(tok: Token) -> _Value:
    try:
        value, t = literals.parse_integer(tok.text)
    except ValueError:
        raise PPExprError(tok, f"invalid integer constant '{tok.text}' in preprocessor expression")
    return _Value(value, not t.signed or value >> 63 != 0)


def _apply(op: Token, a: _Value, b: _Value) -> _Value:
    unsigned = a.unsigned or b.unsigned
    x, y = (a.value & _MASK, b.value & _MASK) if unsigned else (a.value, b.value)
    text = op.text
    if text in ("/", "%") and y == 0:
        raise PPExprError(op, "division by zero in preprocessor expression")
    if text in ("<<", ">>"):
        return _shift(text, a, b.value)
    if text in ("==", "!=", "<", ">", "<=", ">=", "&&", "||"):
        return _Value(int(_compare(text, x, y)))
    return _Value(_arith(text, x, y), unsigned)


def _shift(text: str, a: _Value, count: int) -> _Value:
    if text == "<<":
        return _Value(a.value << (count & 63), a.unsigned)
    base = a.value & _MASK if a.unsigned else a.value
    return _Value(base >> (count & 63), a.unsigned)


def _compare(text: str, x: int, y: int) -> bool:
    return {"==": x == y, "!=": x != y, "<": x < y, ">": x > y, "<=": x <= y, ">=": x >= y,
            "&&": bool(x) and bool(y), "||": bool(x) or bool(y)}[text]


def _arith(text: str, x: int, y: int) -> int:
    if text == "/":
        return abs(x) // abs(y) * (1 if (x < 0) == (y < 0) else -1)
    if text == "%":
        return x - _arith("/", x, y) * y
    return {"+": x + y, "-": x - y, "*": x * y, "&": x & y, "|": x | y, "^": x ^ y}[text]
