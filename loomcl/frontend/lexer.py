"""Lexer: source text to preprocessing tokens, and preprocessing tokens to parser tokens.

A `Lexer` scans one file left to right with one compiled regular expression (`_TOKEN`) whose
alternatives are the token classes of C 6.4 (identifiers; pp-numbers, which also swallow things like
`1.5e+3f` and `0x1p-2`, as C requires; character and string literals; punctuators longest-first) and
what separates them (newlines, comments, line continuations): one match per token, with the blanks
before it, so no Python code runs per character. Comments become whitespace; a backslash-newline is
skipped without starting a new line, so `#define` bodies may continue over lines. Each token records
its location, whether it starts a line (directives) and whether space precedes it (stringizing).

The preprocessor pulls tokens a chunk at a time: everything up to the end of the next directive line.
When a conditional group is skipped, `skip_group` jumps over its raw text to the directive that
closes it (`_SKIPPED` recognizes only directive lines, comments and literals), so a skipped group is
never tokenized: large headers are mostly code for other devices.

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

_BLANK = r"[ \t\r\f\v]"
_IDENT = r"[A-Za-z_][A-Za-z_0-9]*"
_PP_NUMBER = r"\.?[0-9](?:[eEpP][+-]|[A-Za-z_0-9.])*"
_CHAR = r"'(?:\\.|[^'\\\n])*'"
_STRING = r'"(?:\\.|[^"\\\n])*"'
_PUNCTS = sorted("""<<= >>= ... -> ++ -- << >> <= >= == != && || += -= *= /= %= &= |= ^= ##
    + - * / % & | ^ ~ ! < > = ? : ; , . ( ) [ ] { } #""".split(), key=len, reverse=True)
_PUNCT = "|".join(re.escape(p) for p in _PUNCTS)
_BLOCK_COMMENT = r"/\*(?s:.*?)\*/"

# Blanks, then one of these groups. An alternation takes its first alternative that matches, so
# identifiers come before numbers (`e1`), numbers before the `.` punctuator (`.5`), comments before
# the `/` punctuator, and an unterminated comment or any other character but a blank comes last
# (blanks at the end of the file match nothing).
(_NEWLINE, _IDENT_GROUP, _NUMBER_GROUP, _CHAR_GROUP, _STRING_GROUP, _LINE_COMMENT, _COMMENT,
 _OPEN_COMMENT, _CONTINUATION, _PUNCT_GROUP, _OTHER) = range(1, 12)
_TOKEN = re.compile(
    rf"{_BLANK}*(?:(\n)|({_IDENT})|({_PP_NUMBER})|({_CHAR})|({_STRING})|(//[^\n]*)|({_BLOCK_COMMENT})"
    rf"|(/\*)|(\\\r?\n)|({_PUNCT})|([^ \t\r\f\v]))")
_KIND_OF_GROUP = (None, None, TokenKind.IDENT, TokenKind.PP_NUMBER, TokenKind.CHAR, TokenKind.STRING,
                  None, None, None, None, TokenKind.PUNCT, None)

# What a skipped group is scanned for: the conditional directives (group 1 names one; blanks and
# comments may surround the `#`), and what could hide a `#` at a line start: comments, literals and
# line continuations (which take a `#` after them along: it is not at the start of a line).
_CONDITIONALS = "if|ifdef|ifndef|elif|else|endif"
_SPACE = rf"{_BLANK}*(?:{_BLOCK_COMMENT}{_BLANK}*)*"
_SKIPPED = re.compile(
    rf"^{_SPACE}\#{_SPACE}({_CONDITIONALS})\b|(/\*)(?:(?s:.*?)\*/)?|//[^\n]*|{_CHAR}|{_STRING}"
    rf"|\\\r?\n{_BLANK}*\#?", re.M)
_OPENS_GROUP = frozenset(("if", "ifdef", "ifndef"))


class Lexer:
    """The tokens of one file, produced a chunk at a time (`next_chunk`), and skipped conditional
    groups jumped over (`skip_group`)."""

    def __init__(self, file: SourceFile, diags: Diagnostics):
        self.file, self.text, self.diags = file, file.text, diags
        self.line, self.line_start = 1, 0    # the current line and the offset where it starts
        self.at_bol = True                   # nothing but blanks and comments since the last newline
        self.pos = 0                         # where the next match starts
        self._matches = _TOKEN.finditer(self.text)

    def next_chunk(self) -> list[Token]:
        """The next tokens, up to the end of the next directive line (a line starting with `#`),
        or up to and including EOF."""
        file, text = self.file, self.text
        line, line_start, at_bol, has_space = self.line, self.line_start, self.at_bol, False
        in_directive = False
        tokens: list[Token] = []
        append = tokens.append
        matches = self._matches
        while matches is not None:
            for m in matches:
                group = m.lastindex
                kind = _KIND_OF_GROUP[group]
                if kind is not None:
                    start = m.start(group)
                    spelling = m.group(group)
                    append(Token(kind, spelling, Location(file, line, start - line_start + 1), at_bol,
                                 has_space or start != m.start()))
                    if at_bol and spelling == "#" and kind is TokenKind.PUNCT:
                        in_directive = True
                    at_bol = has_space = False
                elif group == _NEWLINE:
                    line += 1
                    line_start = m.end()
                    at_bol, has_space = True, False
                    if in_directive:
                        self.line, self.line_start, self.at_bol, self.pos = line, line_start, True, line_start
                        return tokens
                elif group == _CONTINUATION:
                    line += 1
                    line_start = m.end()
                    has_space = True
                elif group == _LINE_COMMENT:
                    has_space = True
                else:  # a block comment, or something that is no token
                    self.line, self.line_start = line, line_start
                    self._odd_match(m, group, at_bol, has_space, tokens)
                    line, line_start = self.line, self.line_start
                    if group == _OTHER:
                        at_bol = has_space = False
                    else:
                        has_space = True
                    if self._matches is not matches:  # the scan goes on elsewhere
                        break
            else:
                break
            matches = self._matches
        self.pos = len(text)
        self.line, self.line_start, self.at_bol = line, line_start, True
        self._matches = iter(())
        append(Token(TokenKind.EOF, "", Location(file, line, len(text) - line_start + 1), at_bol=True))
        return tokens

    def _odd_match(self, m: re.Match, group: int, at_bol: bool, has_space: bool, tokens: list[Token]) -> None:
        """A block comment (lines counted), an unterminated one (reported; the file ends there), or
        a character no token starts with (reported; it becomes a punctuator, and an unterminated
        literal runs to the end of the line)."""
        text, start = self.text, m.start(group)
        if group == _COMMENT:
            self._count_lines(start, m.end())
            return
        loc = Location(self.file, self.line, start - self.line_start + 1)
        if group == _OPEN_COMMENT:
            self.diags.error(loc, "unterminated /* comment")
            self._count_lines(start, len(text))
            self._matches = iter(())
            return
        c = m.group(group)
        end = start + 1
        if c in "'\"":
            self.diags.error(loc, f"missing terminating {c} character")
            end = text.find("\n", start)
            end = len(text) if end < 0 else end
            self._matches = _TOKEN.finditer(text, end)
        else:
            self.diags.error(loc, f"invalid character '{c}' in source")
        tokens.append(Token(TokenKind.PUNCT, text[start:end], loc, at_bol, has_space or start != m.start()))

    def _count_lines(self, start: int, end: int) -> None:
        newlines = self.text.count("\n", start, end)
        if newlines:
            self.line += newlines
            self.line_start = self.text.rfind("\n", start, end) + 1

    def skip_group(self, depth: int = 0) -> int | None:
        """Jump from the start of a line in a skipped conditional group to the start of the line of
        the `#elif`, `#else` or `#endif` that ends it, `depth` groups nested inside it being open:
        None, and that directive is the next chunk's start. At the end of the file first: the
        depth still open (the file's remaining chunk is its EOF)."""
        text = self.text
        pos = self.pos
        while True:
            m = _SKIPPED.search(text, pos)
            if m is None:
                break
            word = m.group(1)
            if m.group(2) is not None and not m.group(0).endswith("*/"):  # an unterminated comment
                self._count_lines(self.pos, m.start())
                self.pos = m.start()
                self._matches = _TOKEN.finditer(text, self.pos)
                return depth  # lexing from there reports it and ends the file
            pos = m.end()
            if word is None:
                continue
            if word in _OPENS_GROUP:
                depth += 1
            elif depth == 0:
                self._count_lines(self.pos, m.start())
                self.pos = m.start()
                self._matches = _TOKEN.finditer(text, self.pos)
                return None
            elif word == "endif":
                depth -= 1
        self._count_lines(self.pos, len(text))
        self.pos = len(text)
        self._matches = _TOKEN.finditer(text, self.pos)
        return depth


def tokenize(lexer: Lexer) -> list[Token]:
    """All preprocessing tokens of the lexer's file, ending with one EOF token."""
    tokens: list[Token] = []
    while not tokens or tokens[-1].kind is not TokenKind.EOF:
        tokens += lexer.next_chunk()
    return tokens


def tokenize_text(text: str, diags: Diagnostics, name: str = "<built-in>") -> list[Token]:
    return tokenize(Lexer(SourceFile(name, text), diags))


def finish_tokens(tokens: list[Token], diags: Diagnostics,
                  single_precision_constant: bool = False) -> list[Token]:
    """Classify keywords and evaluate literals after preprocessing (in place; returns tokens)."""
    numbers: dict[str, tuple] = {}  # spelling -> (kind, value, type) of a number without diagnostics
    ident, pp_number = TokenKind.IDENT, TokenKind.PP_NUMBER
    for tok in tokens:
        kind = tok.kind
        if kind is ident:
            if tok.text in KEYWORDS:
                tok.kind = TokenKind.KEYWORD
        elif kind is pp_number:
            known = numbers.get(tok.text)
            if known is not None:
                tok.kind, tok.value, tok.type = known
            elif _finish_number(tok, diags, single_precision_constant):
                numbers[tok.text] = tok.kind, tok.value, tok.type
        elif kind is TokenKind.CHAR:
            _finish_char(tok, diags)
        elif kind is TokenKind.STRING:
            _finish_string(tok, diags)
    return tokens


def _finish_number(tok: Token, diags: Diagnostics, single: bool) -> bool:
    """Whether the number needed no diagnostic."""
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
                return False
    except ValueError as e:
        diags.error(tok.loc, str(e), len(tok.text))
        tok.kind, tok.value, tok.type = TokenKind.INT, 0, T.INT
        return False
    return True


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
