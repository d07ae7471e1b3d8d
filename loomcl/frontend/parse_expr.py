"""Expression grammar (C 6.5), one method per rule, precedence from lowest to highest.

Binary levels share `_left_assoc`, which parses `operand (op operand)*` and builds left-leaning
`Binary` nodes; assignment and `?:` are right-associative and recurse instead. A node's location is
its operator token (clang points at the operator when operands are wrong), or its first token for
primaries. Casts and sizeof need to tell a type name from an expression after `(`: `is_type_name`
(parse_decl.py) decides from the token and the type scopes.
"""
from __future__ import annotations


from . import ast as A
from . import types as T
from .tokens import TokenKind
from .unsupported import BLOCKS, message as unsupported

_ASSIGN_OPS = {
    "*=": A.BinaryOp.MUL, "/=": A.BinaryOp.DIV, "%=": A.BinaryOp.MOD, "+=": A.BinaryOp.ADD,
    "-=": A.BinaryOp.SUB, "<<=": A.BinaryOp.SHL, ">>=": A.BinaryOp.SHR, "&=": A.BinaryOp.BIT_AND,
    "^=": A.BinaryOp.BIT_XOR, "|=": A.BinaryOp.BIT_OR,
}
_UNARY_OPS = {"+": A.UnaryOp.PLUS, "-": A.UnaryOp.MINUS, "!": A.UnaryOp.LOGICAL_NOT,
              "~": A.UnaryOp.BIT_NOT}
_ALIGNOF = ("_Alignof", "__alignof__", "__alignof")
_POSTFIX = frozenset(("[", "(", "++", "--", ".", "->"))  # what may follow a postfix expression's operand
_WORDS = (TokenKind.PUNCT, TokenKind.KEYWORD)  # C11's and GNU's spellings (clang takes all three)


# binary operator spelling -> (precedence level, operator); a higher level binds tighter
_BINARY = {op.value: (level, op) for level, ops in enumerate((
    (A.BinaryOp.LOGICAL_OR,), (A.BinaryOp.LOGICAL_AND,), (A.BinaryOp.BIT_OR,), (A.BinaryOp.BIT_XOR,),
    (A.BinaryOp.BIT_AND,), (A.BinaryOp.EQ, A.BinaryOp.NE),
    (A.BinaryOp.LT, A.BinaryOp.GT, A.BinaryOp.LE, A.BinaryOp.GE), (A.BinaryOp.SHL, A.BinaryOp.SHR),
    (A.BinaryOp.ADD, A.BinaryOp.SUB), (A.BinaryOp.MUL, A.BinaryOp.DIV, A.BinaryOp.MOD)), start=1) for op in ops}


class ExpressionParser:
    """Mixin for Parser: needs the TokenCursor methods and parse_decl's type_name/is_type_name."""

    # expr = assign ("," assign)*
    def expr(self) -> A.Expr:
        node = self.assign()
        while tok := self.consume(","):
            node = A.Comma(tok.loc, node, self.assign())
        return node

    # assign = conditional (assign-op assign)?
    def assign(self) -> A.Expr:
        node = self.conditional()
        tok = self.peek()
        if tok.kind is not TokenKind.PUNCT:
            return node
        if tok.text == "=":
            self.next()
            return A.Assign(tok.loc, node, self.assign())
        if tok.text in _ASSIGN_OPS:
            self.next()
            return A.CompoundAssign(tok.loc, _ASSIGN_OPS[tok.text], node, self.assign())
        return node

    # conditional = logor ("?" expr ":" conditional)?
    def conditional(self) -> A.Expr:
        cond = self.logor()
        tok = self.consume("?")
        if not tok:
            return cond
        then = self.expr()
        self.expect(":", " in conditional expression")
        return A.Conditional(tok.loc, cond, then, self.conditional())

    # constant_expr = conditional   (folded by sema)
    def constant_expr(self) -> A.Expr:
        return self.conditional()

    # binary = cast (binary-op cast)*, by precedence climbing over _BINARY's levels (C 6.5.5-6.5.14,
    # all left-associative): one loop instead of a function per level, since every primary
    # expression of a program passes through all ten levels.
    def binary(self, min_level: int = 1) -> A.Expr:
        node = self.cast()
        while True:
            tok = self.peek()
            if tok.kind is not TokenKind.PUNCT:
                return node
            found = _BINARY.get(tok.text)
            if found is None or found[0] < min_level:
                return node
            self.next()
            node = A.Binary(tok.loc, found[1], node, self.binary(found[0] + 1))

    # logor = the binary operators, the loosest first
    def logor(self) -> A.Expr:
        return self.binary()

    # cast = "(" type-name ")" cast | "(" vector-type-name ")" "(" args ")" | unary
    #      | "(" type-name ")" initializer postfix-suffixes   (a compound literal)
    # (`(char4)(char)0` is a cast of a cast: a type name cannot start a vector literal's list)
    def cast(self) -> A.Expr:
        tok = self.tokens[self.pos]
        if tok.text == "(" and tok.kind is TokenKind.PUNCT and self.is_type_name(self.peek(1)):
            tok = self.next()
            target = self.type_name()
            self.expect(")", " after type in cast")
            if self.at("{"):
                return self.postfix(A.CompoundLiteral(tok.loc, self.initializer(), type=target))
            if target.is_vector and self.at("(") and not self.is_type_name(self.peek(1)) and self.consume("("):
                return A.VectorLiteral(tok.loc, self.call_args(), type=target)
            return A.Cast(tok.loc, None, self.cast(), type=target)
        return self.unary()

    # unary = ("+" | "-" | "!" | "~") cast | ("*" | "&") cast | ("++" | "--") unary
    #       | "sizeof" "(" type-name ")" | "sizeof" unary | postfix
    #       | ("_Alignof" | "__alignof__" | "__alignof" | "vec_step") ("(" type-name ")" | unary)
    def unary(self) -> A.Expr:
        tok = self.tokens[self.pos]
        if tok.kind not in _WORDS:  # a name or a literal: the common case
            if tok.text == "vec_step" and tok.kind is TokenKind.IDENT:  # OpenCL C's operator (6.4.4.5)
                self.next()
                return self.sizeof_operand(tok, vec_step=True)
            return self.postfix()
        if tok.kind is TokenKind.PUNCT and tok.text in _UNARY_OPS:
            self.next()
            return A.Unary(tok.loc, _UNARY_OPS[tok.text], self.cast())
        if self.consume("*"):
            return A.Deref(tok.loc, self.cast())
        if self.consume("&"):
            return A.AddressOf(tok.loc, self.cast())
        if self.consume("++") or self.consume("--"):
            op = A.IncDecOp.PRE_INC if tok.text == "++" else A.IncDecOp.PRE_DEC
            return A.IncDec(tok.loc, op, self.unary())
        if self.consume("sizeof"):
            return self.sizeof_operand(tok)
        if tok.text in _ALIGNOF and self.consume(tok.text):
            return self.sizeof_operand(tok, alignment=True)
        return self.postfix()

    def sizeof_operand(self, tok, alignment: bool = False, vec_step: bool = False) -> A.Expr:
        if self.at("(") and self.is_type_name(self.peek(1)):
            self.next()
            target = self.type_name()
            self.expect(")", f" after type in {tok.text}")
            return A.SizeOf(tok.loc, type_operand=target, alignment=alignment, vec_step=vec_step)
        return A.SizeOf(tok.loc, operand=self.unary(), alignment=alignment, vec_step=vec_step)

    # postfix = primary ("[" expr "]" | "(" args ")" | "++" | "--" | ("." | "->") identifier)*
    def postfix(self, node: A.Expr | None = None) -> A.Expr:
        node = node or self.primary()
        while True:
            tok = self.tokens[self.pos]
            if tok.kind is not TokenKind.PUNCT or tok.text not in _POSTFIX:
                return node
            if self.consume("["):
                index = self.expr()
                self.expect("]", " after array subscript")
                node = A.Index(tok.loc, node, index)
            elif self.consume("("):
                node = A.Call(node.loc, node, self.call_args())
            elif self.consume("++") or self.consume("--"):
                op = A.IncDecOp.POST_INC if tok.text == "++" else A.IncDecOp.POST_DEC
                node = A.IncDec(tok.loc, op, node)
            elif self.consume(".") or self.consume("->"):
                name = self.next()
                if name.kind is not TokenKind.IDENT:
                    self.fail(name, f"expected a member name after '{tok.text}'")
                node = A.Member(tok.loc, node, name.text, arrow=tok.text == "->")
            else:
                return node

    # args = (assign ("," assign)*)? ")"
    def call_args(self) -> list[A.Expr]:
        args: list[A.Expr] = []
        if self.consume(")"):
            return args
        args.append(self.assign())
        while self.consume(","):
            args.append(self.assign())
        self.expect(")", " to close the argument list")
        return args

    # block = "^" ("(" params ")")? "{" ... "}"  -- OpenCL C 2.0's device-side enqueue
    def block_literal(self, caret) -> A.Expr:
        """Report a block and skip it whole (its statements would only give more errors)."""
        self.diags.error(caret.loc, unsupported("^", BLOCKS))
        if self.peek().is_("("):
            self.skip_balanced("(", ")")
        if self.peek().is_("{"):
            self.skip_balanced("{", "}")
        return A.IntLiteral(caret.loc, 0, type=T.ERROR)

    def skip_balanced(self, opening: str, closing: str) -> None:
        depth = 0
        while self.peek().kind is not TokenKind.EOF:
            tok = self.next()
            depth += tok.is_(opening) - tok.is_(closing)
            if depth == 0:
                return

    # primary = "(" expr ")" | identifier | integer | floating | character | string+
    def primary(self) -> A.Expr:
        tok = self.next()
        if tok.is_("(") and tok.kind is TokenKind.PUNCT:
            node = self.expr()
            self.expect(")")
            return node
        if tok.kind is TokenKind.IDENT:
            return A.VarRef(tok.loc, tok.text)
        if tok.kind in (TokenKind.INT, TokenKind.CHAR):
            return A.IntLiteral(tok.loc, tok.value, type=tok.type)
        if tok.kind is TokenKind.FLOAT:
            return A.FloatLiteral(tok.loc, tok.value, type=tok.type)
        if tok.is_("^") and tok.kind is TokenKind.PUNCT:
            return self.block_literal(tok)
        if tok.kind is TokenKind.STRING:
            value = tok.value
            while self.peek().kind is TokenKind.STRING:
                value += self.next().value
            return A.StringLiteral(tok.loc, value)
        if tok.kind is not TokenKind.EOF:
            self.pos -= 1  # leave the offending token for error recovery to skip over
        self.fail(tok, "expected expression")
