"""Struct, union and enum specifiers (C 6.7.2.1-6.7.2.3), one method per rule.

Tags live in their own namespace, scoped like ordinary identifiers (`TokenCursor.tags`). A tag
names one `types.Record` per scope: `struct S;` or a first `struct S *p` declares it incomplete,
`struct S { ... }` completes the record of the current scope (or declares a new one that hides an
outer S), so self-referential and mutually referential structs work through pointers. The parser
keeps the members as written; sema resolves their types and lays the record out.

An enum type is int (an object of an enum with enumerators outside int's range stays an int: clang
would give it the wider underlying type that sema gives those enumerators); its constants become an `ast.EnumDecl`, and a
definition an `ast.RecordDecl`, that the enclosing declaration carries, so sema folds the values and
lays out the record where the source defines them.
"""
from __future__ import annotations

from . import ast as A
from . import types as T
from .tokens import Token, TokenKind

# Attributes that would change a record's layout in ways the lowering does not model yet.
_LAYOUT_ATTRIBUTES = {"packed"}


class RecordParser:
    """Mixin for Parser: needs the cursor, `declspec`, `declarator`, `attributes` and
    `constant_expr`."""

    # record-specifier = ("struct" | "union") attributes identifier? ("{" member* "}")? attributes
    def record_specifier(self, keyword: Token, spec) -> T.Type:
        leading = self.layout_attributes()
        name = self.next() if self.peek().kind is TokenKind.IDENT else None
        if not self.at("{"):
            if name is None:
                self.fail(self.peek(), f"declaration of anonymous {keyword.text} must be a definition")
            for attr in leading:  # an alignment belongs to the definition
                self.diags.error(attr.loc, f"the '{attr.name}' attribute must be on the definition")
            return T.record_type(self.tag_reference(keyword, name))
        record = self.tag_definition(keyword, name)
        record.body = self.members(self.expect("{"))
        record.attributes = leading + self.layout_attributes()
        spec.tag_decls.append(A.RecordDecl(keyword.loc, record))
        return T.record_type(record)

    def tag_reference(self, keyword: Token, name: Token):
        """The record `struct S` refers to; a new incomplete one (in this scope) if none is visible,
        or always when the declaration is just `struct S;`."""
        found = None if self.peek().is_(";") else self.visible_tag(name.text)
        if found is None:
            found = self.tags[-1].get(name.text)
        if found is None:
            found = self.tags[-1][name.text] = T.Record(keyword.text == "union", name.text, name.loc)
        self.check_tag_kind(found, keyword, name)
        return found

    def tag_definition(self, keyword: Token, name: Token | None):
        is_union = keyword.text == "union"
        if name is None:
            return T.Record(is_union, None, keyword.loc)
        found = self.tags[-1].get(name.text)
        if found is not None:
            self.check_tag_kind(found, keyword, name)
            if found.body is None:
                return found
            self.diags.error(name.loc, f"redefinition of '{found.spelling()}'")
            self.diags.note(found.loc, "previous definition is here")
        record = self.tags[-1][name.text] = T.Record(is_union, name.text, name.loc)
        return record

    def check_tag_kind(self, record, keyword: Token, name: Token) -> None:
        if record.kind != keyword.text:
            self.diags.error(name.loc, f"use of '{name.text}' with tag type that does not match "
                                       f"previous declaration")
            self.diags.note(record.loc, "previous use is here")

    def visible_tag(self, name: str):
        for scope in reversed(self.tags):
            if name in scope:
                return scope[name]
        return None

    def layout_attributes(self) -> list[A.Attribute]:
        """The `aligned` attributes of a record specifier (sema applies them); others that would
        change the layout are refused, the rest ignored."""
        kept = []
        for attr in self.attributes():
            if attr.name in _LAYOUT_ATTRIBUTES:
                self.diags.error(attr.loc, f"the '{attr.name}' attribute on structs and unions "
                                           f"is not supported yet")
            elif attr.name == "aligned":
                kept.append(attr)
        return kept

    # member = declspec (declarator attributes ("," declarator attributes)*)? ";"
    def members(self, open_brace: Token) -> list[tuple]:
        body: list[tuple] = []
        while not self.consume("}"):
            if self.peek().kind is TokenKind.EOF:
                self.fail(self.peek(), "expected '}'")
            spec = self.declspec()
            if self.consume(";"):           # an anonymous struct or union member (C11)
                if spec.type.is_record and spec.type.record.tag is None:
                    body.append((spec.loc, None, spec.type))
                else:
                    self.diags.warning(spec.loc, "declaration does not declare anything", "missing-declarations")
                continue
            body += self.member_declarators(spec)
        if not body:
            self.diags.error(open_brace.loc, "empty structs and unions are not allowed in OpenCL C")
        return body

    def member_declarators(self, spec) -> list[tuple]:
        found = []
        while True:
            decl = self.declarator(spec.type)
            if self.at(":"):
                self.fail(self.peek(), "bit-fields are not supported in OpenCL C structs")
            for attr in self.attributes():
                if attr.name in _LAYOUT_ATTRIBUTES or attr.name == "aligned":
                    self.diags.error(attr.loc, f"the '{attr.name}' attribute on struct members "
                                               f"is not supported yet")
            found.append((decl.loc, decl.name, decl.type))
            if not self.consume(","):
                break
        self.expect_semicolon("at end of declaration list")
        return found

    # enum-specifier = "enum" identifier? ("{" enumerator ("," enumerator)* ","? "}")?
    # enumerator = identifier ("=" constant-expr)?
    def enum_specifier(self, keyword: Token, spec) -> T.Type:
        self.attributes()
        name = self.next() if self.peek().kind is TokenKind.IDENT else None
        if not self.at("{"):
            if name is None:
                self.fail(self.peek(), "declaration of anonymous enum must be a definition")
            return T.INT
        self.next()
        constants = []
        while not self.at("}"):
            tok = self.expect_identifier("identifier in enumerator list")
            value = self.constant_expr() if self.consume("=") else None
            self.declare_name(tok.text, None)
            constants.append(A.EnumConstant(tok.loc, tok.text, value))
            if not self.consume(","):
                break
        self.expect("}", " to close the enumerator list")
        spec.tag_decls.append(A.EnumDecl(keyword.loc, constants))
        return T.INT
