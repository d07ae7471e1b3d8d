"""Calls in a kernel (a mixin of FunctionTranslator): what the callee object is decides the call.

* a @cl.func helper: specialized for the argument types and called (inlined later, like every
  OpenCL C call; it may contain barriers);
* a device function of lang.py: a work-item query (converted to int32), barrier, an atomic on
  `a[i]` (`cl.atomic_add(a, i, v)` is OpenCL's `atomic_add(&a[i], v)`), a vector constructor, or
  an OpenCL builtin by its OpenCL name (mad, clamp, ...);
* math.* and numpy's element-wise functions: the OpenCL builtin of the same meaning; integer
  arguments become float32 first (Python's math takes ints), and math.floor/ceil/trunc give an
  int32, as in Python (numpy's give floats, as in numpy);
* abs, min, max, int, float, bool, round, numpy scalar types (conversions), np.where (a select).

A builtin that takes floats gets integer constants converted (`cl.clamp(x, 0, 1)` on a float x).
"""
from __future__ import annotations

import ast

from ..frontend import ast as A
from ..frontend import types as T
from ..frontend.conversions import usual_arithmetic
from . import lang, names
from .helpers import PythonFunction
from .sema import checked
from .types import element_type


class CallTranslator:
    def call(self, node: ast.Call) -> A.Expr:
        if node.keywords:
            raise self.fail(node.keywords[0].value, "keyword arguments are not supported in kernel calls")
        callee = self.global_object(node.func)
        if callee is names.MISSING:
            raise self.fail(node.func, f"'{ast.unparse(node.func)}' is not a function a kernel can call")
        return self.call_of(callee, node)

    def call_of(self, callee, node: ast.Call) -> A.Expr:
        if isinstance(callee, PythonFunction) and callee.is_kernel:
            raise self.fail(node.func, f"a kernel cannot call the kernel '{callee.name}'; make the shared "
                                       f"code a @cl.func helper")
        if isinstance(callee, PythonFunction):
            return self.helper_call(callee, node)
        if isinstance(callee, lang.DeviceFunction):
            return getattr(self, "device_" + callee.kind)(callee, node)
        if names.is_scalar_type(callee):
            return self.conversion(element_type(callee), node)
        if _known(callee, names.MATH_FUNCTIONS):
            return self.math_call(callee, node)
        if _known(callee, names.PYTHON_BUILTINS):
            return getattr(self, "python_" + names.PYTHON_BUILTINS[callee])(node)
        raise self.fail(node.func, f"'{ast.unparse(node.func)}' is a {names.describe(callee)}, which a kernel "
                                   f"cannot call (kernels call @cl.func helpers, loomcl's device functions and "
                                   f"math functions)")

    def arguments(self, node: ast.Call, count=None, name: str = "") -> list[A.Expr]:
        if count is not None and len(node.args) not in (count if isinstance(count, tuple) else (count,)):
            expected = " or ".join(map(str, count)) if isinstance(count, tuple) else count
            raise self.fail(node, f"{name or ast.unparse(node.func)}() takes {expected} argument"
                                  f"{'s' if expected != 1 else ''}, not {len(node.args)}")
        for arg in node.args:
            if isinstance(arg, ast.Starred):
                raise self.fail(arg, "starred arguments are not supported in a kernel")
        return [self.rvalue(arg) for arg in node.args]

    # -- calls of checked arguments --------------------------------------------------------------

    def builtin_call(self, name: str, args: list[A.Expr], node) -> A.Expr:
        """An OpenCL C builtin by name (found even where a variable shadows the name)."""
        call = A.Call(self.loc(node), A.VarRef(self.loc(node), name), [])
        return self.sema.builtin_call(call, name, args)

    def user_call(self, decl: A.FunctionDecl, args: list[A.Expr], node) -> A.Expr:
        call = A.Call(self.loc(node), A.VarRef(self.loc(node), decl.name), [])
        return self.sema.user_call(call, decl, args)

    def float_constants(self, args: list[A.Expr], nodes) -> list[A.Expr]:
        """Integer constants among float arguments made floats of the arguments' element type."""
        floats = [a.type for a in args if T.element_of(a.type).is_floating]
        if not floats:
            return args
        element = T.element_of(floats[0])
        return [self.convert_to(a, element) if isinstance(n, ast.Constant) and a.type.is_integer else a
                for a, n in zip(args, nodes)]

    # -- helpers ---------------------------------------------------------------------------------

    def helper_call(self, helper, node: ast.Call) -> A.Expr:
        args = self.arguments(node)
        if any(a.type.is_error for a in args):
            return self.poisoned(node)
        decl = self.program.specialize(helper, [a.type for a in args], self, node)
        return self.user_call(decl, args, node)

    def poisoned(self, node) -> A.Expr:
        return A.IntLiteral(self.loc(node), 0, type=T.ERROR)

    # -- device functions ------------------------------------------------------------------------

    def device_work_item(self, function: lang.DeviceFunction, node: ast.Call) -> A.Expr:
        if function.name == "work_dim":
            args = self.arguments(node, 0, "work_dim")
        else:
            args = self.arguments(node, (0, 1), function.name) or [self.literal(0, node)]
        return self.convert_to(self.builtin_call(function.c_name, args, node), T.INT)

    def device_barrier(self, function, node: ast.Call) -> A.Expr:
        args = self.arguments(node, (0, 1), "barrier") or [self.literal(lang.LOCAL_MEM_FENCE, node)]
        return self.builtin_call("barrier", args, node)

    def device_builtin(self, function, node: ast.Call) -> A.Expr:
        args = self.float_constants(self.arguments(node), node.args)
        return self.builtin_call(function.c_name, args, node)

    def device_atomic(self, function, node: ast.Call) -> A.Expr:
        count = 2 if function.name in ("atomic_inc", "atomic_dec") else \
            4 if function.name == "atomic_cmpxchg" else 3
        if len(node.args) != count:
            raise self.fail(node, f"cl.{function.name}(array, index{', value' * (count - 2) if count < 4 else ', expected, new'}) "
                                  f"takes {count} arguments, not {len(node.args)}")
        element = self.expr(ast.Subscript(node.args[0], node.args[1], ast.Load(), **_position(node.args[0])))
        address = self.sema.check(A.AddressOf(self.loc(node), checked(element)))
        rest = [self.rvalue(arg) for arg in node.args[2:]]
        return self.builtin_call(function.c_name, [address, *rest], node)

    def device_vector(self, vector: lang.VectorType, node: ast.Call) -> A.Expr:
        t = element_type(vector)
        items = [checked(self.convert_to(a, t.element) if a.type.is_scalar else a) for a in self.arguments(node)]
        return self.sema.check(A.VectorLiteral(self.loc(node), items, type=t))

    def device_local_array(self, function, node: ast.Call) -> A.Expr:
        raise self.fail(node, f"cl.{function.name}(dtype, shape) declares an array: assign it to a name "
                              f"(tile = cl.{function.name}(np.float32, 256))")

    device_private_array = device_local_array

    # -- Python's and numpy's functions ----------------------------------------------------------

    def conversion(self, t: T.Type, node: ast.Call) -> A.Expr:
        if len(node.args) == 1 and isinstance(node.args[0], ast.Constant) and names.is_number(node.args[0].value):
            value = node.args[0].value  # a constant of the type, exactly (not a float32 rounded first)
            loc = self.loc(node)
            if t.is_floating:
                return A.FloatLiteral(loc, float(value), type=t)
            if isinstance(value, float):
                value = int(value)
            return A.IntLiteral(loc, t.wrap(int(value)) if not t.is_bool else int(bool(value)), type=t)
        (arg,) = self.arguments(node, 1)
        return self.convert_to(arg, t)

    def math_call(self, function, node: ast.Call) -> A.Expr:
        args = [self.convert_to(a, T.FLOAT) if a.type.is_integer and a.type.is_scalar else a
                for a in self.arguments(node)]
        result = self.builtin_call(names.MATH_FUNCTIONS[function], args, node)
        return self.convert_to(result, T.INT) if function in names.INT_RESULTS else result

    def python_abs(self, node: ast.Call) -> A.Expr:
        (arg,) = self.arguments(node, 1, "abs")
        if T.element_of(arg.type).is_floating:
            return self.builtin_call("fabs", [arg], node)
        return self.convert_to(self.builtin_call("abs", [arg], node), arg.type.unqualified())

    def python_min(self, node: ast.Call, name: str = "min") -> A.Expr:
        if len(node.args) < 2:
            raise self.fail(node, f"{name}() in a kernel takes two or more numbers (no iterables)")
        args = self.float_constants(self.arguments(node), node.args)
        if all(a.type.is_scalar and a.type.is_arithmetic for a in args):
            common = args[0].type.unqualified()
            for a in args[1:]:
                common = usual_arithmetic(common, a.type.unqualified())
            args = [self.convert_to(a, common) for a in args]
        result = args[0]
        for a in args[1:]:
            result = self.builtin_call(name, [result, a], node)
        return result

    def python_max(self, node: ast.Call) -> A.Expr:
        return self.python_min(node, "max")

    def python_int(self, node: ast.Call) -> A.Expr:
        return self.conversion(T.INT, node)

    def python_float(self, node: ast.Call) -> A.Expr:
        return self.conversion(T.FLOAT, node)

    def python_bool(self, node: ast.Call) -> A.Expr:
        (arg,) = self.arguments(node, 1, "bool")
        return self.convert_to(self.sema.truth_value(arg), T.INT)

    def python_round(self, node: ast.Call) -> A.Expr:
        (arg,) = self.arguments(node, 1, "round")  # Python rounds half to even: rint
        return self.convert_to(self.builtin_call("rint", [arg], node), T.INT) if arg.type.is_floating else arg

    def python_range(self, node: ast.Call) -> A.Expr:
        raise self.fail(node, "range() is only for `for ... in range(...)` loops in a kernel")

    def python_where(self, node: ast.Call) -> A.Expr:
        cond, then, else_ = self.arguments(node, 3, "where")
        return self.sema.check(A.Conditional(self.loc(node), checked(cond), checked(then), checked(else_)))


def _known(callee, table) -> bool:
    try:
        return callee in table
    except TypeError:  # unhashable
        return False


def _position(node) -> dict:
    return {k: getattr(node, k) for k in ("lineno", "col_offset", "end_lineno", "end_col_offset")
            if hasattr(node, k)}
