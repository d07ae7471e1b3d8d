"""C's printf conversions, in Python, on values already read from a printf record.

Text is handled as latin-1 `str` (one character per byte), so `%c` and the bytes of the format pass
through unchanged; the runtime turns the finished bytes into text. Where Python's `%` operator and
C differ, the conversion is written out here: integers (C ignores the `0` flag when a precision is
given and prints nothing for `%.0d` of 0; `%#o` is a leading 0, and `%#x` of 0 has no prefix),
infinities and NaNs (`inf`, `-nan`, never zero-padded; glibc prints the sign of a NaN), `%a`
(Python has none; glibc's form: `0x1.8p+1`, trailing zeros dropped unless a precision is given,
subnormals as `0x0.…p-1022`) and `%p` (glibc: `0x…`, `(nil)` for a null pointer). Finite `%f %e %g`
go through Python's `%`, which follows C for them. Lanes of a vector are converted one by one with
the same flags, width and precision, and joined with commas (OpenCL C 6.12.13.2).
"""
from __future__ import annotations

import math

from .format_spec import Conversion

_INTEGER_BASES = {"d": 10, "i": 10, "u": 10, "o": 8, "x": 16, "X": 16}
_NARROW_BITS = {"hh": 8, "h": 16}


def render(conv: Conversion, value) -> str:
    """The text of one conversion; `value` is a list of lanes for a vector specifier."""
    if conv.lanes:
        return ",".join(_scalar(conv, lane) for lane in value)
    return _scalar(conv, value)


def python_spec(conv: Conversion) -> str | None:
    """The conversion as a Python `%` spec (lanes joined by commas) where Python's output equals
    C's for finite values; None where it may not (integer precision, `#` on integers, narrowing
    length modifiers, `%c`, `%a`, `%p`). The runtime uses it to render whole records at once."""
    c = conv.conversion
    if c in "aAcp" or (conv.is_integer and (conv.precision is not None or "#" in conv.flags)) \
            or (not conv.lanes and conv.length in _NARROW_BITS):
        return None
    spec = "%" + conv.flags + (str(conv.width) if conv.width else "")
    if conv.precision is not None:
        spec += f".{conv.precision}"
    spec += c
    return ",".join([spec] * conv.lanes) if conv.lanes else spec


def _scalar(conv: Conversion, value) -> str:
    c = conv.conversion
    if conv.is_integer:
        return _integer(conv, _narrowed(conv, int(value)))
    if c in "aA":
        return _hex_float(conv, float(value))
    if conv.is_float:
        return _float(conv, float(value))
    if c == "c":
        return _pad(conv, "", chr(int(value) & 0xFF), zero=False)
    if c == "p":
        return _pad(conv, "", f"0x{int(value):x}" if value else "(nil)", zero=False)
    raise ValueError(f"no argument is converted by {conv.text}")


def _narrowed(conv: Conversion, value: int) -> int:
    """A scalar `%hhd` or `%hu` prints its int argument converted to (unsigned) char or short."""
    bits = _NARROW_BITS.get(conv.length) if not conv.lanes else None
    if bits is None:
        return value
    value &= (1 << bits) - 1
    if conv.conversion in "di" and value >> (bits - 1):
        value -= 1 << bits
    return value


def _integer(conv: Conversion, value: int) -> str:
    c, flags = conv.conversion, conv.flags
    digits = "" if conv.precision == 0 and value == 0 else _digits(abs(value), _INTEGER_BASES[c])
    if c == "X":
        digits = digits.upper()
    if conv.precision is not None:
        digits = digits.rjust(conv.precision, "0")
    if c == "o" and "#" in flags and not digits.startswith("0"):
        digits = "0" + digits
    prefix = _sign(value < 0, flags) if c in "di" else ""
    if c in "xX" and "#" in flags and value != 0:
        prefix = "0" + c
    return _pad(conv, prefix, digits, zero=conv.precision is None)


def _digits(value: int, base: int) -> str:
    return {10: str, 8: lambda v: format(v, "o"), 16: lambda v: format(v, "x")}[base](value)


def _float(conv: Conversion, value: float) -> str:
    if not math.isfinite(value):
        return _non_finite(conv, value)
    spec = "%" + conv.flags + (str(conv.width) if conv.width else "")
    if conv.precision is not None:
        spec += f".{conv.precision}"
    return (spec + conv.conversion) % value


def _non_finite(conv: Conversion, value: float) -> str:
    text = "nan" if math.isnan(value) else "inf"
    if conv.conversion.isupper():
        text = text.upper()
    return _pad(conv, _sign(math.copysign(1.0, value) < 0, conv.flags), text, zero=False)


def _hex_float(conv: Conversion, value: float) -> str:
    if not math.isfinite(value):
        return _non_finite(conv, value)
    negative = math.copysign(1.0, value) < 0
    lead, fraction, exponent = _hex_parts(abs(value))
    digits = 13
    if conv.precision is not None and conv.precision < digits:
        lead, fraction = _round_fraction(lead, fraction, digits - conv.precision)
        digits = conv.precision
    text = format(fraction, "x").rjust(digits, "0") if digits else ""
    if conv.precision is None:
        text = text.rstrip("0")
    elif conv.precision > digits:
        text = text.ljust(conv.precision, "0")
    point = "." if text or "#" in conv.flags else ""
    body = f"{lead}{point}{text}p{exponent:+d}"
    prefix = _sign(negative, conv.flags) + "0x"
    if conv.conversion == "A":
        body, prefix = body.upper(), prefix.upper()
    return _pad(conv, prefix, body, zero=True)


def _hex_parts(value: float) -> tuple[int, int, int]:
    """(leading digit, 52-bit fraction, binary exponent) of a finite non-negative double, as glibc
    writes them: 1.f for normal numbers, 0.f * 2**-1022 for subnormals, 0 as 0x0p+0."""
    if value == 0:
        return 0, 0, 0
    mantissa, exponent = math.frexp(value)  # value = mantissa * 2**exponent, 0.5 <= mantissa < 1
    if exponent - 1 < -1022:
        return 0, int(math.ldexp(value, 1074)), -1022
    return 1, int(math.ldexp(mantissa, 53)) - (1 << 52), exponent - 1


def _round_fraction(lead: int, fraction: int, dropped_digits: int) -> tuple[int, int]:
    """Drop the last hex digits of the fraction, rounding to nearest, ties to even; a carry goes
    into the leading digit (glibc prints `0x2p+0`, not a renormalized `0x1p+1`)."""
    shift = 4 * dropped_digits
    whole = (lead << 52) | fraction
    kept, rest = whole >> shift, whole & ((1 << shift) - 1)
    half = 1 << (shift - 1)
    if rest > half or (rest == half and kept & 1):
        kept += 1
    width = 52 - shift
    return kept >> width, kept & ((1 << width) - 1)


def _sign(negative: bool, flags: str) -> str:
    if negative:
        return "-"
    return "+" if "+" in flags else " " if " " in flags else ""


def _pad(conv: Conversion, prefix: str, body: str, zero: bool) -> str:
    """Pad to the field width: on the right with `-`, with zeros after the sign and prefix with
    `0` (where the conversion allows it), else with spaces on the left."""
    width = conv.width or 0
    fill = width - len(prefix) - len(body)
    if fill <= 0:
        return prefix + body
    if "-" in conv.flags:
        return prefix + body + " " * fill
    if zero and "0" in conv.flags:
        return prefix + "0" * fill + body
    return " " * fill + prefix + body
