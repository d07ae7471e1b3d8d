"""printf calls (OpenCL C 1.2, 6.12.13): the format checked against the arguments, as clang's
-Wformat does, but with the mistakes that would print garbage made errors.

`int printf(__constant char *restrict format, ...)`: the format must be a string literal (6.12.13.2:
it is resolved at compile time), and each conversion's argument must have the type the conversion
names (printf/format_spec.py): an integer for `d i o u x X c`, a floating value for `f F e E g G a A`,
a pointer for `p`, a string literal for `s`, and for a vector specifier `%vN<length><conversion>` a
vector of N lanes of the type the length modifier names. The default argument promotions apply to
scalars, so `char`, `short` and `float` arguments are fine where C accepts them; an integer of the
wrong width (`%d` of a long) is a warning, as in clang, and the value is converted. A vector
specifier without a length modifier is a warning too (OpenCL requires one); its lane type is taken
from the argument.

The checked call becomes an `ast.PrintfCall` whose format has every `%s` written in (its literal
padded and truncated as C would) and whose arguments are converted to their storage types, so the
runtime needs nothing but the format to read a record back.
"""
from __future__ import annotations

from . import ast as A
from . import types as T
from .conversions import cast_kind
from .source import Location
from ..printf.format_spec import Conversion, FormatError, parse_format

_SCALAR_STORAGE = {("int", 4): T.INT, ("uint", 4): T.UINT, ("int", 8): T.LONG, ("uint", 8): T.ULONG,
                   ("float", 8): T.DOUBLE, ("pointer", 8): T.ULONG}
_VECTOR_FLOATS = {4: "hl", 8: "l"}
_VECTOR_INTEGERS = {1: "hh", 2: "h", 4: "hl", 8: "l"}


class PrintfChecker:
    """Mixin for Sema: needs self.diags, self.rvalue, self.error."""

    def printf_call(self, e: A.Call) -> A.Expr:
        if not e.args:
            return self.error(e, "too few arguments to function call, expected at least 1, have 0")
        literal, args = e.args[0], e.args[1:]
        if not isinstance(literal, A.StringLiteral):
            for a in e.args:
                self.rvalue(a)
            return self.error(e, "the format of printf must be a string literal (OpenCL C 6.12.13.2)",
                              literal.loc)
        try:
            pieces = parse_format(literal.value.split(b"\0", 1)[0])  # C's printf stops at a NUL
        except FormatError as err:
            self.diags.error(format_location(literal, err.offset), err.message)
            return self.printf_poisoned(e, args)
        return self.printf_arguments(e, literal, pieces, args)

    def printf_poisoned(self, e: A.Call, args: list[A.Expr]) -> A.Expr:
        for a in args:
            if not isinstance(a, A.StringLiteral):
                self.rvalue(a)
        e.type, e.lvalue = T.ERROR, False
        return e

    def printf_arguments(self, e: A.Call, literal: A.StringLiteral, pieces, args) -> A.Expr:
        conversions = [p for p in pieces if isinstance(p, Conversion) and p.takes_argument]
        if len(args) < len(conversions):
            missing = conversions[len(args)]
            self.diags.error(format_location(literal, missing.offset),
                             f"more '%' conversions than data arguments ('{missing.text}' has none)")
            return self.printf_poisoned(e, args)
        unused = [self.rvalue(a) for a in args[len(conversions):]]
        if unused:
            self.diags.warning(unused[0].loc, "data argument not used by format string", "format-extra-args")
        text, converted, ok = [], [], True
        for piece in pieces:
            if isinstance(piece, bytes):
                text.append(piece)
                continue
            if not piece.takes_argument:
                text.append(b"%%")
                continue
            arg = args[len(converted)]
            if piece.conversion == "s":
                ok &= self.printf_string(literal, piece, arg, text)
                converted.append(None)
                continue
            arg, piece = self.printf_argument(literal, piece, self.rvalue(arg))
            ok &= arg is not None
            converted.append(arg)
            text.append(piece.text.encode("latin-1"))
        if not ok:
            e.type, e.lvalue = T.ERROR, False
            return e
        return A.PrintfCall(e.loc, b"".join(text), [a for a in converted if a is not None], unused,
                            type=T.INT)

    def printf_string(self, literal: A.StringLiteral, conv: Conversion, arg: A.Expr, text: list) -> bool:
        """`%s` takes a string literal (6.12.13.2), written into the format here."""
        if not isinstance(arg, A.StringLiteral):
            self.rvalue(arg)
            self.diags.error(arg.loc, f"the argument of '{conv.text}' must be a string literal "
                                      f"(OpenCL C 6.12.13.2)")
            return False
        value = arg.value.split(b"\0", 1)[0].decode("latin-1")
        spec = "%" + conv.flags.replace("0", "") + (str(conv.width) if conv.width else "")
        if conv.precision is not None:
            spec += f".{conv.precision}"
        padded = (spec + "s") % value
        text.append(padded.encode("latin-1").replace(b"%", b"%%"))
        return True

    def printf_argument(self, literal: A.StringLiteral, conv: Conversion, arg: A.Expr):
        """(the argument converted to its storage type, the conversion with its length written
        out), or (None, conv) after a diagnostic."""
        t = arg.type
        if t.is_error:
            return None, conv
        if conv.lanes:
            return self.printf_vector(literal, conv, arg)
        if t.is_vector:
            letter = conv.conversion if conv.is_float == t.element.is_floating else \
                "f" if t.element.is_floating else "d"
            return self.printf_mismatch(literal, conv, arg, f"a vector specifier such as "
                                        f"'%v{t.count}{_vector_length(t)}{letter}' prints a '{t}'")
        wanted = conv.storage
        fits = {"int": t.is_integer, "uint": t.is_integer, "float": t.is_floating,
                "pointer": t.is_pointer}[wanted.kind]
        if not fits:
            return self.printf_mismatch(literal, conv, arg)
        target = _SCALAR_STORAGE[(wanted.kind, wanted.lane_bytes)]
        if t.is_integer and conv.conversion != "c" and conv.length in ("", "l") \
                and t.size != target.size and (t.size > 4 or conv.length == "l"):
            self.diags.warning(format_location(literal, conv.offset),
                               f"format '{conv.text}' specifies type '{_spelled(conv)}' but the argument "
                               f"has type '{t}'", "format")
        return _converted(arg, target), conv

    def printf_vector(self, literal: A.StringLiteral, conv: Conversion, arg: A.Expr):
        t = arg.type
        kind_fits = t.is_vector and (t.element.is_floating if conv.is_float else t.element.is_integer)
        if not kind_fits:
            return self.printf_mismatch(literal, conv, arg)
        if t.count != conv.lanes:
            return self.printf_mismatch(literal, conv, arg, f"the vector specifier 'v{conv.lanes}' "
                                        f"needs {conv.lanes} lanes, the argument has {t.count}")
        if not conv.length:
            conv = self.printf_infer_length(literal, conv, t)
        if conv.storage.lane_bytes != t.element.size:
            return self.printf_mismatch(literal, conv, arg)
        return arg, conv

    def printf_infer_length(self, literal: A.StringLiteral, conv: Conversion, t: T.Type) -> Conversion:
        length = _vector_length(t)
        self.diags.warning(format_location(literal, conv.offset),
                           f"a vector specifier needs a length modifier (hh, h, hl or l) in OpenCL C; "
                           f"'{conv.with_length(length).text}' prints a '{t}'")
        return conv.with_length(length)

    def printf_mismatch(self, literal: A.StringLiteral, conv: Conversion, arg: A.Expr, hint: str = ""):
        message = f"format '{conv.text}' specifies type '{_spelled(conv)}' but the argument has type " \
                  f"'{arg.type}'"
        self.diags.error(format_location(literal, conv.offset), message + (f"; {hint}" if hint else ""))
        return None, conv


def _converted(arg: A.Expr, target: T.Type) -> A.Expr:
    source = arg.type.unqualified()
    if source == target:
        return arg
    return A.Cast(arg.loc, cast_kind(source, target), arg, implicit=True, type=target)


def _vector_length(t: T.Type) -> str:
    lanes = _VECTOR_FLOATS if t.element.is_floating else _VECTOR_INTEGERS
    return lanes.get(t.element.size, "")


def _spelled(conv: Conversion) -> str:
    """The C type a conversion expects, for messages."""
    if conv.lanes and not conv.length:
        return f"{'floating' if conv.is_float else 'integer'} vector of {conv.lanes} lanes"
    s = conv.storage
    if conv.lanes:
        lane = _LANE_NAMES[s.kind == "float"][s.lane_bytes]
        return f"{'u' if s.kind == 'uint' else ''}{lane}{conv.lanes}"
    return _SCALAR_NAMES[(s.kind, s.lane_bytes)]


_LANE_NAMES = {False: {1: "char", 2: "short", 4: "int", 8: "long"}, True: {2: "half", 4: "float", 8: "double"}}
_SCALAR_NAMES = {("int", 4): "int", ("uint", 4): "unsigned int", ("int", 8): "long",
                 ("uint", 8): "unsigned long", ("float", 8): "double", ("pointer", 8): "void *"}


def format_location(literal: A.StringLiteral, offset: int) -> Location:
    """Where byte `offset` of a string literal's value is in the source, when the literal's first
    token holds it; else the literal's own location."""
    loc = literal.loc
    if loc.file is None:
        return loc
    line = loc.file.line(loc.line)
    column = loc.column  # 1-based, at the opening quote
    if not line[column - 1:column] == '"':
        return loc
    i, byte = column, 0  # i: 0-based index of the next raw character
    while i < len(line) and line[i] != '"':
        if byte >= offset:
            return Location(loc.file, loc.line, i + 1)
        width = _escape_width(line, i) if line[i] == "\\" else 1
        byte += 1 if line[i] == "\\" else len(line[i].encode("utf-8"))
        i += width
    return loc


def _escape_width(line: str, i: int) -> int:
    """Characters of the escape sequence starting at the backslash line[i]."""
    j = i + 1
    if line[j:j + 1] == "x":
        j += 1
        while j < len(line) and line[j] in "0123456789abcdefABCDEF":
            j += 1
        return j - i
    if line[j:j + 1].isdigit():
        k = j
        while k < len(line) and k < j + 3 and line[k] in "01234567":
            k += 1
        return max(k - i, 2)
    return 2
