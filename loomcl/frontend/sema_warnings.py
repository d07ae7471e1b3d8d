"""Warnings, worded and flagged as clang words them, for code that is legal but probably wrong.

* `unused variable 'x' [-Wunused-variable]`: a function-scope variable that nothing names after
  its declaration (an assignment names it, as in clang). Shown under -Wall only, as clang (and so
  PoCL) does: generated kernels (pyopencl's) are full of unused variables, and a default warning
  makes every build of theirs report compiler output.
* `expression result unused [-Wunused-value]`, or `equality comparison result unused` /
  `relational comparison result unused [-Wunused-comparison]`: an expression statement that
  computes a value and does nothing else (no assignment, increment or call inside). A cast to
  void says the drop is meant, as in C.

-w silences warnings and -Werror makes them errors (diagnostics.py).
"""
from __future__ import annotations

from . import ast as A


class WarningChecker:
    """Mixin for Sema: needs self.diags and self.scopes; fills self.used with referenced decls."""

    def note_use(self, decl) -> None:
        self.used.add(decl)

    def pop_scope(self) -> None:
        """Leave a block scope, warning about its variables that were never used."""
        for name, decl in self.scopes.pop().items():
            if isinstance(decl, A.VarDecl) and not decl.is_program_scope and decl not in self.used \
                    and not _invalid(decl):
                self.diags.warning(decl.loc, f"unused variable '{name}'", "unused-variable")

    def warn_unused_result(self, e: A.Expr) -> None:
        if e.type is None or e.type.is_error or _has_effect(e):
            return
        core = _without_implicit_casts(e)
        if isinstance(core, A.Binary) and core.op.is_comparison:
            kind = "equality" if core.op in (A.BinaryOp.EQ, A.BinaryOp.NE) else "relational"
            self.diags.warning(core.loc, f"{kind} comparison result unused", "unused-comparison")
        else:
            self.diags.warning(core.loc, "expression result unused", "unused-value")


def _invalid(decl: A.VarDecl) -> bool:
    """A declaration that already has an error (as in clang, it gets no further warnings)."""
    init_type = decl.init.type if decl.init is not None else None
    return decl.type.is_error or (init_type is not None and init_type.is_error)


_EFFECTS = (A.Assign, A.CompoundAssign, A.IncDec, A.Call, A.BuiltinCall, A.PrintfCall, A.Comma,
            A.Conditional)
_CHILDREN = {
    A.Binary: ("left", "right"), A.Unary: ("operand",), A.Cast: ("operand",), A.Deref: ("operand",),
    A.AddressOf: ("operand",), A.Index: ("base", "index"), A.VectorIndex: ("base", "index"),
    A.Member: ("base",), A.Swizzle: ("base",), A.PointerArith: ("pointer", "offset"),
    A.PointerDiff: ("left", "right"),
}


def _has_effect(e: A.Expr) -> bool:
    """Whether evaluating e does more than compute its value. Calls count as effects (clang warns
    about dropped results of const builtins separately; loomcl does not). A comma or a conditional
    counts too: clang judges their parts, which loomcl leaves alone rather than guess."""
    if isinstance(e, _EFFECTS):
        return True
    if isinstance(e, A.Cast) and not e.implicit and e.type.is_void:
        return True  # (void)x: dropped on purpose
    if isinstance(e, A.Cast) and e.kind is A.CastKind.LOAD and e.operand.type.quals.volatile:
        return True  # a volatile read is an access in itself
    if isinstance(e, A.VectorLiteral):
        return any(_has_effect(item) for item in e.items)
    return any(_has_effect(getattr(e, name)) for name in _CHILDREN.get(type(e), ()))


def _without_implicit_casts(e: A.Expr) -> A.Expr:
    while isinstance(e, A.Cast) and e.implicit:
        e = e.operand
    return e
