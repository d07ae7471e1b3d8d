"""Declaration grammar (C 6.7 with OpenCL C 6.5-6.8 qualifiers), one method per rule.

Declaration specifiers are gathered first (type words, qualifiers, address space, `__kernel`,
`inline`, `typedef`, `__attribute__`) into a `DeclSpec`; a declarator then wraps the base type in
pointers, arrays and function types. Nested declarators such as `float (*p)[4]` are handled the
chibicc way: skip the parenthesized part, parse the suffixes that follow it onto the base type, then
go back and parse the inner declarator with that type as its base.

Array sizes are left as expressions inside `ArrayType.length`; sema folds them. Array parameters are
adjusted to pointers here (C 6.7.6.3p7), keeping the element's address space. struct, union and
enum specifiers are parsed by parse_record.py; the definitions a specifier makes ride on the
DeclSpec and come out first in the declaration's list, so sema meets them in source order.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from . import ast as A
from . import types as T
from .source import Location
from .tokens import Token, TokenKind
from .unsupported import (BLOCKS, PIPE_KEYWORD, PIPES, READ_WRITE_IMAGES, TYPES as UNSUPPORTED_TYPES,
                          message as unsupported)

_TYPE_WORDS = {"void", "bool", "_Bool", "char", "short", "int", "long", "signed", "unsigned",
               "float", "double", "half"}
# Type qualifiers by spelling: C's and the GNU alternates clang accepts in every language mode
# (loopy writes `__restrict__` on every pointer).
_CV = {"const": "const", "__const": "const", "__const__": "const",
       "volatile": "volatile", "__volatile": "volatile", "__volatile__": "volatile",
       "restrict": "restrict", "__restrict": "restrict", "__restrict__": "restrict"}
_ADDRESS_SPACES = {
    "__global": T.AddressSpace.GLOBAL, "global": T.AddressSpace.GLOBAL,
    "__local": T.AddressSpace.LOCAL, "local": T.AddressSpace.LOCAL,
    "__constant": T.AddressSpace.CONSTANT, "constant": T.AddressSpace.CONSTANT,
    "__private": T.AddressSpace.PRIVATE, "private": T.AddressSpace.PRIVATE,
    "__generic": T.AddressSpace.GENERIC, "generic": T.AddressSpace.GENERIC,
}
_ACCESS_QUALIFIERS = {"__read_only": "read_only", "read_only": "read_only", "__write_only": "write_only",
                      "write_only": "write_only", "__read_write": "read_write", "read_write": "read_write"}
_SPECIFIER_WORDS = (_TYPE_WORDS | set(_CV) | set(_ADDRESS_SPACES) | set(_ACCESS_QUALIFIERS) |
                    {"typedef", "static", "extern", "__kernel", "kernel", "inline", "__inline",
                     "__inline__", "__attribute__", "struct", "union", "enum"})

# Sorted type words (signedness removed, redundant "int" dropped) -> signed type, unsigned type.
_BASE_TYPES: dict[tuple[str, ...], tuple[T.Type, T.Type | None]] = {
    ("void",): (T.VOID, None), ("bool",): (T.BOOL, None), ("_Bool",): (T.BOOL, None),
    ("char",): (T.CHAR, T.UCHAR), ("short",): (T.SHORT, T.USHORT), ("int",): (T.INT, T.UINT),
    (): (T.INT, T.UINT), ("long",): (T.LONG, T.ULONG), ("long", "long"): (T.LONG, T.ULONG),
    ("float",): (T.FLOAT, None), ("double",): (T.DOUBLE, None), ("half",): (T.HALF, None),
}


@dataclass
class DeclSpec:
    loc: Location
    type: T.Type
    is_typedef: bool = False
    is_kernel: bool = False
    is_inline: bool = False
    storage: str | None = None
    attributes: list[A.Attribute] = field(default_factory=list)
    tag_decls: list = field(default_factory=list)   # RecordDecl/EnumDecl defined here


@dataclass
class Declarator:
    loc: Location
    name: str | None
    type: T.Type
    params: list[A.ParamDecl] | None = None   # for function declarators


class DeclarationParser:
    """Mixin for Parser: declarations, declarators, type names, attributes, initializers."""

    # The parameters of the innermost function declarator just parsed (type_suffix sets it), so
    # a function definition can name its parameters; types alone cannot carry names.
    _params: list[A.ParamDecl] | None = None

    def is_type_name(self, tok: Token) -> bool:
        if tok.kind is TokenKind.KEYWORD:
            return tok.text in _SPECIFIER_WORDS
        return self.typedef_named(tok) is not None

    # declspec = (storage | qualifier | address-space | "__kernel" | "inline" | attribute
    #            | type-word | typedef-name)+
    def declspec(self) -> DeclSpec:
        start = self.peek()
        spec = DeclSpec(start.loc, T.INT)
        words: list[str] = []
        quals = {"const": False, "volatile": False, "restrict": False, "address_space": None}
        access: list[Token] = []      # image access qualifiers as written
        named: T.Type | None = None   # a typedef name or a struct/union/enum specifier
        while True:
            tok = self.peek()
            if tok.kind is TokenKind.IDENT and not words and named is None \
                    and self.typedef_named(tok) is not None:
                named = self.typedef_named(self.next())
                if tok.text in UNSUPPORTED_TYPES and named.is_error:
                    self.diags.error(tok.loc, unsupported(tok.text, UNSUPPORTED_TYPES[tok.text]), len(tok.text))
            elif tok.kind is TokenKind.IDENT and tok.text == PIPE_KEYWORD and not words and named is None \
                    and self.is_type_name(self.peek(1)):
                self.diags.error(self.next().loc, unsupported(PIPE_KEYWORD, PIPES), len(PIPE_KEYWORD))
                self.declspec()  # the packet type
                named = T.ERROR
            elif tok.kind is not TokenKind.KEYWORD or tok.text not in _SPECIFIER_WORDS:
                break
            elif tok.text in ("struct", "union", "enum"):
                if named is not None or words:
                    self.fail(tok, "cannot combine with previous type specifier")
                self.next()
                named = self.enum_specifier(tok, spec) if tok.text == "enum" else \
                    self.record_specifier(tok, spec)
            elif tok.text in _ACCESS_QUALIFIERS:
                access.append(self.next())
            else:
                self._specifier_word(spec, words, quals)
        spec.type = self._base_type(start, words, named).with_quals(T.Qualifiers(**quals))
        if named is not None:
            spec.type = T.qualified(self._with_access(named, access), T.Qualifiers(**quals))
        elif access:
            self.diags.error(access[0].loc, "access qualifier can only be used for pipe and image type",
                             len(access[0].text))
        return spec

    def _with_access(self, t: T.Type, access: list[Token]) -> T.Type:
        """An image type with its access qualifier (read_only unless written; OpenCL C 6.6)."""
        if not access:
            return t
        tok = access[0]
        if not t.is_image:
            if not t.is_error:
                self.diags.error(tok.loc, "access qualifier can only be used for pipe and image type", len(tok.text))
            return t
        if len(access) > 1:
            self.diags.error(access[1].loc, "multiple access qualifiers", len(access[1].text))
        if _ACCESS_QUALIFIERS[tok.text] == "read_write":
            self.diags.error(tok.loc, unsupported(tok.text, READ_WRITE_IMAGES), len(tok.text))
            return T.ERROR
        return T.image_type(t.name, _ACCESS_QUALIFIERS[tok.text])

    def _specifier_word(self, spec: DeclSpec, words: list[str], quals: dict) -> None:
        tok = self.peek()
        text = tok.text
        if text == "__attribute__":
            spec.attributes += self.attributes()
            return
        self.next()
        if text in _TYPE_WORDS:
            words.append(text)
        elif text in _CV:
            quals[_CV[text]] = True
        elif text in _ADDRESS_SPACES:
            space = _ADDRESS_SPACES[text]
            if quals["address_space"] not in (None, space):
                self.diags.error(tok.loc, "multiple address spaces specified for type")
            quals["address_space"] = space
        elif text == "typedef":
            spec.is_typedef = True
        elif text in ("static", "extern"):
            spec.storage = text
        elif text in ("__kernel", "kernel"):
            spec.is_kernel = True
        elif text in ("inline", "__inline", "__inline__"):
            spec.is_inline = True

    def _base_type(self, start: Token, words: list[str], named: T.Type | None) -> T.Type:
        if named is not None:
            if words:
                self.fail(start, "cannot combine a typedef name with other type specifiers")
            return named
        unsigned = "unsigned" in words
        signed = "signed" in words
        rest = sorted(w for w in words if w not in ("signed", "unsigned"))
        if len(rest) > 1 and "int" in rest:
            rest.remove("int")
        entry = _BASE_TYPES.get(tuple(rest))
        if not words or entry is None or (unsigned and signed) or \
                ((unsigned or signed) and entry[1] is None):
            what = "type specifier missing" if not words else "invalid combination of type specifiers"
            self.fail(start, what)
        return entry[1] if unsigned else entry[0]

    # attributes = ("__attribute__" "(" "(" (attribute ("," attribute)*)? ")" ")")*
    def attributes(self) -> list[A.Attribute]:
        result = []
        while self.consume("__attribute__"):
            self.expect("(", " after '__attribute__'")
            self.expect("(", " after '__attribute__'")
            while not self.at(")"):
                result.append(self.attribute())
                if not self.consume(","):
                    break
            self.expect(")", " to close the attribute list")
            self.expect(")", " to close the attribute list")
        return result

    # attribute = identifier ("(" (type-name | assign ("," assign)*)? ")")?
    def attribute(self) -> A.Attribute:
        tok = self.next()
        if tok.kind not in (TokenKind.IDENT, TokenKind.KEYWORD):
            self.fail(tok, "expected attribute name")
        name = tok.text.strip("_") if tok.text.startswith("__") else tok.text
        args: list[A.Expr] = []
        type_arg = None
        if self.consume("("):
            if self.is_type_name(self.peek()):
                type_arg = self.type_name()        # vec_type_hint(float4): the type is only a hint
            elif not self.at(")"):
                args = self.call_args_until_paren()
            self.expect(")", " after attribute arguments")
        return A.Attribute(tok.loc, name, args, type_arg)

    def call_args_until_paren(self) -> list[A.Expr]:
        args = [self.assign()]
        while self.consume(","):
            args.append(self.assign())
        return args

    # declarator = ("*" qualifier*)* (identifier | "(" declarator ")")? type-suffix
    def declarator(self, base: T.Type, abstract: bool = False) -> Declarator:
        while self.consume("*"):
            base = T.pointer_to(base).with_quals(self.pointer_qualifiers())
        if self.at("^"):  # a block variable, `int (^b)(int)`: parsed on as of the error type
            self.diags.error(self.next().loc, unsupported("^", BLOCKS))
            base = T.ERROR
        if self.at("(") and (not abstract or self.peek(1).text in ("*", "(", "[")):
            return self.nested_declarator(base, abstract)
        tok = self.peek()
        name = None
        if tok.kind is TokenKind.IDENT:
            name = self.next().text
        elif not abstract:
            self.fail(tok, "expected identifier or '('")
        self._params = None
        typ = self.type_suffix(base)
        return Declarator(tok.loc, name, typ, self._params)

    def pointer_qualifiers(self) -> T.Qualifiers:
        quals: dict = {}
        while self.peek().kind is TokenKind.KEYWORD and \
                (self.peek().text in _CV or self.peek().text in _ADDRESS_SPACES):
            text = self.next().text
            if text in _CV:
                quals[_CV[text]] = True
            else:
                quals["address_space"] = _ADDRESS_SPACES[text]
        return T.Qualifiers(**quals)

    def nested_declarator(self, base: T.Type, abstract: bool) -> Declarator:
        start = self.pos
        self.next()
        depth = 1
        while depth and self.peek().kind is not TokenKind.EOF:
            depth += self.next().is_("(") - self.tokens[self.pos - 1].is_(")")
        base = self.type_suffix(base)
        end = self.pos
        self.pos = start + 1
        inner = self.declarator(base, abstract)
        self.expect(")")
        self.pos = end
        return inner

    # type-suffix = "[" constant-expr? "]" type-suffix | "(" params | ε
    def type_suffix(self, base: T.Type) -> T.Type:
        if self.consume("["):
            length = None if self.at("]") else self.constant_expr()
            self.expect("]", " after array size")
            element = self.type_suffix(base)
            if isinstance(length, A.IntLiteral):
                length = length.value
            return T.array_of(element, length)
        if self.consume("("):
            params = self.params()
            self._params = params
            return T.function_type(base, tuple(p.type for p in params))
        return base

    # params = "void" ")" | ")" | param ("," param)* ")"
    def params(self) -> list[A.ParamDecl]:
        if self.consume(")"):
            return []
        if self.at("void") and self.peek(1).is_(")"):
            self.next()
            self.next()
            return []
        params = [self.param()]
        while self.consume(","):
            ellipsis = self.consume("...")
            if ellipsis:
                self.diags.error(ellipsis.loc, "invalid prototype, variadic arguments are not allowed in OpenCL")
                break
            params.append(self.param())
        self.expect(")", " to close the parameter list")
        return params

    # param = declspec declarator
    def param(self) -> A.ParamDecl:
        spec = self.declspec()
        decl = self.declarator(spec.type, abstract=True)
        self.attributes()
        typ = decl.type
        if typ.is_array:
            typ = T.pointer_to(typ.element)
        return A.ParamDecl(decl.loc, decl.name or "", typ)

    # type-name = declspec abstract-declarator
    def type_name(self) -> T.Type:
        spec = self.declspec()
        return self.declarator(spec.type, abstract=True).type

    # initializer = "{" (item ("," item)* ","?)? "}" | assign
    # item = ("." identifier "=")? initializer
    def initializer(self) -> A.Expr:
        tok = self.consume("{")
        if not tok:
            return self.assign()
        items: list[A.Expr] = []
        while not self.at("}"):
            dot = self.consume(".")
            if dot:
                name = self.expect_identifier("field designator")
                self.expect("=", " after the field designator")
                items.append(A.Designation(dot.loc, name.text, self.initializer()))
            else:
                items.append(self.initializer())
            if not self.consume(","):
                break
        self.expect("}", " to close the initializer list")
        return A.InitList(tok.loc, items)

    # declaration = declspec (init-declarator ("," init-declarator)*)? ";"
    # init-declarator = declarator attributes ("=" initializer)?
    def declaration(self, spec: DeclSpec, first: Declarator | None = None,
                    program_scope: bool = False) -> list:
        decls: list = list(spec.tag_decls)
        if first is None and self.consume(";"):     # `struct S {...};`, `enum {A, B};`
            return decls
        decl = first
        while True:
            if decl is None:
                decl = self.declarator(spec.type)
            self.attributes()
            var = self.declare(spec, decl, program_scope)
            if var is not None:
                decls.append(var)
            decl = None
            if not self.consume(","):
                break
        self.expect_semicolon("at end of declaration")
        return decls

    def declare(self, spec: DeclSpec, decl: Declarator, program_scope: bool) -> A.VarDecl | None:
        if spec.is_typedef:
            self.declare_name(decl.name, decl.type)
            if self.at("="):
                self.fail(self.peek(), "illegal initializer (only variables can be initialized)")
            return None
        self.declare_name(decl.name, None)
        init = self.initializer() if self.consume("=") else None
        if decl.type.is_function:
            return self.function_prototype(spec, decl)
        if spec.storage == "static" and not program_scope:
            # OpenCL C 1.2/2.0 6.8: a function's variables have no static storage (a static local
            # would otherwise silently become per-work-item private)
            self.diags.error(spec.loc, "variables in function scope cannot be declared static")
        return A.VarDecl(decl.loc, decl.name, decl.type, init, program_scope, storage=spec.storage)
