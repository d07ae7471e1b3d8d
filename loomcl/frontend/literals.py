"""Numeric and character literals: spelling to value and type (C 6.4.4, OpenCL C 6.1).

Integer literal types follow C's list rule, with OpenCL's 64-bit long standing in for long long:
decimal without suffix: int, long; octal/hex without suffix: int, uint, long, ulong; `u`: uint, ulong;
`l`/`ll`: long (then ulong for octal/hex); `ul`: ulong. A decimal literal too large for long is
ulong, as in clang, whose warning `implicitly_unsigned` lets the lexer give. Floating literals are double unless suffixed
`f` (float) or `h` (half); hex floats (`0x1.8p3`) are exact.
"""
from __future__ import annotations

import re

from . import types as T

_INT = re.compile(r"(0[xX][0-9a-fA-F]+|0[bB][01]+|0[0-7]*|[1-9][0-9]*)([uUlL]*)\Z")
_SUFFIXES = {"": "", "u": "u", "l": "l", "ll": "l", "ul": "ul", "lu": "ul", "ull": "ul", "llu": "ul"}
_DEC_FLOAT = re.compile(r"(([0-9]*\.[0-9]+|[0-9]+\.?)([eE][+-]?[0-9]+)?)([fFhHlL]?)\Z")
_HEX_FLOAT = re.compile(r"(0[xX]([0-9a-fA-F]*\.?[0-9a-fA-F]*)[pP][+-]?[0-9]+)([fFhHlL]?)\Z")


def parse_integer(text: str) -> tuple[int, T.IntegerType]:
    """Value and type of an integer literal; ValueError with a message if malformed."""
    m = _INT.match(text)
    if not m or m.group(2).lower() not in _SUFFIXES:
        raise ValueError(f"invalid integer literal '{text}'")
    digits, suffix = m.group(1), _SUFFIXES[m.group(2).lower()]
    value = _digits_value(digits)
    decimal = not digits.startswith("0") or digits == "0"
    for t in _candidates(suffix, decimal):
        if value <= t.max_value:
            return value, t
    if value <= T.ULONG.max_value:  # a signed list overflowed: ulong, as clang does (with a warning)
        return value, T.ULONG
    raise ValueError(f"integer literal '{text}' is too large for any integer type")


def implicitly_unsigned(text: str, t: T.IntegerType) -> bool:
    """Whether a literal took ulong only because its value overflowed the signed types."""
    m = _INT.match(text)
    decimal = not m.group(1).startswith("0")
    return t is T.ULONG and decimal and "u" not in m.group(2).lower()


def _digits_value(digits: str) -> int:
    if digits[:2] in ("0x", "0X"):
        return int(digits[2:], 16)
    if digits[:2] in ("0b", "0B"):
        return int(digits[2:], 2)
    if digits.startswith("0") and len(digits) > 1:
        return int(digits[1:], 8)
    return int(digits)


def _candidates(suffix: str, decimal: bool) -> tuple[T.IntegerType, ...]:
    if suffix == "ul":
        return (T.ULONG,)
    if suffix == "u":
        return (T.UINT, T.ULONG)
    if suffix == "l":
        return (T.LONG,) if decimal else (T.LONG, T.ULONG)
    return (T.INT, T.LONG) if decimal else (T.INT, T.UINT, T.LONG, T.ULONG)


def parse_float(text: str, single_precision_constant: bool = False) -> tuple[float, T.FloatType]:
    """Value and type of a floating literal; ValueError with a message if malformed."""
    m = _HEX_FLOAT.match(text)
    if m:
        value, suffix = float.fromhex(m.group(1)), m.group(3)
    else:
        m = _DEC_FLOAT.match(text)
        if not m or not _looks_floating(m.group(1)):
            raise ValueError(f"invalid floating literal '{text}'")
        value, suffix = float(m.group(1)), m.group(4)
    if suffix in "fF" and suffix:
        return value, T.FLOAT
    if suffix in ("h", "H"):
        return value, T.HALF
    return value, T.FLOAT if single_precision_constant else T.DOUBLE


def _looks_floating(body: str) -> bool:
    return "." in body or "e" in body or "E" in body


def is_floating_spelling(text: str) -> bool:
    """Whether a pp-number spells a floating literal (as opposed to an integer one)."""
    if text[:2] in ("0x", "0X"):
        return "p" in text or "P" in text
    return "." in text or (("e" in text or "E" in text) and text[-1:] not in "uUlL")


_ESCAPES = {"n": 10, "t": 9, "r": 13, "a": 7, "b": 8, "f": 12, "v": 11, "0": 0,
            "\\": 92, "'": 39, '"': 34, "?": 63}


def decode_escapes(body: str) -> list[int]:
    """The byte values of a character or string literal body (between the quotes)."""
    out, i = [], 0
    while i < len(body):
        if body[i] != "\\":
            out.extend(body[i].encode("utf-8"))
            i += 1
            continue
        out_value, i = _escape(body, i + 1)
        out.append(out_value & 0xFF)
    return out


def _escape(body: str, i: int) -> tuple[int, int]:
    c = body[i] if i < len(body) else "\\"
    if c == "x":
        m = re.match(r"[0-9a-fA-F]+", body[i + 1:])
        if not m:
            raise ValueError("\\x used with no following hex digits")
        return int(m.group(0), 16), i + 1 + len(m.group(0))
    m = re.match(r"[0-7]{1,3}", body[i:])
    if m:
        return int(m.group(0), 8), i + len(m.group(0))
    if c in _ESCAPES:
        return _ESCAPES[c], i + 1
    raise ValueError(f"unknown escape sequence '\\{c}'")
