"""String literals outside printf (OpenCL C 3.0 spec 6.7.3, C 6.4.5 and 6.7.9p14).

An array of char-sized integers may be initialized by a string literal, optionally in braces
(`char s[] = "abc";`, `__constant char t[8] = {"abc"};`, a `char name[16]` member of a struct): the
literal's bytes and its terminating NUL become the list of element values, the length of `T s[]`
counts the NUL, and a NUL that does not fit an array of explicit length is dropped (C 6.7.9p14);
a longer string is cut to the array, with clang's warning.

Anywhere else a string literal is an array of `__constant char` with static storage (as clang
types it in OpenCL C): sema gives each distinct literal one program-scope `__constant` variable,
which the expression names, so decay to `__constant char *`, indexing and passing to a
`const __constant char *` parameter are the ordinary rules for a `__constant` array.
"""
from __future__ import annotations

from . import ast as A
from . import types as T

STRING_CONSTANT_NAME = ".str"  # not an identifier: no user name can clash with it


class StringLiteralChecker:
    """Mixin for Sema: needs `self.diags` and `self.string_constants` (bytes -> VarDecl)."""

    def check_StringLiteral(self, e: A.StringLiteral) -> A.Expr:
        decl = self.string_constant(e)
        ref = A.VarRef(e.loc, decl.name, decl=decl, type=decl.type)
        ref.lvalue = True
        return ref

    def string_constant(self, e: A.StringLiteral) -> A.VarDecl:
        decl = self.string_constants.get(e.value)
        if decl is None:
            t = T.with_address_space(T.array_of(T.CHAR, len(e.value) + 1), T.AddressSpace.CONSTANT)
            init = self.string_initializer(t, e)
            decl = A.VarDecl(e.loc, STRING_CONSTANT_NAME, t, init, is_program_scope=True)
            self.string_constants[e.value] = decl
        return decl

    def string_initializer(self, t: T.ArrayType, literal: A.StringLiteral) -> A.InitList:
        """The element values of a char array initialized by `literal`; t's length if given."""
        data = literal.value + b"\0"
        element = t.element.unqualified()
        length = len(data) if t.length is None else t.length
        if len(data) - 1 > length:
            self.diags.warning(literal.loc, "initializer-string for char array is too long",
                               "excess-initializers")  # clang's word for C: the rest is dropped
        signed = element.signed
        items = [A.IntLiteral(literal.loc, b - 256 if signed and b > 127 else b, type=element)
                 for b in data[:length]]
        return A.InitList(literal.loc, items, type=T.array_of(t.element, length, t.quals))


def string_for_char_array(t: T.Type, init: A.Expr) -> A.StringLiteral | None:
    """The string literal initializing t, when t is a char array and init is one (maybe braced)."""
    if not (t.is_array and t.element.is_integer and t.element.size == 1 and not t.element.is_bool):
        return None
    if isinstance(init, A.InitList) and len(init.items) == 1:
        init = init.items[0]
    return init if isinstance(init, A.StringLiteral) else None
