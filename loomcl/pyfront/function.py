"""One Python function (a kernel or one specialization of a helper) to a typed OpenCL C function.

The translation walks the Python syntax tree once, in source order, and builds OpenCL C's typed AST
(frontend/ast.py), checking each node with the OpenCL C front-end's sema as it goes (sema.py says
why). What is Python's own is decided here and in the mixins:

* variables: function-scoped as in Python; a variable is declared, with the type of the value,
  where it is first assigned in source order, and keeps that type (a later assignment converts;
  one that would turn a float into an integer is an error, since Python would change the type);
* names that are not variables are read from the function's globals and closure at compile time
  (names.py);
* statements (statements.py), expressions (expressions.py), Python's arithmetic (arithmetic.py),
  calls (calls.py).

Errors are collected, one per statement, with the Python file, line and column (source.py); a
statement with an error is left out and the translation goes on, so a build reports them all.
"""
from __future__ import annotations

import ast

from ..frontend import ast as A
from ..frontend import types as T
from .arithmetic import ArithmeticTranslator
from .calls import CallTranslator
from .expressions import ExpressionTranslator
from .sema import checked
from .source import FunctionSource
from .statements import StatementTranslator


class KernelSyntaxError(Exception):
    """Something a kernel may not contain, at a node of its source."""

    def __init__(self, node, message: str) -> None:
        super().__init__(message)
        self.node = node
        self.message = message


class FunctionTranslator(StatementTranslator, ExpressionTranslator, ArithmeticTranslator, CallTranslator):
    """The state of translating one function; `program` (program.py) is shared by all of them."""

    Error = KernelSyntaxError

    def __init__(self, program, source: FunctionSource, python_function, decl: A.FunctionDecl) -> None:
        self.program = program
        self.sema = program.sema
        self.source = source
        self.python_function = python_function
        self.decl = decl
        self.variables: dict[str, object] = {}      # name -> VarDecl or ParamDecl
        self.declarations: list[A.VarDecl] = []     # declared at the top of the body, in order
        self.loops: list[A.Stmt] = []               # enclosing loops, innermost last
        self.returns: list[A.ReturnStmt] = []
        self.temporaries = 0
        self.source_assigned = assigned_names(source.tree.body)

    def translate(self) -> A.FunctionDecl:
        """Fill in decl.body (and a helper's result type); errors go to the program's diagnostics."""
        self.sema.function = self.decl
        self.sema.scopes.append({})
        for param in self.decl.params:
            self.variables[param.name] = param
            self.sema.declare(param.name, param, param.loc)
        items = self.block(self.source.tree.body)
        self.sema.scopes.pop()
        self.sema.function = None
        self.finish_returns()
        body = [A.DeclStmt(d.loc, [d]) for d in self.declarations] + items
        self.decl.body = A.CompoundStmt(self.decl.loc, body)
        return self.decl

    # -- errors and locations ----------------------------------------------------------------------

    def loc(self, node):
        return self.source.location(node)

    def fail(self, node, message: str) -> KernelSyntaxError:
        return KernelSyntaxError(node, message)

    def report(self, error: KernelSyntaxError) -> None:
        self.program.diags.error(self.loc(error.node), error.message, self.source.length(error.node))

    # -- variables ---------------------------------------------------------------------------------

    def declare(self, name: str, t: T.Type, node) -> A.VarDecl:
        """A new variable of type t, declared at the top of the function (Python's scope)."""
        decl = A.VarDecl(self.loc(node), name, t)
        self.sema.var_decl(decl)
        self.variables[name] = decl
        self.declarations.append(decl)
        return decl

    def temporary(self, value: A.Expr, node) -> A.VarDecl:
        """A hidden variable holding an rvalue evaluated once (range bounds, tuple assignments)."""
        self.temporaries += 1
        decl = self.declare(f"__tmp{self.temporaries}", value.type.unqualified(), node)
        return decl

    def variable_ref(self, decl, node) -> A.Expr:
        return self.sema.check(A.VarRef(self.loc(node), decl.name))

    def assignment(self, target: A.Expr, value: A.Expr, node) -> A.Stmt:
        """`target = value` for a checked target and a checked value."""
        expr = self.sema.check(A.Assign(self.loc(node), checked(target), checked(value)))
        return A.ExprStmt(self.loc(node), expr)

    # -- returns -----------------------------------------------------------------------------------

    def finish_returns(self) -> None:
        """A helper's result type is its first returned value's; every return converts to it."""
        if self.decl.is_kernel:
            return
        values = [r for r in self.returns if r.value is not None]
        result = values[0].value.type.unqualified() if values else T.VOID
        if result.is_array:
            result = T.pointer_to(result.element)
        self.decl.result_type = result
        for ret in self.returns:
            if ret.value is None and not result.is_void:
                self.program.diags.error(ret.loc, f"'{self.decl.name}' returns a value elsewhere; this "
                                                  f"return must return one too")
            elif ret.value is not None and not ret.value.type.is_error:
                ret.value = self.sema.convert(self.sema.to_rvalue(ret.value), result,
                                              "returning '{source}' from a function whose first return "
                                              "gives '{target}'")


def assigned_names(nodes) -> set[str]:
    """Every name a list of statements assigns (a for loop's target included)."""
    names = set()
    for node in nodes:
        for sub in ast.walk(node):
            if isinstance(sub, ast.Name) and isinstance(sub.ctx, ast.Store):
                names.add(sub.id)
    return names
