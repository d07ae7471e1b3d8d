"""Preprocessor: tokens of a file to the tokens the parser sees (C 6.10).

Token based, like chibicc's `preprocess.c`. Input tokens sit on a stack (`_pending`, next token
last); a macro expansion pushes its replacement back onto the stack, so the result is rescanned
naturally. Infinite recursion is prevented with Prosser's hide sets (Dave Prosser, "Complete
description of the C preprocessing algorithm", 1986): every token carries the set of macro names it
must not expand. An object-like macro's replacement gets the name's hide set plus the name; a
function-like macro's replacement gets the intersection of the hide sets of the name and of the
closing parenthesis, plus the name. Arguments are fully macro-expanded before substitution unless
they are operands of `#` (stringize) or `##` (paste), which see the argument's spelling.

File tokens come from a stack of lexers (the file and the files it includes), a chunk at a time:
up to the end of the next directive line (lexer.py). Directives are recognized only at the start of
a line in file tokens (never in expansion results). Skipped conditional groups are never tokenized:
the lexer jumps over their text to the directive that ends them. `#if` lines have `defined`
replaced, are macro-expanded, have leftover identifiers replaced by 0, and are evaluated by pp_expr.

Tokens produced by an expansion take the location of the macro name at the use site, so diagnostics
point at code the user wrote.
"""
from __future__ import annotations

import os
from dataclasses import dataclass, field

from . import pp_expr
from .diagnostics import Diagnostics
from .lexer import Lexer, tokenize, tokenize_text
from .options import BuildOptions
from .predefined import EXTENSIONS, predefined_source
from .source import SourceFile
from .tokens import Token, TokenKind

_MAX_INCLUDES = 1000  # stops a file that includes itself without a guard


@dataclass
class Macro:
    name: str
    body: list[Token]
    params: list[str] | None = None      # None: object-like
    variadic: bool = False               # last parameter is __VA_ARGS__


@dataclass
class _Conditional:
    """One open #if group: where it started and whether some branch has been taken."""

    start: Token
    taken: bool
    seen_else: bool = False


@dataclass
class Preprocessor:
    options: BuildOptions
    diags: Diagnostics
    headers: dict[str, str] = field(default_factory=dict)  # `#include` name -> text, before files
    macros: dict[str, Macro] = field(default_factory=dict)
    _pending: list[Token] = field(default_factory=list)  # tokens before the lexer's, next one last
    _lexers: list[Lexer] = field(default_factory=list)   # the file being read and those including it
    _conditionals: list[_Conditional] = field(default_factory=list)
    _include_count: int = 0
    _once: set[str] = field(default_factory=set)  # real paths of files that said `#pragma once`
    files: dict[str, str | None] = field(default_factory=dict)
    """Every path the include search looked at: the text it read there, or None (no file there).
    The same texts at the same paths preprocess the same (driver/frontend_cache.py relies on it)."""

    # ---- driver -------------------------------------------------------------------------------
    def run(self, file: SourceFile) -> list[Token]:
        """Preprocess `file`: the predefined macros and -D/-U options apply first."""
        self._define_predefined()
        self._lexers = [Lexer(file, self.diags)]
        out: list[Token] = []
        append, pending, macros = out.append, self._pending, self.macros
        ident, punct, eof = TokenKind.IDENT, TokenKind.PUNCT, TokenKind.EOF
        while True:  # _next() and _expand(), inlined: this loop sees every token of the program
            if not pending:
                self._refill()
            tok = pending.pop()
            kind = tok.kind
            if kind is ident:
                if (tok.text in macros or tok.text in _DYNAMIC) and self._expand(tok):
                    continue
                append(tok)
            elif kind is punct and tok.at_bol and tok.text == "#":
                self._directive(tok)
            elif kind is eof:
                self._check_unterminated()
                append(tok)
                return out
            else:
                append(tok)

    def _define_predefined(self) -> None:
        text = predefined_source(self.options)
        for m in self.options.macros:
            text += f"#define {m.name} {m.value}\n" if m.value is not None else f"#undef {m.name}\n"
        self._lexers = [Lexer(SourceFile("<command line>", text), self.diags)]
        while not (tok := self._next()).kind is TokenKind.EOF:
            self._directive(tok)

    def _check_unterminated(self) -> None:
        for cond in self._conditionals:
            self.diags.error(cond.start.loc, "unterminated conditional directive")
        self._conditionals.clear()

    # ---- the token stack ----------------------------------------------------------------------
    def _push(self, tokens: list[Token]) -> None:
        self._pending.extend(reversed(tokens))

    def _next(self) -> Token:
        if not self._pending:
            self._refill()
        return self._pending.pop()

    def _peek(self) -> Token:
        if not self._pending:
            self._refill()
        return self._pending[-1]

    def _refill(self) -> None:
        """The next chunk of file tokens onto the empty stack; an included file's end goes on in
        the file that included it (its EOF token is dropped), the main file's EOF stays."""
        while not self._pending:
            chunk = self._lexers[-1].next_chunk()
            if chunk[-1].kind is TokenKind.EOF and len(self._lexers) > 1:
                chunk.pop()
                self._lexers.pop()
            self._push(chunk)

    def _line_ended(self) -> bool:
        """Whether the directive line being read has no token left: a chunk ends with its line."""
        return not self._pending or self._pending[-1].at_bol

    def _rest_of_line(self) -> list[Token]:
        """The tokens up to the end of the current directive line."""
        line = []
        while not self._line_ended():
            line.append(self._pending.pop())
        return line

    # ---- macro expansion ----------------------------------------------------------------------
    def _expand(self, tok: Token) -> bool:
        """If tok names an expandable macro, push its expansion and return True."""
        if tok.kind is not TokenKind.IDENT or tok.text in tok.hideset:
            return False
        if tok.text in _DYNAMIC:
            return self._expand_dynamic(tok)
        macro = self.macros.get(tok.text)
        if macro is None:
            return False
        if macro.params is None:
            body = self._substitute(macro, []) if _has_paste(macro.body) else macro.body
            self._push(self._relocate(body, tok, tok.hideset | {macro.name}))
            return True
        if not self._peek().is_("("):
            return False
        args, rparen = self._read_args(macro, tok)
        if args is None:
            return True
        hideset = (tok.hideset & rparen.hideset) | {macro.name}
        self._push(self._relocate(self._substitute(macro, args), tok, hideset))
        return True

    def _expand_dynamic(self, tok: Token) -> bool:
        if tok.text == "__LINE__":
            new = tok.copy(kind=TokenKind.PP_NUMBER, text=str(tok.loc.line))
        else:
            name = tok.loc.filename.replace("\\", "\\\\").replace('"', '\\"')
            new = tok.copy(kind=TokenKind.STRING, text=f'"{name}"')
        self._push([new])
        new.hideset = tok.hideset | {tok.text}
        return True

    @staticmethod
    def _relocate(body: list[Token], origin: Token, hideset: frozenset[str]) -> list[Token]:
        """Copies of body placed at the macro use site, with hideset added."""
        loc = origin.loc
        out = [t.expanded_at(loc, hideset) for t in body]
        if out:
            out[0].has_space = origin.has_space
        return out

    def _read_args(self, macro: Macro, name: Token) -> tuple[list[list[Token]] | None, Token]:
        """The arguments of a function-like macro call, one token list each, and the ')'."""
        self._next()  # '('
        args: list[list[Token]] = [[]]
        depth = 0
        while True:
            tok = self._next()
            if tok.kind is TokenKind.EOF:
                self._pending.append(tok)
                self.diags.error(name.loc, f"unterminated function-like macro invocation "
                                           f"'{macro.name}'")
                return None, tok
            if tok.is_(")") and depth == 0:
                break
            depth += tok.is_("(") - tok.is_(")")
            named = len(macro.params) - macro.variadic
            if tok.is_(",") and depth == 0 and not (macro.variadic and len(args) > named):
                args.append([])
                continue
            args[-1].append(tok)
        return self._check_arg_count(macro, name, args), tok

    def _check_arg_count(self, macro: Macro, name: Token, args: list[list[Token]]):
        wanted = len(macro.params)
        if wanted == 0 and args == [[]]:
            return []
        if macro.variadic and len(args) == wanted - 1:
            args.append([])
        if len(args) != wanted:
            few = "few" if len(args) < wanted else "many"
            self.diags.error(name.loc, f"too {few} arguments provided to function-like macro "
                                       f"invocation '{macro.name}' (expected {wanted}, "
                                       f"have {len(args)})")
            return None
        return args

    def _substitute(self, macro: Macro, args: list[list[Token]]) -> list[Token]:
        """The replacement list with parameters replaced, `#` and `##` applied (C 6.10.3.1-3)."""
        params = dict(zip(macro.params or (), args))
        body, out, i = macro.body, [], 0
        while i < len(body):
            tok = body[i]
            following = body[i + 1] if i + 1 < len(body) else None
            if tok.is_("#") and following is not None and following.text in params:
                out.append(_stringize(params[following.text], tok))
                i += 2
            elif tok.is_("##") and following is not None:
                self._paste_into(out, following, params)
                i += 2
            elif tok.text in params and tok.kind is TokenKind.IDENT:
                pasted = following is not None and following.is_("##")
                arg = params[tok.text]
                out.extend(arg if pasted else self._expand_list(arg))
                if pasted and not arg:
                    out.append(_PLACEMARKER)
                i += 1
            else:
                out.append(tok)
                i += 1
        return [t for t in out if t is not _PLACEMARKER]

    def _paste_into(self, out: list[Token], rhs: Token, params: dict[str, list[Token]]) -> None:
        """Apply `lhs ## rhs` where lhs is the last token of out."""
        right = params[rhs.text] if rhs.text in params and rhs.kind is TokenKind.IDENT else [rhs]
        lhs = out.pop() if out else _PLACEMARKER
        if lhs.is_(",") and rhs.text == "__VA_ARGS__" and "__VA_ARGS__" in params:
            # GNU `, ## __VA_ARGS__`: the comma goes away when there are no variadic arguments.
            out.extend([lhs] + right if right else [])
        elif not right:
            out.append(lhs)
        elif lhs is _PLACEMARKER:
            out.extend(right)
        else:
            out.append(self._paste(lhs, right[0]))
            out.extend(right[1:])

    def _paste(self, lhs: Token, rhs: Token) -> Token:
        text = lhs.text + rhs.text
        tokens = tokenize_text(text, Diagnostics())
        if len(tokens) != 2:
            self.diags.error(lhs.loc, f"pasting formed '{text}', an invalid preprocessing token")
            return lhs
        return lhs.copy(kind=tokens[0].kind, text=text)

    def _expand_list(self, tokens: list[Token]) -> list[Token]:
        """tokens fully macro-expanded on their own (an argument before substitution)."""
        saved, self._pending = self._pending, []
        end = Token(TokenKind.EOF, "", tokens[0].loc if tokens else _NOWHERE.loc, at_bol=True)
        self._push(tokens + [end])
        out = []
        while (tok := self._next()) is not end:
            if not self._expand(tok):
                out.append(tok)
        self._pending = saved
        return out

    # ---- directives ---------------------------------------------------------------------------
    def _directive(self, hash_tok: Token) -> None:
        name = self._next() if not self._peek().at_bol else None
        if name is None:
            return  # the null directive
        handler = _DIRECTIVES.get(name.text)
        if handler is None:
            self.diags.error(name.loc, f"invalid preprocessing directive '#{name.text}'")
            self._rest_of_line()
            return
        handler(self, name)

    def _define(self, directive: Token) -> None:
        line = self._rest_of_line()
        if not line or line[0].kind is not TokenKind.IDENT:
            self.diags.error(line[0].loc if line else directive.loc, "macro name must be an identifier")
            return
        name, rest = line[0], line[1:]
        if rest and rest[0].is_("(") and not rest[0].has_space:
            params, variadic, rest = self._define_params(name, rest)
            if params is None:
                return
            self.macros[name.text] = Macro(name.text, _as_body(rest), params, variadic)
        else:
            self.macros[name.text] = Macro(name.text, _as_body(rest))

    def _define_params(self, name: Token, rest: list[Token]):
        """Parse `(a, b, ...)` of a function-like #define; returns (params, variadic, body)."""
        params, i = [], 1
        while i < len(rest) and not rest[i].is_(")"):
            tok = rest[i]
            if tok.is_("..."):
                params.append("__VA_ARGS__")
                i += 1
                break
            if tok.kind is not TokenKind.IDENT:
                self.diags.error(tok.loc, "invalid token in macro parameter list")
                return None, False, rest
            params.append(tok.text)
            i += 1 + (i + 1 < len(rest) and rest[i + 1].is_(","))
        if i >= len(rest) or not rest[i].is_(")"):
            self.diags.error(name.loc, "missing ')' in macro parameter list")
            return None, False, rest
        variadic = bool(params) and params[-1] == "__VA_ARGS__"
        return params, variadic, rest[i + 1:]

    def _undef(self, directive: Token) -> None:
        line = self._rest_of_line()
        if not line or line[0].kind is not TokenKind.IDENT:
            self.diags.error(directive.loc, "macro name must be an identifier")
            return
        self.macros.pop(line[0].text, None)

    def _include(self, directive: Token) -> None:
        line = self._rest_of_line()
        if line and line[0].kind is not TokenKind.STRING and not line[0].is_("<"):
            line = self._expand_list(line)
        target = _include_name(line)
        if target is None:
            self.diags.error(directive.loc, "expected \"FILENAME\" or <FILENAME>")
            return
        path = self._find_include(target, line[0].is_("<"), directive)
        if path is not None and os.path.realpath(path) in self._once:
            return
        if path is None:
            self.diags.error(line[0].loc, f"'{target}' file not found", len(line[0].text))
        elif self._include_count >= _MAX_INCLUDES:
            self.diags.error(directive.loc, "#include nested too deeply")
        else:
            self._include_count += 1
            lexer = Lexer(SourceFile(path, self._include_text(path)), self.diags)
            if self._pending:  # the #include line ended its file: its EOF waits under the tokens
                self._push(tokenize(lexer)[:-1])
            else:
                self._lexers.append(lexer)

    def _include_text(self, path: str) -> str:
        if path in self.headers:
            return self.headers[path]
        with open(path, encoding="utf-8") as f:
            text = f.read()
        self.files[path] = text
        return text

    def _find_include(self, target: str, angled: bool, directive: Token) -> str | None:
        """The header program named `target`, else the file it names in the including file's
        directory (for "...") and the -I directories."""
        if target in self.headers:
            return target
        dirs = [] if angled else [os.path.dirname(directive.loc.filename) or "."]
        for d in dirs + list(self.options.include_dirs):
            path = os.path.join(d, target)
            if os.path.isfile(path):
                return path
            self.files.setdefault(path, None)
        return None

    def _if(self, directive: Token) -> None:
        taken = self._evaluate(directive)
        self._conditionals.append(_Conditional(directive, taken))
        if not taken:
            self._skip_group()

    def _ifdef(self, directive: Token) -> None:
        line = self._rest_of_line()
        if not line or line[0].kind is not TokenKind.IDENT:
            self.diags.error(directive.loc, "macro name missing")
            line = [directive]
        defined = line[0].text in self.macros or line[0].text in ("__LINE__", "__FILE__")
        taken = defined if directive.text == "ifdef" else not defined
        self._conditionals.append(_Conditional(directive, taken))
        if not taken:
            self._skip_group()

    def _elif(self, directive: Token) -> None:
        cond = self._current_conditional(directive)
        if cond is None or cond.seen_else:
            self._rest_of_line()
            return
        if cond.taken:
            self._rest_of_line()
            self._skip_group()
        elif self._evaluate(directive):
            cond.taken = True
        else:
            self._skip_group()

    def _else(self, directive: Token) -> None:
        self._rest_of_line()
        cond = self._current_conditional(directive)
        if cond is None:
            return
        if cond.seen_else:
            self.diags.error(directive.loc, "#else after #else")
        cond.seen_else = True
        if cond.taken:
            self._skip_group()
        cond.taken = True

    def _endif(self, directive: Token) -> None:
        self._rest_of_line()
        if self._current_conditional(directive) is not None:
            self._conditionals.pop()

    def _current_conditional(self, directive: Token) -> _Conditional | None:
        if not self._conditionals:
            self.diags.error(directive.loc, f"#{directive.text} without #if")
            return None
        return self._conditionals[-1]

    def _skip_group(self) -> None:
        """Skip up to the #elif/#else/#endif that closes this group, leaving it next. The group's
        directive line ends a chunk, so the skipping happens in the lexer's text; where an included
        file ends inside the group, the group goes on in the file that included it."""
        depth = self._skip_tokens() if self._pending else 0
        while depth is not None:
            depth = self._lexers[-1].skip_group(depth)
            if depth is None or len(self._lexers) == 1:
                return
            self._lexers.pop()

    def _skip_tokens(self) -> int | None:
        """Skip over tokens already lexed (never met: a directive line ends its chunk): None at the
        directive that ends the group, else the depth open when they ran out."""
        depth = 0
        while self._pending and self._pending[-1].kind is not TokenKind.EOF:
            tok = self._pending.pop()
            if not (tok.is_("#") and tok.at_bol) or self._line_ended():
                continue
            word = self._pending[-1].text
            if word in ("if", "ifdef", "ifndef"):
                depth += 1
            elif word in ("elif", "else", "endif"):
                if depth == 0:
                    self._pending.append(tok)
                    return None
                depth -= word == "endif"
        return depth

    def _evaluate(self, directive: Token) -> bool:
        line = self._replace_defined(self._rest_of_line())
        line = [t if t.kind is not TokenKind.IDENT else t.copy(kind=TokenKind.PP_NUMBER, text="0")
                for t in self._expand_list(line)]
        try:
            return pp_expr.evaluate(line, directive.copy(text="")) != 0
        except pp_expr.PPExprError as e:
            where = e.token.loc if e.token.text else (line[-1].loc if line else directive.loc)
            self.diags.error(where, str(e))
            return False

    def _replace_defined(self, line: list[Token]) -> list[Token]:
        out, i = [], 0
        while i < len(line):
            tok = line[i]
            if not tok.is_("defined"):
                out.append(tok)
                i += 1
                continue
            paren = i + 1 < len(line) and line[i + 1].is_("(")
            j = i + 1 + paren
            if j >= len(line) or line[j].kind is not TokenKind.IDENT or \
                    (paren and (j + 1 >= len(line) or not line[j + 1].is_(")"))):
                self.diags.error(tok.loc, "macro name missing after 'defined'")
                return out + [tok.copy(kind=TokenKind.PP_NUMBER, text="0")]
            value = "1" if line[j].text in self.macros else "0"
            out.append(tok.copy(kind=TokenKind.PP_NUMBER, text=value))
            i = j + 1 + paren
        return out

    def _error(self, directive: Token) -> None:
        line = self._rest_of_line()
        message = " ".join(t.text for t in line)
        if directive.text == "error":
            self.diags.error(directive.loc, f"#error {message}".rstrip())
        else:
            self.diags.warning(directive.loc, f"#warning {message}".rstrip(), "#warnings")

    def _ignore_line(self, directive: Token) -> None:
        """#line, and the pragmas other than `once` (OPENCL EXTENSION, unroll, ...), change nothing here."""
        self._rest_of_line()

    def _pragma(self, directive: Token) -> None:
        line = self._rest_of_line()
        if len(line) == 1 and line[0].is_("once"):  # later #includes of this file are skipped
            self._once.add(os.path.realpath(directive.loc.filename))
        elif len(line) >= 2 and line[0].is_("OPENCL") and line[1].is_("EXTENSION"):
            self._extension_pragma(line[2:])

    def _extension_pragma(self, words: list[Token]) -> None:
        """`#pragma OPENCL EXTENSION name : enable|disable` (OpenCL C 6.11 / 9.1): the device's
        extensions (and `all`) change nothing, since they are always on; anything else is ignored
        with clang's warning, so that -Werror fails the build."""
        if not words:
            return
        name = words[0]
        if len(words) != 3 or not words[1].is_(":") or words[2].text not in ("enable", "disable", "begin", "end"):
            where = words[2] if len(words) >= 3 else words[-1]
            self.diags.warning(where.loc, "expected 'enable', 'disable', 'begin' or 'end' - ignoring",
                               "ignored-pragmas", len(where.text))
        elif name.text != "all" and name.text not in EXTENSIONS:
            self.diags.warning(name.loc, f"unknown OpenCL extension '{name.text}' - ignoring",
                               "ignored-pragmas", len(name.text))


_DIRECTIVES = {
    "define": Preprocessor._define, "undef": Preprocessor._undef, "include": Preprocessor._include,
    "if": Preprocessor._if, "ifdef": Preprocessor._ifdef, "ifndef": Preprocessor._ifdef,
    "elif": Preprocessor._elif, "else": Preprocessor._else, "endif": Preprocessor._endif,
    "error": Preprocessor._error, "warning": Preprocessor._error,
    "pragma": Preprocessor._pragma, "line": Preprocessor._ignore_line,
}

_DYNAMIC = ("__LINE__", "__FILE__")
_NOWHERE = Token(TokenKind.EOF, "", tokenize_text("", Diagnostics())[0].loc)
_PLACEMARKER = Token(TokenKind.PUNCT, "", _NOWHERE.loc)


def _as_body(tokens: list[Token]) -> list[Token]:
    """A replacement list: tokens no longer at line starts (they must never look like directives)."""
    return [t.copy(at_bol=False) for t in tokens]


def _has_paste(body: list[Token]) -> bool:
    return any(t.is_("##") for t in body)


def _include_name(line: list[Token]) -> str | None:
    if not line:
        return None
    if line[0].kind is TokenKind.STRING:
        return line[0].text[1:-1]
    if line[0].is_("<"):
        close = next((i for i, t in enumerate(line) if t.is_(">")), None)
        return "".join(t.text for t in line[1:close]) if close else None
    return None


def _stringize(arg: list[Token], where: Token) -> Token:
    """The `#param` string literal: spelling of arg, one space where there was any (C 6.10.3.2)."""
    parts = []
    for i, tok in enumerate(arg):
        text = tok.text
        if tok.kind in (TokenKind.STRING, TokenKind.CHAR):
            text = text.replace("\\", "\\\\").replace('"', '\\"')
        parts.append((" " if i and tok.has_space else "") + text)
    return where.copy(kind=TokenKind.STRING, text='"' + "".join(parts) + '"')


def preprocess(file: SourceFile, options: BuildOptions, diags: Diagnostics,
               headers: dict[str, str] | None = None, files: dict | None = None) -> list[Token]:
    """The preprocessed tokens of `file` (ending with EOF); problems go to diags. `headers` maps
    `#include` names to their text (clCompileProgram's header programs). `files`, when given,
    receives Preprocessor.files: what the include search found on the file system."""
    preprocessor = Preprocessor(options, diags, headers or {})
    tokens = preprocessor.run(file)
    if files is not None:
        files.update(preprocessor.files)
    return tokens
