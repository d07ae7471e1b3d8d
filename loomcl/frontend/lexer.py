"""Lexer: source text to preprocessing tokens, and preprocessing tokens to parser tokens.

`tokenize` scans one file left to right with one regular expression per token class (C 6.4):
identifiers, pp-numbers (which also swallow things like `1.5e+3f` and `0x1p-2`, as C requires),
character and string literals, and punctuators longest-first. Comments become whitespace; a
backslash-newline is skipped without starting a new line, so `#define` bodies may continue over
lines. Each token records its location, whether it starts a line (directives) and whether space
precedes it (stringizing).

`finish_tokens` runs after preprocessing: it classifies keywords and converts pp-numbers to INT or
FLOAT tokens with value and type, reporting malformed literals.
"""
from __future__ import annotations

import re

from . import literals
from . import types as T
from .diagnostics import Diagnostics
from .source import Location, SourceFile
from .tokens import KEYWORDS, Token, TokenKind

_IDENT = re.compile(r"[A-Za-z_][A-Za-z_0-9]*")
_PP_NUMBER = re.compile(r"\.?[0-9](?:[eEpP][+-]|[A-Za-z_0-9.])*")
_CHAR = re.compile(r"'(?:\\.|[^'\\\n])*'")
_STRING = re.compile(r'"(?:\\.|[^"\\\n])*"')
_PUNCTS = sorted("""<<= >>= ... -> ++ -- << >> <= >= == != && || += -= *= /= %= &= |= ^= ##
    + - * / % & | ^ ~ ! < > = ? : ; , . ( ) [ ] { } #""".split(), key=len, reverse=True)
_PUNCT = re.compile("|".join(re.escape(p) for p in _PUNCTS))
# One pattern for all kinds, tried in this order (an alternation takes its first alternative that
# matches, as trying the patterns one after another would): one match per token instead of five.
_BLANKS = re.compile(r"[ \t\r\f\v]+")
_TOKEN_KINDS = (TokenKind.IDENT, TokenKind.PP_NUMBER, TokenKind.CHAR, TokenKind.STRING, TokenKind.PUNCT)
_TOKEN = re.compile("|".join(f"({p.pattern})" for p in (_IDENT, _PP_NUMBER, _CHAR, _STRING, _PUNCT)))


class _Scanner:
    """Position state while scanning one file."""

    def __init__(self, file: SourceFile, diags: Diagnostics):
        self.file, self.text, self.diags = file, file.text, diags
        self.pos, self.line, self.line_start = 0, 1, 0
        self.at_bol, self.has_space = True, False

    def location(self) -> Location:
        return Location(self.file, self.line, self.pos - self.line_start + 1)

    def newline(self) -> None:
        self.line += 1
        self.line_start = self.pos

    def skip_space(self) -> None:
        """Skip whitespace, comments and line continuations, updating at_bol and has_space."""
        text = self.text
        while self.pos < len(text):
            c = text[self.pos]
            if c == "\n":
                self.pos += 1
                self.newline()
                self.at_bol, self.has_space = True, False
            elif c in " \t\r\f\v":
                self.pos = _BLANKS.match(text, self.pos).end()
                self.has_space = True
            elif c not in "\\/":  # neither a line continuation nor a comment: a token
                return
            elif text.startswith("\\\n", self.pos) or text.startswith("\\\r\n", self.pos):
                self.pos = text.index("\n", self.pos) + 1
                self.newline()
                self.has_space = True
            elif text.startswith("//", self.pos):
                end = text.find("\n", self.pos)
                self.pos = len(text) if end < 0 else end
                self.has_space = True
            elif text.startswith("/*", self.pos):
                self.block_comment()
            else:
                return

    def block_comment(self) -> None:
        start = self.location()
        end = self.text.find("*/", self.pos + 2)
        if end < 0:
            self.diags.error(start, "unterminated /* comment")
            end = len(self.text) - 2
        newlines = self.text.count("\n", self.pos, end)
        if newlines:
            self.line += newlines
            self.line_start = self.text.rfind("\n", self.pos, end) + 1
        self.pos = end + 2
        self.has_space = True

    def next_token(self) -> Token:
        self.skip_space()
        loc = self.location()
        if self.pos >= len(self.text):
            return Token(TokenKind.EOF, "", loc, at_bol=True)
        kind, length = self.classify()
        text = self.text[self.pos:self.pos + length]
        tok = Token(kind, text, loc, at_bol=self.at_bol, has_space=self.has_space)
        self.pos += length
        self.at_bol = self.has_space = False
        return tok

    def classify(self) -> tuple[TokenKind, int]:
        """The kind and length of the token at pos (errors become one-character punctuators)."""
        m = _TOKEN.match(self.text, self.pos)
        if m:
            return _TOKEN_KINDS[m.lastindex - 1], m.end() - self.pos
        c = self.text[self.pos]
        if c in "'\"":
            self.diags.error(self.location(), f"missing terminating {c} character")
            end = self.text.find("\n", self.pos)
            return TokenKind.PUNCT, (len(self.text) if end < 0 else end) - self.pos
        self.diags.error(self.location(), f"invalid character '{c}' in source")
        return TokenKind.PUNCT, 1


def tokenize(file: SourceFile, diags: Diagnostics) -> list[Token]:
    """All preprocessing tokens of `file`, ending with one EOF token."""
    scanner = _Scanner(file, diags)
    tokens: list[Token] = []
    while True:
        tok = scanner.next_token()
        tokens.append(tok)
        if tok.kind is TokenKind.EOF:
            return tokens


def tokenize_text(text: str, diags: Diagnostics, name: str = "<built-in>") -> list[Token]:
    return tokenize(SourceFile(name, text), diags)


def finish_tokens(tokens: list[Token], diags: Diagnostics,
                  single_precision_constant: bool = False) -> list[Token]:
    """Classify keywords and evaluate literals after preprocessing (in place; returns tokens)."""
    for tok in tokens:
        if tok.kind is TokenKind.IDENT and tok.text in KEYWORDS:
            tok.kind = TokenKind.KEYWORD
        elif tok.kind is TokenKind.PP_NUMBER:
            _finish_number(tok, diags, single_precision_constant)
        elif tok.kind is TokenKind.CHAR:
            _finish_char(tok, diags)
        elif tok.kind is TokenKind.STRING:
            _finish_string(tok, diags)
    return tokens


def _finish_number(tok: Token, diags: Diagnostics, single: bool) -> None:
    try:
        if literals.is_floating_spelling(tok.text):
            tok.kind = TokenKind.FLOAT
            tok.value, tok.type = literals.parse_float(tok.text, single)
        else:
            tok.kind = TokenKind.INT
            tok.value, tok.type = literals.parse_integer(tok.text)
            if literals.implicitly_unsigned(tok.text, tok.type):
                diags.warning(tok.loc, "integer literal is too large to be represented in a signed "
                                       "integer type, interpreting as unsigned", len(tok.text))
    except ValueError as e:
        diags.error(tok.loc, str(e), len(tok.text))
        tok.kind, tok.value, tok.type = TokenKind.INT, 0, T.INT


def _finish_char(tok: Token, diags: Diagnostics) -> None:
    try:
        values = literals.decode_escapes(tok.text[1:-1])
    except ValueError as e:
        diags.error(tok.loc, str(e))
        values = [0]
    if len(values) != 1:
        diags.error(tok.loc, "character literal must hold exactly one character")
        values = values[:1] or [0]
    tok.value, tok.type = T.CHAR.wrap(values[0]), T.INT  # C: a char literal has type int


def _finish_string(tok: Token, diags: Diagnostics) -> None:
    try:
        tok.value = bytes(literals.decode_escapes(tok.text[1:-1]))
    except ValueError as e:
        diags.error(tok.loc, str(e))
        tok.value = b""
