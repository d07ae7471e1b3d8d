"""The parser's view of the token list: a cursor, error reporting and typedef scopes.

Shared by the expression, declaration and statement parsers (parse_expr.py, parse_decl.py,
parser.py). Syntax errors are reported to the diagnostics and then raise `SyntaxRecovery`, which
the statement and top-level loops catch to skip to a synchronization point (`;` or `}`), so one
mistake costs one message. A missing `;` is reported and assumed present, as clang does.

C needs to know which identifiers are typedef names to parse `(T)x` and `T * x;`, so the parser
keeps a stack of scopes mapping names to a Type (a typedef) or None (an ordinary identifier that
hides an outer typedef), and a parallel stack for struct and union tags.
"""
from __future__ import annotations

from .diagnostics import Diagnostics
from .source import Location
from .tokens import Token, TokenKind
from .types import BUILTIN_TYPE_NAMES, ERROR, Record, Type
from .unsupported import TYPES as UNSUPPORTED_TYPES


_WORDS = (TokenKind.PUNCT, TokenKind.KEYWORD)


class SyntaxRecovery(Exception):
    """Raised after a syntax error has been reported; caught where parsing can resynchronize."""


class TokenCursor:
    def __init__(self, tokens: list[Token], diags: Diagnostics):
        self.tokens, self.pos, self.diags = tokens, 0, diags
        self.scopes: list[dict[str, Type | None]] = [dict(BUILTIN_TYPE_NAMES)]
        self.tags: list[dict[str, Record]] = [{}]   # struct/union tags, scoped alike

    # ---- cursor -------------------------------------------------------------------------------
    # `pos` never passes the EOF token that ends `tokens`, so `tokens[pos]` is always there.
    def peek(self, ahead: int = 0) -> Token:
        if not ahead:
            return self.tokens[self.pos]
        try:
            return self.tokens[self.pos + ahead]
        except IndexError:  # past the end: the EOF token, again
            return self.tokens[-1]

    def next(self) -> Token:
        tok = self.tokens[self.pos]
        if tok.kind is not TokenKind.EOF:
            self.pos += 1
        return tok

    def at(self, text: str) -> bool:
        tok = self.tokens[self.pos]
        return tok.text == text and tok.kind in _WORDS

    def consume(self, text: str) -> Token | None:
        return self.next() if self.at(text) else None

    def expect(self, text: str, context: str = "") -> Token:
        if self.at(text):
            return self.next()
        self.fail(self.peek(), f"expected '{text}'{context}")

    def expect_semicolon(self, after: str) -> None:
        """A missing ';' is reported after the previous token and assumed present."""
        if not self.consume(";"):
            self.diags.error(self.end_of_previous(), f"expected ';' {after}")

    def end_of_previous(self) -> Location:
        prev = self.tokens[self.pos - 1] if self.pos else self.peek()
        return Location(prev.loc.file, prev.loc.line, prev.loc.column + len(prev.text))

    def expect_identifier(self, what: str = "identifier") -> Token:
        tok = self.peek()
        if tok.kind is not TokenKind.IDENT:
            self.fail(tok, f"expected {what}")
        return self.next()

    def fail(self, tok: Token, message: str):
        if tok.kind is TokenKind.EOF:
            message += " at end of input"
        self.diags.error(tok.loc, message, max(len(tok.text), 1))
        raise SyntaxRecovery()

    def skip_to_sync(self) -> None:
        """Skip past the next ';' (or up to a '}' closing the current block), balancing braces."""
        depth = 0
        while self.peek().kind is not TokenKind.EOF:
            tok = self.peek()
            if tok.is_("{"):
                depth += 1
            elif tok.is_("}"):
                if depth == 0:
                    return
                depth -= 1
                if depth == 0:
                    self.next()
                    return
            elif tok.is_(";") and depth == 0:
                self.next()
                return
            self.next()

    # ---- typedef scopes -----------------------------------------------------------------------
    def push_scope(self) -> None:
        self.scopes.append({})
        self.tags.append({})

    def pop_scope(self) -> None:
        self.scopes.pop()
        self.tags.pop()

    def declare_name(self, name: str, typedef: Type | None) -> None:
        self.scopes[-1][name] = typedef

    def typedef_named(self, tok: Token) -> Type | None:
        if tok.kind is not TokenKind.IDENT:
            return None
        for scope in reversed(self.scopes):
            if tok.text in scope:
                return scope[tok.text]
        if tok.text in UNSUPPORTED_TYPES:  # parsed as a type; declspec reports it
            return ERROR
        return None
