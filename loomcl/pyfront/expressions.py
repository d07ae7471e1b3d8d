"""Python expressions to checked OpenCL C expressions (a mixin of FunctionTranslator).

`expr(node)` returns the expression as sema checked it (an lvalue for a variable or an element,
to be read with `rvalue`). Literals: a Python int is an int32 where it fits (int64, then uint64,
beyond), a float is a float32, True/False are the ints 1 and 0 (types.py). Comparisons chain as in
Python (`a < b < c` is `a < b and b < c`, the middle operand evaluated once, into a hidden
variable); `and`, `or` and `not` give truth values (0 or 1), evaluating the right operand only
when needed, as Python does; `x if c else y` evaluates one arm.

Indexing: `a[i]` an element of a pointer or array, `a[i, j]` (or `a[i][j]`) of a two-dimensional
local or private array, `v[i]` a lane of a vector. A negative constant index is refused: a pointer
has no length to count back from. Attributes: a module's (`math.pi`), or a vector's lanes
(`v.x`, `v.xy`, `v.s3`, `v.hi`) as in OpenCL C.
"""
from __future__ import annotations

import ast

from ..frontend import ast as A
from ..frontend import types as T
from . import names
from .sema import checked
from .types import value_type

_COMPARE = {ast.Lt: A.BinaryOp.LT, ast.LtE: A.BinaryOp.LE, ast.Gt: A.BinaryOp.GT, ast.GtE: A.BinaryOp.GE,
            ast.Eq: A.BinaryOp.EQ, ast.NotEq: A.BinaryOp.NE}
_UNARY = {ast.USub: A.UnaryOp.MINUS, ast.UAdd: A.UnaryOp.PLUS, ast.Invert: A.UnaryOp.BIT_NOT,
          ast.Not: A.UnaryOp.LOGICAL_NOT}


class ExpressionTranslator:
    def expr(self, node) -> A.Expr:
        method = getattr(self, "expr_" + type(node).__name__, None)
        if method is None:
            raise self.fail(node, f"{_describe_syntax(node)} is not supported in a kernel")
        return method(node)

    def rvalue(self, node) -> A.Expr:
        return self.sema.to_rvalue(self.expr(node))

    # -- primaries -------------------------------------------------------------------------------

    def expr_Constant(self, node: ast.Constant) -> A.Expr:
        return self.literal(node.value, node)

    def literal(self, value, node) -> A.Expr:
        t = value_type(value)
        if t is None:
            raise self.fail(node, f"a {type(value).__name__} constant cannot be used in a kernel "
                                  f"(numbers only)")
        loc = self.loc(node)
        if t.is_floating:
            return A.FloatLiteral(loc, float(value), type=t)
        return A.IntLiteral(loc, int(value), type=T.INT if t.is_bool else t)

    def expr_Name(self, node: ast.Name) -> A.Expr:
        decl = self.variables.get(node.id)
        if decl is not None:
            return self.variable_ref(decl, node)
        value = self.global_object(node)
        if names.is_number(value):
            return self.literal(value, node)
        raise self.fail(node, f"'{node.id}' is a {names.describe(value)}, not a value a kernel can use"
                              f"{' (call it)' if callable(value) else ''}")

    def global_object(self, node):
        """The Python object a name or attribute chain outside the function's variables means."""
        if isinstance(node, ast.Name):
            if node.id in self.variables:
                return names.MISSING
            if node.id in self.source_assigned:  # local to the function, as Python decides
                raise self.fail(node, f"'{node.id}' is used before it is assigned")
            value = names.global_value(self.python_function, node.id)
            if value is names.MISSING:
                raise self.fail(node, f"name '{node.id}' is not defined")
            return value
        if isinstance(node, ast.Attribute):
            base = self.global_object(node.value)
            if base is names.MISSING:
                return names.MISSING
            if not hasattr(base, node.attr):
                raise self.fail(node, f"{names.describe(base)} has no attribute '{node.attr}'")
            return getattr(base, node.attr)
        return names.MISSING

    def expr_Attribute(self, node: ast.Attribute) -> A.Expr:
        value = self.global_object(node)
        if value is names.MISSING:  # an attribute of a value: a vector's lanes
            base = self.expr(node.value)
            return self.sema.check(A.Member(self.loc(node), checked(base), node.attr))
        if names.is_number(value):
            return self.literal(value, node)
        raise self.fail(node, f"'{ast.unparse(node)}' is a {names.describe(value)}, not a value a kernel "
                              f"can use")

    # -- operators -------------------------------------------------------------------------------

    def expr_UnaryOp(self, node: ast.UnaryOp) -> A.Expr:
        operand = self.expr(node.operand)
        return self.sema.check(A.Unary(self.loc(node), _UNARY[type(node.op)], checked(operand)))

    def expr_BoolOp(self, node: ast.BoolOp) -> A.Expr:
        op = A.BinaryOp.LOGICAL_AND if isinstance(node.op, ast.And) else A.BinaryOp.LOGICAL_OR
        result = self.expr(node.values[0])
        for value in node.values[1:]:
            right = self.expr(value)
            result = self.sema.check(A.Binary(self.loc(node), op, checked(result), checked(right)))
        return result

    def expr_Compare(self, node: ast.Compare) -> A.Expr:
        for op in node.ops:
            if type(op) not in _COMPARE:
                raise self.fail(node, f"'{_OP_TEXT.get(type(op), type(op).__name__)}' is not supported in a "
                                      f"kernel (compare numbers with <, <=, >, >=, ==, !=)")
        result, left = None, self.rvalue(node.left)
        for i, (op, right_node) in enumerate(zip(node.ops, node.comparators)):
            right = self.rvalue(right_node)
            last = i == len(node.ops) - 1
            saved = None
            if not last and not isinstance(right_node, (ast.Name, ast.Constant)) and not right.type.is_error:
                saved = self.temporary(right, right_node)  # a middle operand is evaluated once
                right = self.sema.check(A.Assign(right.loc, checked(self.variable_ref(saved, right_node)),
                                                 checked(right)))
            pair = self.comparison(_COMPARE[type(op)], left, right, node)
            result = pair if result is None else self.sema.check(
                A.Binary(self.loc(node), A.BinaryOp.LOGICAL_AND, checked(result), checked(pair)))
            left = right if saved is None else self.sema.to_rvalue(self.variable_ref(saved, right_node))
        return result

    def expr_IfExp(self, node: ast.IfExp) -> A.Expr:
        cond, then, else_ = self.expr(node.test), self.expr(node.body), self.expr(node.orelse)
        return self.sema.check(A.Conditional(self.loc(node), checked(cond), checked(then), checked(else_)))

    def expr_BinOp(self, node: ast.BinOp) -> A.Expr:
        return self.binary(node.op, self.rvalue(node.left), self.rvalue(node.right), node)

    # -- subscripts ------------------------------------------------------------------------------

    def expr_Subscript(self, node: ast.Subscript) -> A.Expr:
        indexes = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
        result = self.expr(node.value)
        for index in indexes:
            if isinstance(index, ast.Slice):
                raise self.fail(index, "slices are not supported in a kernel (index one element)")
            if isinstance(index, ast.UnaryOp) and isinstance(index.op, ast.USub) and \
                    isinstance(index.operand, ast.Constant):
                raise self.fail(index, "a negative index does not count from the end in a kernel (a "
                                       "pointer has no length); index from the start")
            value = self.rvalue(index)
            result = self.sema.check(A.Index(self.loc(node), checked(result), checked(value)))
        return result

    def expr_Call(self, node: ast.Call) -> A.Expr:
        return self.call(node)


_OP_TEXT = {ast.Is: "is", ast.IsNot: "is not", ast.In: "in", ast.NotIn: "not in"}

_SYNTAX_NAMES = {"Tuple": "a tuple", "List": "a list", "Dict": "a dict", "Set": "a set",
                 "ListComp": "a list comprehension", "SetComp": "a set comprehension",
                 "DictComp": "a dict comprehension", "GeneratorExp": "a generator expression",
                 "Lambda": "a lambda", "JoinedStr": "an f-string", "Starred": "a starred expression",
                 "NamedExpr": "an assignment expression (:=)", "Await": "await", "Yield": "yield",
                 "YieldFrom": "yield from", "Slice": "a slice"}


def _describe_syntax(node) -> str:
    return _SYNTAX_NAMES.get(type(node).__name__, f"'{type(node).__name__}'")
