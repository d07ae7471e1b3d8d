"""The device language: what a Python kernel calls, as `cl.<name>` (loomcl re-exports it).

Each object here stands for an OpenCL C builtin or a declaration; the front-end recognizes the
object itself (not its spelling), so `from loomcl import global_id` works as well as
`cl.global_id`. Called on the host, they raise: no work-item runs in the interpreter.

* work-item functions: global_id(d), local_id, group_id, global_size, local_size, num_groups,
  global_offset (d defaults to 0) and work_dim(); each gives an int32 (see docs/python-kernels.md);
* barrier(flags=LOCAL_MEM_FENCE), mem_fence(flags); the flags LOCAL_MEM_FENCE, GLOBAL_MEM_FENCE;
* storage: local_array(dtype, shape) (one per work-group; only in a kernel), private_array(dtype,
  shape) (one per work-item);
* atomics on an element `a[i]`: atomic_add(a, i, v), atomic_sub, atomic_xchg, atomic_min,
  atomic_max, atomic_and, atomic_or, atomic_xor, atomic_inc(a, i), atomic_dec(a, i),
  atomic_cmpxchg(a, i, expected, new); each returns the old value;
* OpenCL's own math and common functions under their OpenCL names (mad, fma, clamp, mix, rsqrt,
  native_exp, select, dot, vload4, ...: BUILTINS below), with OpenCL's argument order;
* vector types float2 ... double16, int4, ...: `float4(x, y, z, w)` or `float4(s)` builds one,
  `v.x`, `v.xy`, `v.s0` select lanes; usable as annotations and pointer element types.
"""
from __future__ import annotations

import numpy as np


class DeviceFunction:
    """A function that exists only inside kernels; `kind` tells the front-end how to translate
    a call (names.py), `c_name` is the OpenCL C builtin it becomes."""

    def __init__(self, name: str, kind: str, c_name: str | None = None) -> None:
        self.__name__ = self.name = name
        self.kind = kind
        self.c_name = c_name or name

    def __call__(self, *args, **kwargs):
        raise TypeError(f"cl.{self.name} runs only inside a @cl.kernel or @cl.func (kernels run in "
                        f"compiled code, never in the interpreter)")

    def __repr__(self) -> str:
        return f"<loomcl device function {self.name}>"


class VectorType(DeviceFunction):
    """An OpenCL vector type such as float4: a constructor in kernels, an element type for
    annotations; `dtype` is its layout in a numpy array (the lanes of one element)."""

    def __init__(self, element: type, count: int) -> None:
        name = f"{_SCALAR_NAMES[np.dtype(element).name]}{count}"
        super().__init__(name, "vector")
        self.element = np.dtype(element)
        self.count = count
        self.dtype = np.dtype((self.element, count))


LOCAL_MEM_FENCE = 1   # the values of OpenCL C's CLK_LOCAL_MEM_FENCE and CLK_GLOBAL_MEM_FENCE
GLOBAL_MEM_FENCE = 2

WORK_ITEM_FUNCTIONS = ("global_id", "local_id", "group_id", "global_size", "local_size", "num_groups",
                       "global_offset", "work_dim")
ATOMICS = ("atomic_add", "atomic_sub", "atomic_xchg", "atomic_min", "atomic_max", "atomic_and",
           "atomic_or", "atomic_xor", "atomic_inc", "atomic_dec", "atomic_cmpxchg")
BUILTINS = (
    # math (OpenCL C 6.15.2) beyond what Python's math module names
    "acosh", "asinh", "atanh", "cbrt", "ceil", "copysign", "cos", "cosh", "cospi", "erf", "erfc",
    "exp", "exp2", "exp10", "expm1", "fabs", "fdim", "floor", "fma", "fmax", "fmin", "fmod", "hypot",
    "ldexp", "lgamma", "log", "log2", "log10", "log1p", "logb", "mad", "maxmag", "minmag", "nextafter",
    "pow", "pown", "powr", "remainder", "rint", "rootn", "round", "rsqrt", "sin", "sinh", "sinpi",
    "sqrt", "tan", "tanh", "tanpi", "tgamma", "trunc", "acos", "asin", "atan", "atan2",
    "native_cos", "native_divide", "native_exp", "native_exp2", "native_log", "native_log2",
    "native_powr", "native_recip", "native_rsqrt", "native_sin", "native_sqrt", "native_tan",
    "half_exp", "half_log", "half_sqrt", "half_recip", "half_rsqrt",
    # common and integer (6.15.3, 6.15.4)
    "clamp", "degrees", "max", "min", "mix", "radians", "sign", "smoothstep", "step",
    "abs_diff", "add_sat", "sub_sat", "hadd", "rhadd", "mad_hi", "mad_sat", "mul_hi", "mad24", "mul24",
    "clz", "popcount", "rotate", "upsample",
    # geometric and relational (6.15.5, 6.15.6)
    "dot", "cross", "distance", "length", "normalize", "fast_distance", "fast_length", "fast_normalize",
    "isnan", "isinf", "isfinite", "signbit", "any", "all", "select", "bitselect",
    # vector data load and store (6.15.7)
    "vload2", "vload3", "vload4", "vload8", "vload16", "vstore2", "vstore3", "vstore4", "vstore8",
    "vstore16",
)

_SCALAR_NAMES = {"int8": "char", "uint8": "uchar", "int16": "short", "uint16": "ushort", "int32": "int",
                 "uint32": "uint", "int64": "long", "uint64": "ulong", "float32": "float", "float64": "double"}

barrier = DeviceFunction("barrier", "barrier")
mem_fence = DeviceFunction("mem_fence", "builtin")
local_array = DeviceFunction("local_array", "local_array")
private_array = DeviceFunction("private_array", "private_array")

_namespace = globals()
for _name in WORK_ITEM_FUNCTIONS:
    _namespace[_name] = DeviceFunction(_name, "work_item", "get_" + _name)
for _name in ATOMICS:
    _namespace[_name] = DeviceFunction(_name, "atomic")
for _name in BUILTINS:
    _namespace[_name] = DeviceFunction(_name, "builtin")
VECTOR_TYPES = {}
for _element in (np.int8, np.uint8, np.int16, np.uint16, np.int32, np.uint32, np.int64, np.uint64,
                 np.float32, np.float64):
    for _count in (2, 3, 4, 8, 16):
        _vector = VectorType(_element, _count)
        _namespace[_vector.name] = VECTOR_TYPES[_vector.name] = _vector
del _namespace, _name, _element, _count, _vector

_SHADOWING = {"min", "max", "round", "all", "any", "pow"}  # cl.min, never min, after `import *`
__all__ = ["LOCAL_MEM_FENCE", "GLOBAL_MEM_FENCE", "barrier", "mem_fence", "local_array", "private_array",
           *WORK_ITEM_FUNCTIONS, *ATOMICS, *(name for name in BUILTINS if name not in _SHADOWING), *VECTOR_TYPES]
