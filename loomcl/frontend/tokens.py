"""Tokens: what the lexer produces and the preprocessor and parser consume.

The lexer produces preprocessing tokens (C 6.4): numbers stay `PP_NUMBER` text because the
preprocessor may paste them; after preprocessing, `finish_tokens` (lexer.py) turns numbers into
INT/FLOAT tokens with their value and type and marks keywords. `hideset` is Prosser's set of macro
names that must not expand this token again (see preprocessor.py).
"""
from __future__ import annotations

import enum
from typing import Any

from .source import Location


class TokenKind(enum.Enum):
    IDENT = "identifier"
    KEYWORD = "keyword"
    PUNCT = "punctuator"
    PP_NUMBER = "number"
    INT = "integer literal"
    FLOAT = "floating literal"
    CHAR = "character literal"
    STRING = "string literal"
    EOF = "end of file"


NO_NAMES: frozenset[str] = frozenset()


class Token:
    """One token. A plain class with slots, not a dataclass: a large program makes a million."""

    __slots__ = ("kind", "text", "loc", "at_bol", "has_space", "hideset", "value", "type")

    def __init__(self, kind: TokenKind, text: str, loc: Location, at_bol: bool = False,
                 has_space: bool = False, hideset: frozenset[str] = NO_NAMES, value: Any = None,
                 type: Any = None):
        self.kind = kind
        self.text = text
        self.loc = loc
        self.at_bol = at_bol            # first token of a line (directives start here)
        self.has_space = has_space      # preceded by whitespace (for stringizing)
        self.hideset = hideset          # macro names that must not expand this token (Prosser)
        self.value = value              # int/float value of a literal, bytes of a string
        self.type = type                # types.Type of a literal, after finish_tokens

    def is_(self, text: str) -> bool:
        """True for a punctuator, keyword or identifier spelled `text`."""
        return self.text == text and self.kind in (TokenKind.PUNCT, TokenKind.KEYWORD, TokenKind.IDENT)

    def copy(self, **changes) -> "Token":
        new = Token(self.kind, self.text, self.loc, self.at_bol, self.has_space, self.hideset, self.value,
                    self.type)
        for name, value in changes.items():
            setattr(new, name, value)
        return new

    def expanded_at(self, loc: Location, hideset: frozenset[str]) -> "Token":
        """A copy placed at a macro's use site (not at a line start), with `hideset` added."""
        own = self.hideset
        return Token(self.kind, self.text, loc, False, self.has_space, own | hideset if own else hideset,
                     self.value, self.type)

    def __repr__(self) -> str:
        return f"Token({self.kind.name}, {self.text!r}, {self.loc.line}:{self.loc.column})"


KEYWORDS = frozenset("""
    void bool char short int long unsigned signed float double half
    const volatile restrict __const __const__ __volatile __volatile__ __restrict __restrict__
    typedef static extern inline __inline __inline__
    if else for while do switch case default break continue return goto sizeof
    _Alignof __alignof __alignof__
    struct union enum
    __kernel kernel __global global __local local __constant constant __private private
    __generic generic __attribute__ __read_only read_only __write_only write_only
    __read_write read_write _Bool
""".split())
