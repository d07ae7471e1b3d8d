"""C's printf conversions in Python (loomcl/printf/render.py) against glibc's output, and the
properties every conversion keeps."""
from __future__ import annotations

import math
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from loomcl.printf import parse_format, render
from loomcl.printf.render import python_spec
from loomcl.printf.format_spec import Storage


def conversion(text: str):
    return parse_format(text.encode())[0]


def fmt(text: str, value) -> str:
    """One conversion and the literal text after it."""
    first, *rest = parse_format(text.encode())
    return render(first, value) + b"".join(rest).decode()


# (conversion, value, what glibc's printf prints)
GLIBC = [
    ("%a", 1.0, "0x1p+0"), ("%a", 3.0, "0x1.8p+1"), ("%.0a", 1.5, "0x2p+0"), ("%.1a", 1.99999, "0x2.0p+0"),
    ("%a", 0.1, "0x1.999999999999ap-4"), ("%a", 5e-324, "0x0.0000000000001p-1022"), ("%A", -2.5, "-0X1.4P+1"),
    ("%10.2a", 1.0, " 0x1.00p+0"), ("%-12a", 0.5, "0x1p-1      "), ("%+a", 7.0, "+0x1.cp+2"),
    ("%#.0a", 1.0, "0x1.p+0"), ("%a", 0.0, "0x0p+0"), ("%a", -0.0, "-0x0p+0"), ("%012a", 1.0, "0x0000001p+0"),
    ("%05.3d", 7, "  007"), ("%.0d", 0, ""), ("%#o", 8, "010"), ("%#o", 0, "0"), ("%#x", 0, "0"),
    ("%#x", 255, "0xff"), ("%#.3o", 8, "010"), ("%+d", 0, "+0"), ("% 5d", 42, "   42"), ("%-+5d|", 3, "+3   |"),
    ("%08.3f", -3.5, "-003.500"), ("%05f", math.inf, "  inf"), ("%-6f|", math.nan, "nan   |"),
    ("%f", -math.nan, "-nan"), ("%F", -math.inf, "-INF"), ("%E", math.nan, "NAN"), ("%+e", math.inf, "+inf"),
    ("%e", 1e301, "1.000000e+301"), ("%g", 1e-5, "1e-05"), ("%#g", 1.5, "1.50000"), ("%G", 1e20, "1E+20"),
    ("%.10g", 1 / 3, "0.3333333333"), ("%010.4g", 3.14159, "000003.142"), ("%+.2f", -0.0, "-0.00"),
    ("%hhd", 300, "44"), ("%hhu", -1, "255"), ("%hd", 70000, "4464"), ("%hx", -1, "ffff"),
    ("%c", 65, "A"), ("%5c", ord("x"), "    x"), ("%-3c|", ord("y"), "y  |"),
    ("%p", 0x1234, "0x1234"), ("%8p", 0, "   (nil)"), ("%lx", 2**64 - 1, "ffffffffffffffff"),
    ("%lu", 2**64 - 1, "18446744073709551615"), ("%X", 3054, "BEE"), ("%#X", 3054, "0XBEE"), ("%.3x", 5, "005"),
]


@pytest.mark.parametrize("text, value, expected", GLIBC)
def test_conversions_print_as_glibc_does(text, value, expected):
    assert fmt(text, value) == expected


def test_vector_lanes_are_joined_with_commas_each_with_the_whole_spec():
    assert fmt("%5.1v3hlf", [1.25, -2.0, 30.0]) == "  1.2, -2.0, 30.0"
    assert fmt("%#v2hhx", [0, 255]) == "0,0xff"


@given(st.floats(allow_nan=False, allow_infinity=False))
def test_hex_floats_read_back_exactly(x):
    assert float.fromhex(fmt("%a", x)) == x


@given(st.floats(allow_nan=False, allow_infinity=False), st.integers(0, 12))
def test_rounded_hex_floats_are_within_half_a_last_digit(x, precision):
    text = fmt(f"%.{precision}a", x)
    mantissa, exponent = text.lstrip("-").removeprefix("0x").split("p")
    lead, _, digits = mantissa.partition(".")
    assert len(digits) == precision
    value = Fraction(int(lead + digits, 16), 16 ** precision) * Fraction(2) ** int(exponent)
    assert abs(value - abs(Fraction(x))) <= Fraction(2) ** int(exponent) / 16 ** precision / 2


@given(st.integers(-2**63, 2**63 - 1), st.sampled_from(["", "-", "+", " ", "0", "-+"]),
       st.one_of(st.none(), st.integers(0, 30)), st.one_of(st.none(), st.integers(0, 25)))
def test_integers_keep_their_value_width_and_precision(value, flags, width, precision):
    spec = "%" + flags + (str(width) if width is not None else "") + \
           (f".{precision}" if precision is not None else "") + "ld"
    text = fmt(spec, value)
    assert len(text) >= (width or 0)
    digits = text.strip().lstrip("+-")
    assert int(digits or "0") == abs(value)
    if precision is not None:
        assert len(digits) >= precision


def test_storage_follows_the_conversion():
    assert conversion("%d").storage == Storage("int", 4)
    assert conversion("%lu").storage == Storage("uint", 8)
    assert conversion("%hhx").storage == Storage("uint", 4)  # promoted to int, narrowed when printed
    assert conversion("%f").storage == Storage("float", 8)
    assert conversion("%v4hlf").storage == Storage("float", 4, 4)
    assert conversion("%v2hlx").storage == Storage("uint", 4, 2)
    assert conversion("%v16hhd").storage == Storage("int", 1, 16)
    assert conversion("%v3lf").storage == Storage("float", 8, 3)
    assert conversion("%c").storage == Storage("int", 4)
    assert conversion("%p").storage == Storage("pointer", 8)


@pytest.mark.parametrize("text, value, expected", GLIBC)
def test_python_templates_agree_with_c_where_they_are_used(text, value, expected):
    first, *rest = parse_format(text.encode())
    spec = python_spec(first)
    if spec is not None and math.isfinite(value):
        assert (spec % value) + b"".join(rest).decode() == expected


def test_python_templates_are_refused_where_python_differs_from_c():
    for text in ("%.3d", "%#o", "%#x", "%hhd", "%hu", "%c", "%a", "%p"):
        assert python_spec(conversion(text)) is None, text
    assert python_spec(conversion("%-8.3v2hlf")) == "%-8.3f,%-8.3f"
