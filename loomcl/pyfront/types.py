"""Kernel parameter annotations and the mapping from numpy's types to OpenCL C's.

Annotations say what a parameter is, as OpenCL C's parameter declarations do:

    def saxpy(y: cl.global_ptr(np.float32), x: cl.global_ptr(np.float32, const=True),
              a: np.float32, n: np.int32): ...

`global_ptr`, `constant_ptr` and `local_ptr` are pointers to an element type (a numpy scalar type
or dtype, or a vector type such as cl.float4); a scalar parameter is annotated with its numpy type
or with Python's `int` (int32) and `float` (float32). `Global[np.float32]`, `Constant[...]` and
`Local[...]` are the same pointers, spelled as subscripts.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..frontend import types as T
from .lang import VectorType

_BY_KIND = {("i", 1): T.CHAR, ("u", 1): T.UCHAR, ("i", 2): T.SHORT, ("u", 2): T.USHORT, ("i", 4): T.INT,
            ("u", 4): T.UINT, ("i", 8): T.LONG, ("u", 8): T.ULONG, ("f", 4): T.FLOAT, ("f", 8): T.DOUBLE,
            ("b", 1): T.UCHAR}

PYTHON_INT = T.INT      # the type of Python int literals and `int` (docs/python-kernels.md says why)
PYTHON_FLOAT = T.FLOAT  # the type of Python float literals and `float`


@dataclass(frozen=True)
class PointerAnnotation:
    """A pointer parameter: its address space and element type."""

    space: T.AddressSpace
    element: object   # numpy dtype or VectorType
    const: bool = False

    def c_type(self) -> T.Type:
        element = element_type(self.element)
        quals = T.Qualifiers(const=self.const or self.space is T.AddressSpace.CONSTANT, address_space=self.space)
        return T.pointer_to(T.qualified(element, quals))

    def __repr__(self) -> str:
        name = {T.AddressSpace.GLOBAL: "global_ptr", T.AddressSpace.CONSTANT: "constant_ptr",
                T.AddressSpace.LOCAL: "local_ptr"}[self.space]
        return f"cl.{name}({getattr(self.element, 'name', self.element)}{', const=True' if self.const else ''})"


def global_ptr(dtype, const: bool = False) -> PointerAnnotation:
    """A `__global` pointer to elements of dtype (`const=True`: the kernel only reads them)."""
    return PointerAnnotation(T.AddressSpace.GLOBAL, _element(dtype), const)


def constant_ptr(dtype) -> PointerAnnotation:
    """A `__constant` pointer: read-only data, such as a filter's coefficients."""
    return PointerAnnotation(T.AddressSpace.CONSTANT, _element(dtype))


def local_ptr(dtype) -> PointerAnnotation:
    """A `__local` pointer: launch with cl.LocalMemory(nbytes) for it."""
    return PointerAnnotation(T.AddressSpace.LOCAL, _element(dtype))


class _Subscripted:
    def __init__(self, make) -> None:
        self._make = make

    def __getitem__(self, dtype) -> PointerAnnotation:
        return self._make(dtype)


Global = _Subscripted(global_ptr)
Constant = _Subscripted(constant_ptr)
Local = _Subscripted(local_ptr)


def _element(dtype):
    if isinstance(dtype, VectorType):
        return dtype
    try:
        found = np.dtype(dtype)
    except TypeError:
        raise TypeError(f"{dtype!r} is not an element type (give a numpy type such as np.float32 "
                        f"or a vector type such as cl.float4)") from None
    element_type(found)  # raises for a dtype with no OpenCL type
    return found


def element_type(element) -> T.Type:
    """The OpenCL C type of a numpy dtype or VectorType."""
    if isinstance(element, VectorType):
        return T.vector_of(element_type(element.element), element.count)
    dtype = np.dtype(element)
    if dtype.subdtype is not None and dtype.subdtype[1] in ((2,), (3,), (4,), (8,), (16,)):
        return T.vector_of(element_type(dtype.subdtype[0]), dtype.subdtype[1][0])
    if dtype.names and len(set(dtype.fields[n][0] for n in dtype.names)) == 1 and \
            len(dtype.names) in (2, 4, 8, 16):  # loomcl.cltypes' float4 and friends
        return T.vector_of(element_type(dtype.fields[dtype.names[0]][0]), len(dtype.names))
    found = _BY_KIND.get((dtype.kind, dtype.itemsize))
    if found is None:
        raise TypeError(f"numpy type {dtype} has no OpenCL C type in a kernel")
    return found


def scalar_annotation_type(annotation) -> T.Type | None:
    """The OpenCL C type of a scalar annotation (int, float, bool, a numpy type, a vector type),
    or None if annotation is none of them."""
    if annotation is int:
        return PYTHON_INT
    if annotation is float:
        return PYTHON_FLOAT
    if annotation is bool:
        return T.BOOL
    if isinstance(annotation, VectorType):
        return element_type(annotation)
    if isinstance(annotation, type) and issubclass(annotation, np.generic) or isinstance(annotation, np.dtype):
        try:
            return element_type(annotation)
        except TypeError:
            return None
    return None


def annotation_type(annotation) -> T.Type | None:
    """A parameter annotation's OpenCL C type, or None if it is not an annotation loomcl knows."""
    if isinstance(annotation, PointerAnnotation):
        return annotation.c_type()
    return scalar_annotation_type(annotation)


def value_type(value) -> T.Type | None:
    """The type a Python or numpy scalar takes in a kernel (a literal, or a launch argument of an
    unannotated parameter): Python ints are int32 where they fit, else int64 (uint64 above that)."""
    if isinstance(value, (bool, np.bool_)):
        return T.BOOL
    if isinstance(value, int):
        if -(1 << 31) <= value < (1 << 31):
            return PYTHON_INT
        return T.LONG if -(1 << 63) <= value < (1 << 63) else T.ULONG
    if isinstance(value, float):
        return PYTHON_FLOAT
    if isinstance(value, np.generic):
        try:
            return element_type(value.dtype)
        except TypeError:
            return None
    return None


def dtype_of(t: T.Type) -> np.dtype:
    """The numpy dtype of a scalar OpenCL C type."""
    if t.is_bool:
        return np.dtype(np.bool_)
    if isinstance(t, T.FloatType):
        return np.dtype(f"f{t.size}")
    return np.dtype(f"{'i' if t.signed else 'u'}{t.size}")
