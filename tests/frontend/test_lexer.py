import math

import pytest
from hypothesis import given, strategies as st

from loomcl.frontend import types as T
from loomcl.frontend.tokens import TokenKind

from .util import tokens_of


def one(source: str):
    tokens, diags = tokens_of(source)
    assert diags.error_count == 0, [d.render() for d in diags.messages]
    assert len(tokens) == 1, tokens
    return tokens[0]


@pytest.mark.parametrize("text, value, type_", [
    ("0", 0, T.INT), ("42", 42, T.INT), ("0x2A", 42, T.INT), ("052", 42, T.INT),
    ("42u", 42, T.UINT), ("42U", 42, T.UINT), ("42l", 42, T.LONG), ("42ul", 42, T.ULONG),
    ("42LU", 42, T.ULONG), ("42ll", 42, T.LONG), ("42ull", 42, T.ULONG),
    ("2147483647", 2147483647, T.INT), ("2147483648", 2147483648, T.LONG),
    ("0x80000000", 0x80000000, T.UINT), ("0xffffffffffffffff", 2**64 - 1, T.ULONG),
    ("4294967295u", 4294967295, T.UINT), ("4294967296u", 4294967296, T.ULONG),
])
def test_integer_literals(text, value, type_):
    tok = one(text)
    assert tok.kind is TokenKind.INT and tok.value == value and tok.type == type_


@pytest.mark.parametrize("text, value, type_", [
    ("1.5", 1.5, T.DOUBLE), ("1.5f", 1.5, T.FLOAT), ("1.5F", 1.5, T.FLOAT), (".5", 0.5, T.DOUBLE),
    ("1.", 1.0, T.DOUBLE), ("1e3", 1000.0, T.DOUBLE), ("1.5e-3f", 0.0015, T.FLOAT),
    ("2E+2", 200.0, T.DOUBLE), ("0x1p-2", 0.25, T.DOUBLE), ("0x1.8p1f", 3.0, T.FLOAT),
    ("0x1.fffffep127f", 3.4028234663852886e38, T.FLOAT), ("1.0h", 1.0, T.HALF),
])
def test_float_literals(text, value, type_):
    tok = one(text)
    assert tok.kind is TokenKind.FLOAT and tok.value == value and tok.type == type_


@pytest.mark.parametrize("text, value", [
    ("'a'", 97), ("'\\n'", 10), ("'\\0'", 0), ("'\\x41'", 65), ("'\\101'", 65), ("'\\''", 39),
    ("'\\\\'", 92), ("'\\xff'", -1),
])
def test_char_literals_have_type_int(text, value):
    tok = one(text)
    assert tok.value == value and tok.type == T.INT


def test_string_literal_escapes():
    assert one('"a\\tb\\n"').value == b"a\tb\n"


def test_punctuators_longest_match():
    tokens, _ = tokens_of("a<<=b>>=c->d++--e...f##g&&h||i!=j")
    texts = [t.text for t in tokens]
    assert texts == ["a", "<<=", "b", ">>=", "c", "->", "d", "++", "--", "e", "...", "f", "##",
                     "g", "&&", "h", "||", "i", "!=", "j"]


def test_keywords_and_identifiers():
    tokens, _ = tokens_of("__kernel kernel_fn global int uint")
    assert [t.kind for t in tokens] == [TokenKind.KEYWORD, TokenKind.IDENT, TokenKind.KEYWORD,
                                        TokenKind.KEYWORD, TokenKind.IDENT]


def test_comments_and_line_continuation_keep_locations():
    tokens, _ = tokens_of("a /* one\ntwo */ b // three\n  c \\\n d")
    assert [(t.text, t.loc.line, t.loc.column) for t in tokens] == [
        ("a", 1, 1), ("b", 2, 8), ("c", 3, 3), ("d", 4, 2)]


def test_bad_literals_are_diagnosed():
    _, diags = tokens_of("0x 1.2.3 08 'ab'")
    assert diags.error_count == 4


def test_unterminated_comment_and_bad_character():
    _, diags = tokens_of("a @ /* never closed")
    messages = [d.message for d in diags.messages]
    assert "invalid character '@' in source" in messages
    assert "unterminated /* comment" in messages


@given(st.integers(min_value=0, max_value=2**64 - 1),
       st.sampled_from(["{}", "{:#x}", "{:#X}", "0{:o}"]),
       st.sampled_from(["", "u", "U", "l", "ul", "UL", "ll", "ull"]))
def test_integer_literal_round_trip(value, style, suffix):
    text = style.format(value).replace("0o", "") + suffix
    if text.startswith("00"):
        text = text[1:]
    if value > 2**63 - 1 and suffix in ("", "l", "ll") and style == "{}":
        return  # a decimal literal without u that fits no signed type is an error
    tok = one(text)
    assert tok.value == value
    assert tok.type.min_value <= value <= tok.type.max_value
    if "u" in suffix.lower():
        assert not tok.type.signed


@given(st.floats(min_value=0, allow_nan=False, allow_infinity=False), st.booleans())
def test_float_literal_round_trip(value, as_hex):
    text = value.hex() if as_hex else repr(value)
    if "e" in text and "." not in text and not as_hex:
        text = text.replace("e", ".0e")
    if not as_hex and "." not in text and "e" not in text:
        text += ".0"
    tok = one(text)
    assert tok.kind is TokenKind.FLOAT and tok.type == T.DOUBLE
    assert tok.value == value or (math.isclose(tok.value, value))


@given(st.floats(width=32, allow_nan=False, allow_infinity=False, min_value=0))
def test_float_suffix_round_trip(value):
    tok = one(value.hex() + "f")
    assert tok.type == T.FLOAT and tok.value == value
