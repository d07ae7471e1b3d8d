"""The OpenCL C semantic checker, taught to accept subtrees that are already checked.

The Python front-end builds OpenCL C's AST (frontend/ast.py) node by node and checks each node as
soon as it is built, because Python's variables take their types from the values assigned to them:
the type of the right-hand side must be known before the variable is declared. A parent node is
built around children that sema already checked; `Checked` marks such a child so that sema uses
it as it is instead of checking it a second time (a second check would, for one, load a variable
twice). Nothing else of sema changes: the conversions, overload resolution of the builtins,
vector rules and diagnostics are the OpenCL C front-end's own.
"""
from __future__ import annotations

from dataclasses import dataclass

from ..frontend import ast as A
from ..frontend.sema import Sema


@dataclass(eq=False)
class Checked(A.Expr):
    """An expression sema has already checked (lvalue or not); sema takes `inner` as it is."""

    inner: A.Expr = None


def checked(e: A.Expr) -> Checked:
    return Checked(e.loc, inner=e)


class PythonSema(Sema):
    def check_Checked(self, e: Checked) -> A.Expr:
        return e.inner
