"""`half` without cl_khr_fp16 (OpenCL C 1.2 6.1.1.1): a storage format, not an arithmetic type.

loomcl does not report cl_khr_fp16, so a program may declare pointers to half, put half fields and
arrays in structs that live in buffers, take `sizeof(half)` (2), do pointer arithmetic on half
pointers, and read and write halves through the vload_half/vstore_half builtins (6.12.7), which
convert to and from float. Everything that would need a half *value* is refused, in clang's words:
a variable, parameter or function result of a half type, a load or store through a half lvalue, a
cast to half and a half literal (`1.0h`).
"""
from __future__ import annotations

from . import ast as A
from . import types as T

_LOAD = ("loading directly from pointer to type '{}' requires cl_khr_fp16. Use vector data load "
         "builtin functions instead")
_STORE = ("assigning directly to pointer to type '{}' requires cl_khr_fp16. Use vector data store "
          "builtin functions instead")


def is_half(t: T.Type) -> bool:
    """Whether t is half, a vector of half, or an array of those (not a struct holding halves)."""
    while t.is_array:
        t = t.element
    t = T.element_of(t)
    return t.is_floating and t.bits == 16


class HalfChecker:
    """Mixin for Sema: needs self.diags and self.error."""

    def refuse_half_declaration(self, t: T.Type, loc, what: str) -> bool:
        """Report a declaration of a half type (`what`: variable, function parameter, function
        return value); True if refused."""
        if not is_half(t):
            return False
        self.diags.error(loc, f"declaring {what} of type '{t}' is not allowed")
        return True

    def refuse_half_load(self, e: A.Expr) -> A.Expr | None:
        """The poisoned e when reading lvalue e would load a half, else None."""
        return self.error(e, _LOAD.format(e.type)) if is_half(e.type) else None

    def refuse_half_store(self, target: A.Expr, loc) -> bool:
        if not is_half(target.type):
            return False
        self.diags.error(loc, _STORE.format(target.type.unqualified()))
        return True

    def refuse_half_cast(self, e: A.Expr, target: T.Type) -> A.Expr | None:
        return self.error(e, f"casting to type '{target}' is not allowed") if is_half(target) else None

    def refuse_half_literal(self, e: A.FloatLiteral) -> A.Expr | None:
        return self.error(e, "half precision constant requires cl_khr_fp16") if is_half(e.type) else None
