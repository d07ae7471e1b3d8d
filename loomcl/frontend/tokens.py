"""Tokens: what the lexer produces and the preprocessor and parser consume.

The lexer produces preprocessing tokens (C 6.4): numbers stay `PP_NUMBER` text because the
preprocessor may paste them; after preprocessing, `finish_tokens` (lexer.py) turns numbers into
INT/FLOAT tokens with their value and type and marks keywords. `hideset` is Prosser's set of macro
names that must not expand this token again (see preprocessor.py).
"""
from __future__ import annotations

import enum
from dataclasses import dataclass, field, replace
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


@dataclass(eq=False)
class Token:
    kind: TokenKind
    text: str
    loc: Location
    at_bol: bool = False        # first token of a line (directives start here)
    has_space: bool = False     # preceded by whitespace (for stringizing)
    hideset: frozenset[str] = field(default_factory=frozenset)
    value: Any = None           # int/float value of a literal, bytes of a string
    type: Any = None            # types.Type of a literal, after finish_tokens

    def is_(self, text: str) -> bool:
        """True for a punctuator, keyword or identifier spelled `text`."""
        return self.text == text and self.kind in (TokenKind.PUNCT, TokenKind.KEYWORD, TokenKind.IDENT)

    def copy(self, **changes) -> "Token":
        return replace(self, **changes)

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
