"""Kernel IR types and constants spelled as LLVM IR text.

The mapping is one-to-one except in two places, both on purpose:

* every pointer is `ptr` in address space 0: on a CPU all OpenCL address spaces are the same memory,
  and address-space casts become no-ops;
* a struct is `[size x i8]`, sized and laid out by the kernel IR's C rules (`StructType.offsets`), and
  member addresses are byte offsets. The IR, not LLVM's data layout, is then the one authority on
  layout, so what the runtime copies and what the kernel reads cannot disagree.
"""
from __future__ import annotations

import numpy as np

from ..ir import types as ty
from ..ir.values import Undef, Value, VectorConstant
from .errors import CodegenError

_FLOAT_NAMES = {16: "half", 32: "float", 64: "double"}


def llvm_type(t: ty.Type) -> str:
    """The LLVM spelling of an IR type."""
    if isinstance(t, ty.IntType):
        return f"i{t.bits}"
    if isinstance(t, ty.FloatType):
        return _FLOAT_NAMES[t.bits]
    if isinstance(t, ty.PointerType):
        return "ptr"
    if isinstance(t, ty.VectorType):
        return f"<{t.count} x {llvm_type(t.element)}>"
    if isinstance(t, ty.ArrayType):
        return f"[{t.count} x {llvm_type(t.element)}]"
    if isinstance(t, ty.StructType):
        return f"[{t.size} x i8]"
    if isinstance(t, ty.VoidType):
        return "void"
    raise CodegenError(f"no LLVM type for IR type {t}")


def intrinsic_suffix(t: ty.Type) -> str:
    """The overload suffix of an LLVM intrinsic: f32, f64, i32, v8f32, ..."""
    if isinstance(t, ty.VectorType):
        return f"v{t.count}{intrinsic_suffix(t.element)}"
    if isinstance(t, ty.FloatType):
        return f"f{t.bits}"
    if isinstance(t, ty.IntType):
        return f"i{t.bits}"
    raise CodegenError(f"no intrinsic overload for type {t}")


def format_float(t: ty.FloatType, value: float) -> str:
    """A float constant in LLVM's exact hexadecimal form (decimal text would need exact values).
    LLVM writes float and double constants as the bits of a double; half uses its own `0xH` form."""
    if t.bits == 16:
        return f"0xH{int(np.float16(value).view(np.uint16)):04X}"
    as_double = np.float64(np.float32(value)) if t.bits == 32 else np.float64(value)
    return f"0x{int(as_double.view(np.uint64)):016X}"


def format_constant(c: Value) -> str:
    """The operand text of a constant (without its type)."""
    if isinstance(c, Undef):
        return "undef"
    if isinstance(c, VectorConstant):
        return "<" + ", ".join(typed_constant(lane) for lane in c.lanes) + ">"
    t = c.type
    if isinstance(t, ty.PointerType):
        return "null"
    if isinstance(t, ty.FloatType):
        return format_float(t, c.value)
    if isinstance(t, ty.IntType):
        if t.bits == 1:
            return "true" if c.value else "false"
        return str(c.signed_value)
    raise CodegenError(f"cannot spell constant {c!r}")


def typed_constant(c: Value) -> str:
    return f"{llvm_type(c.type)} {format_constant(c)}"


def scalar_leaves(t: ty.Type, offset: int = 0):
    """(byte offset, scalar type) of every scalar in `t`, in declaration order: the order of a flat
    initializer list of a program-scope __constant variable."""
    if isinstance(t, (ty.IntType, ty.FloatType, ty.PointerType)):
        yield offset, t
    elif isinstance(t, (ty.VectorType, ty.ArrayType)):
        for i in range(t.count):
            yield from scalar_leaves(t.element, offset + i * t.element.size)
    elif isinstance(t, ty.StructType):
        for field, field_offset in zip(t.fields, t.offsets):
            yield from scalar_leaves(field, offset + field_offset)
    else:
        raise CodegenError(f"cannot lay out {t}")
