"""Parser: preprocessed tokens to an untyped AST (recursive descent, C 6.8-6.9).

This file holds the statement and top-level rules and the entry point; expressions live in
parse_expr.py and declarations in parse_decl.py (all three are one Parser object). The AST it
builds has no types on expressions yet and unresolved names; sema.py completes it.

Error recovery: a syntax error is reported once (parse_cursor.SyntaxRecovery), then the statement
loop skips to the next `;` or `}` and the top-level loop to the next declaration, so the rest of the
program is still checked.
"""
from __future__ import annotations

from . import ast as A
from .diagnostics import Diagnostics
from .parse_cursor import SyntaxRecovery, TokenCursor
from .parse_decl import DeclarationParser, Declarator, DeclSpec
from .parse_expr import ExpressionParser
from .parse_record import RecordParser
from .tokens import Token, TokenKind


class Parser(TokenCursor, ExpressionParser, DeclarationParser, RecordParser):

    # translation-unit = external-declaration*
    def translation_unit(self) -> A.TranslationUnit:
        decls: list = []
        while self.peek().kind is not TokenKind.EOF:
            start = self.pos
            try:
                decls.extend(self.external_declaration())
            except SyntaxRecovery:
                self.skip_to_sync()
                if self.pos == start:
                    self.next()
        return A.TranslationUnit(decls)

    # external-declaration = declspec declarator attributes compound-stmt
    #                      | declspec (init-declarator ("," init-declarator)*)? ";"
    def external_declaration(self) -> list:
        if self.consume(";"):
            return []
        spec = self.declspec()
        if self.consume(";"):
            return spec.tag_decls
        decl = self.declarator(spec.type)
        spec.attributes += self.attributes()
        if decl.type.is_function:
            function = self.function_prototype(spec, decl)
            if self.at("{"):
                function.body = self.function_body(function)
                return [function]
            rest = self.declaration(spec, None, True) if self.consume(",") else \
                (self.expect_semicolon("after function declaration") or [])
            return [function] + rest
        return self.declaration(spec, decl, program_scope=True)

    def function_prototype(self, spec: DeclSpec, decl: Declarator) -> A.FunctionDecl:
        if len(self.scopes) > 2:
            self.fail(self.tokens[self.pos - 1], "function declarations inside a function are not "
                                                 "supported")
        self.declare_name(decl.name, None)
        return A.FunctionDecl(decl.loc, decl.name, decl.type.result, decl.params or [],
                              is_kernel=spec.is_kernel, is_inline=spec.is_inline,
                              is_static=spec.storage == "static", attributes=list(spec.attributes))

    def function_body(self, function: A.FunctionDecl) -> A.CompoundStmt:
        self.push_scope()
        for p in function.params:
            self.declare_name(p.name, None)
        body = self.compound_stmt(self.expect("{"))
        self.pop_scope()
        return body

    # compound-stmt = (declaration | stmt)* "}"     (after the "{")
    def compound_stmt(self, open_brace: Token) -> A.CompoundStmt:
        items: list[A.Stmt] = []
        self.push_scope()
        while not self.at("}"):
            if self.peek().kind is TokenKind.EOF:
                self.diags.error(self.peek().loc, "expected '}'")
                self.diags.note(open_brace.loc, "to match this '{'")
                break
            start = self.pos
            try:
                items.append(self.block_item())
            except SyntaxRecovery:
                self.skip_to_sync()
                if self.pos == start:
                    self.next()
        self.consume("}")
        self.pop_scope()
        return A.CompoundStmt(open_brace.loc, items)

    # block-item = declaration | attributes loop-stmt | stmt
    def block_item(self) -> A.Stmt:
        tok = self.peek()
        if tok.is_("__attribute__") and (loop := self.attributed_loop()) is not None:
            return loop
        if self.is_type_name(tok) and not self.peek(1).is_(":"):
            return A.DeclStmt(tok.loc, self.declaration(self.declspec()))
        return self.stmt()

    def attributed_loop(self) -> A.Stmt | None:
        """`__attribute__((opencl_unroll_hint(n))) for (...)` (OpenCL C 6.11.5): a loop's attributes
        are hints, which the loop optimizer's own choice replaces. None (nothing consumed) when the
        attributes begin a declaration instead."""
        start = self.pos
        attributes = self.attributes()
        if self.peek().kind is not TokenKind.KEYWORD or self.peek().text not in ("for", "while", "do"):
            self.pos = start
            return None
        for attribute in attributes:
            if attribute.name != "opencl_unroll_hint":
                self.diags.warning(attribute.loc, f"unknown attribute '{attribute.name}' ignored",
                                   "unknown-attributes")
        return self.stmt()

    # stmt = "return" expr? ";" | "if" "(" expr ")" stmt ("else" stmt)?
    #      | "switch" "(" expr ")" stmt | "case" constant-expr ":" stmt | "default" ":" stmt
    #      | "for" "(" for-init expr? ";" expr? ")" stmt | "while" "(" expr ")" stmt
    #      | "do" stmt "while" "(" expr ")" ";" | "break" ";" | "continue" ";"
    #      | "goto" identifier ";" | identifier ":" stmt | "{" compound-stmt | ";" | expr ";"
    def stmt(self) -> A.Stmt:
        tok = self.peek()
        rule = _STATEMENT_RULES.get(tok.text) if tok.kind in (TokenKind.KEYWORD,
                                                              TokenKind.PUNCT) else None
        if rule is not None:
            self.next()
            return rule(self, tok)
        if tok.kind is TokenKind.IDENT and self.peek(1).is_(":"):
            return self.labeled_stmt(tok)
        expr = self.expr()
        self.expect_semicolon("after expression")
        return A.ExprStmt(tok.loc, expr)

    def return_stmt(self, tok: Token) -> A.Stmt:
        value = None if self.at(";") else self.expr()
        self.expect_semicolon("after return statement")
        return A.ReturnStmt(tok.loc, value)

    def if_stmt(self, tok: Token) -> A.Stmt:
        cond = self.paren_expr(tok)
        then = self.stmt()
        other = self.stmt() if self.consume("else") else None
        return A.IfStmt(tok.loc, cond, then, other)

    def paren_expr(self, keyword: Token) -> A.Expr:
        self.expect("(", f" after '{keyword.text}'")
        expr = self.expr()
        self.expect(")")
        return expr

    def switch_stmt(self, tok: Token) -> A.Stmt:
        cond = self.paren_expr(tok)
        return A.SwitchStmt(tok.loc, cond, self.stmt())

    def case_stmt(self, tok: Token) -> A.Stmt:
        value = self.constant_expr()
        self.expect(":", " after 'case'")
        return A.CaseStmt(tok.loc, value, self.label_body())

    def default_stmt(self, tok: Token) -> A.Stmt:
        self.expect(":", " after 'default'")
        return A.DefaultStmt(tok.loc, self.label_body())

    def label_body(self) -> A.Stmt:
        """The statement after a label; `case 1: }` is accepted as an empty statement."""
        if self.at("}"):
            return A.NullStmt(self.peek().loc)
        return self.stmt()

    # for-init = declaration | expr? ";"
    def for_stmt(self, tok: Token) -> A.Stmt:
        self.expect("(", " after 'for'")
        self.push_scope()
        init: A.Stmt | None = None
        if self.is_type_name(self.peek()):
            init = A.DeclStmt(self.peek().loc, self.declaration(self.declspec()))
        elif not self.consume(";"):
            init = A.ExprStmt(self.peek().loc, self.expr())
            self.expect(";", " in 'for' statement")
        cond = None if self.at(";") else self.expr()
        self.expect(";", " in 'for' statement")
        step = None if self.at(")") else self.expr()
        self.expect(")")
        body = self.stmt()
        self.pop_scope()
        return A.ForStmt(tok.loc, init, cond, step, body)

    def while_stmt(self, tok: Token) -> A.Stmt:
        cond = self.paren_expr(tok)
        return A.WhileStmt(tok.loc, cond, self.stmt())

    def do_stmt(self, tok: Token) -> A.Stmt:
        body = self.stmt()
        self.expect("while", " in do/while loop")
        cond = self.paren_expr(self.tokens[self.pos - 1])
        self.expect_semicolon("after do/while statement")
        return A.DoWhileStmt(tok.loc, body, cond)

    def break_stmt(self, tok: Token) -> A.Stmt:
        self.expect_semicolon("after 'break'")
        return A.BreakStmt(tok.loc)

    def continue_stmt(self, tok: Token) -> A.Stmt:
        self.expect_semicolon("after 'continue'")
        return A.ContinueStmt(tok.loc)

    def block_stmt(self, tok: Token) -> A.Stmt:
        return self.compound_stmt(tok)

    def null_stmt(self, tok: Token) -> A.Stmt:
        return A.NullStmt(tok.loc)

    def goto_stmt(self, tok: Token) -> A.Stmt:
        name = self.expect_identifier("identifier after 'goto'")
        self.expect_semicolon("after 'goto'")
        return A.GotoStmt(tok.loc, name.text)

    def labeled_stmt(self, name: Token) -> A.Stmt:
        self.next()
        self.next()
        return A.LabelStmt(name.loc, name.text, self.label_body())


_STATEMENT_RULES = {
    "return": Parser.return_stmt, "if": Parser.if_stmt, "switch": Parser.switch_stmt,
    "case": Parser.case_stmt, "default": Parser.default_stmt, "for": Parser.for_stmt,
    "while": Parser.while_stmt, "do": Parser.do_stmt, "break": Parser.break_stmt,
    "continue": Parser.continue_stmt, "{": Parser.block_stmt, ";": Parser.null_stmt,
    "goto": Parser.goto_stmt,
}


def parse(tokens: list[Token], diags: Diagnostics) -> A.TranslationUnit:
    """The untyped AST of a preprocessed, finished token list."""
    return Parser(tokens, diags).translation_unit()
