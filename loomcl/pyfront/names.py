"""What the names in a kernel's source stand for, outside its own variables.

A kernel reads its globals and closure variables when it is compiled, the way numba does: a number
becomes a constant of the kernel (so the compiled code, and the on-disk cache that keys on it,
changes with the number), a module gives access to its attributes, and a function must be one the
front-end knows: a device function of loomcl (lang.py), a @cl.func helper, Python's int/float/
bool/abs/min/max/round, a numpy scalar type (a conversion), or one of the math functions below.
The front-end recognizes objects, not spellings: `from math import sqrt` works as well as
`math.sqrt`.
"""
from __future__ import annotations

import builtins
import math
import types

import numpy as np

MISSING = object()

# Python's and numpy's math functions and the OpenCL C builtins they become. `math.*` functions
# that return an int in Python (floor, ceil, trunc) are in INT_RESULTS.
MATH_FUNCTIONS = {
    math.sqrt: "sqrt", math.exp: "exp", math.log: "log", math.log2: "log2", math.log10: "log10",
    math.log1p: "log1p", math.expm1: "expm1", math.sin: "sin", math.cos: "cos", math.tan: "tan",
    math.asin: "asin", math.acos: "acos", math.atan: "atan", math.atan2: "atan2", math.sinh: "sinh",
    math.cosh: "cosh", math.tanh: "tanh", math.asinh: "asinh", math.acosh: "acosh", math.atanh: "atanh",
    math.fabs: "fabs", math.floor: "floor", math.ceil: "ceil", math.trunc: "trunc", math.pow: "pow",
    math.fmod: "fmod", math.hypot: "hypot", math.copysign: "copysign", math.erf: "erf",
    math.erfc: "erfc", math.gamma: "tgamma", math.lgamma: "lgamma", math.isnan: "isnan",
    math.isinf: "isinf", math.isfinite: "isfinite", math.ldexp: "ldexp",
    np.sqrt: "sqrt", np.exp: "exp", np.log: "log", np.log2: "log2", np.log10: "log10", np.sin: "sin",
    np.cos: "cos", np.tan: "tan", np.arcsin: "asin", np.arccos: "acos", np.arctan: "atan",
    np.arctan2: "atan2", np.sinh: "sinh", np.cosh: "cosh", np.tanh: "tanh", np.fabs: "fabs",
    np.floor: "floor", np.ceil: "ceil", np.trunc: "trunc", np.power: "pow", np.hypot: "hypot",
    np.exp2: "exp2", np.expm1: "expm1", np.log1p: "log1p", np.copysign: "copysign", np.rint: "rint",
    np.fmin: "fmin", np.fmax: "fmax", np.minimum: "min", np.maximum: "max", np.isnan: "isnan",
    np.isinf: "isinf", np.isfinite: "isfinite",
}
for _name in ("cbrt", "exp2"):  # Python 3.11
    if hasattr(math, _name):
        MATH_FUNCTIONS[getattr(math, _name)] = _name
INT_RESULTS = {math.floor, math.ceil, math.trunc}

PYTHON_BUILTINS = {builtins.abs: "abs", builtins.min: "min", builtins.max: "max", builtins.int: "int",
                   builtins.float: "float", builtins.bool: "bool", builtins.round: "round",
                   builtins.range: "range", np.abs: "abs", np.absolute: "abs", np.where: "where"}


def global_value(function, name: str):
    """The object `name` refers to in `function` outside its locals: a closure cell, a global,
    or a builtin; MISSING if none."""
    code = function.__code__
    if function.__closure__ and name in code.co_freevars:
        try:
            return function.__closure__[code.co_freevars.index(name)].cell_contents
        except ValueError:  # an empty cell: the variable is assigned after the kernel's definition
            return MISSING
    found = function.__globals__.get(name, MISSING)
    if found is MISSING:
        found = getattr(builtins, name, MISSING)
    return found


def is_number(value) -> bool:
    return isinstance(value, (int, float, np.integer, np.floating, np.bool_)) and not isinstance(value, type)


def is_scalar_type(value) -> bool:
    """np.float32, np.int64, ... (conversions when called)."""
    return isinstance(value, type) and issubclass(value, (np.integer, np.floating, np.bool_))


def is_module(value) -> bool:
    return isinstance(value, types.ModuleType)


def describe(value) -> str:
    """A short description of a Python object for an error message."""
    if is_module(value):
        return f"module '{value.__name__}'"
    name = getattr(value, "__qualname__", getattr(value, "__name__", "?"))
    from .lang import DeviceFunction

    if isinstance(value, DeviceFunction):
        return f"device function 'cl.{value.name}'"
    if isinstance(value, types.BuiltinFunctionType):
        return f"built-in function '{name}'"
    if isinstance(value, types.FunctionType):
        return f"Python function '{name}' (decorate it with @cl.func to call it in kernels)"
    if callable(value):
        return f"{type(value).__name__} '{name}'"
    return f"{type(value).__name__} object"
