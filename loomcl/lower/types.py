"""Frontend types to kernel-IR types.

The rules (they follow clang's lowering of OpenCL C, so code generation maps them to LLVM one to one):

* Integers lose their signedness: char/uchar -> i8, short/ushort -> i16, int/uint -> i32,
  long/ulong (and size_t, ptrdiff_t, intptr_t, uintptr_t, which are typedefs of them) -> i64.
  Signedness is read from the frontend type where an operation needs it (sdiv/udiv, sext/zext, ...).
* half -> f16, float -> f32, double -> f64.
* bool has two forms. As a *value* (a condition, a function argument or result) it is i1, so branches
  and selects take it directly. In *memory* (a private variable, an array element) it is i8, one
  addressable byte holding 0 or 1, like clang; loads truncate i8 to i1 and stores zero-extend. That
  is `value_type` versus `memory_type`; the two differ for bool alone.
* A pointer becomes `ptr.<space>` of its pointee's address space (opaque pointers; the element type
  rides on each load, store and elementptr). An unwritten space means private.
* Arrays become ArrayType of the element's memory type; vectors VectorType of the element's value
  type (bool vectors do not exist in OpenCL C).
* A struct becomes a StructType of its members' memory types: the IR lays it out with the same
  natural C rules as the frontend (checked here). A union becomes a struct of its most aligned
  member padded with bytes to the union's size, which gives it the union's size and alignment; its
  members all live at its address. Struct values are first-class (loads, stores, phis, arguments
  and results of the StructType); member access goes through memory (`FieldPtr`).
"""
from __future__ import annotations

from ..frontend import types as T
from ..ir import types as ty
from .errors import unsupported

_SPACES = {
    T.AddressSpace.PRIVATE: ty.AddressSpace.PRIVATE,
    T.AddressSpace.GLOBAL: ty.AddressSpace.GLOBAL,
    T.AddressSpace.CONSTANT: ty.AddressSpace.CONSTANT,
    T.AddressSpace.LOCAL: ty.AddressSpace.LOCAL,
    T.AddressSpace.GENERIC: ty.AddressSpace.GENERIC,
}

_FLOATS = {16: ty.f16, 32: ty.f32, 64: ty.f64}


def address_space(space: T.AddressSpace | None) -> ty.AddressSpace:
    return _SPACES[space] if space is not None else ty.AddressSpace.PRIVATE


def value_type(t: T.Type) -> ty.Type:
    """The IR type of a value of frontend type t (bool is i1)."""
    if t.is_bool:
        return ty.i1
    return memory_type(t)


def memory_type(t: T.Type) -> ty.Type:
    """The IR type of an object of frontend type t as stored in memory (bool is i8)."""
    if t.is_void:
        return ty.void
    if t.is_integer:
        return ty.IntType(8 if t.is_bool else t.bits)
    if t.is_floating:
        return _FLOATS[t.bits]
    if t.is_pointer:
        return ty.pointer(address_space(t.pointee.address_space))
    if t.is_array:
        return ty.ArrayType(memory_type(t.element), t.length)
    if t.is_vector:
        return ty.VectorType(value_type(t.element), t.count)
    if t.is_record:
        return record_type(t.record)
    if t.is_event:
        return ty.i64
    if t.is_image:  # the address of its descriptor (abi/image.py)
        return ty.pointer(ty.AddressSpace.GLOBAL)
    if t.is_sampler:  # its bits (abi/image.py)
        return ty.i32
    raise unsupported(f"type '{t}'")


def record_type(record: T.Record) -> ty.StructType:
    """The StructType of a complete struct or union (see the module doc)."""
    name = f"{record.kind}.{record.tag or 'anon'}"
    if record.is_union:
        widest = max(record.fields, key=lambda f: f.type.align).type
        padding = record.size - widest.size
        fields = (memory_type(widest),) + ((ty.ArrayType(ty.i8, padding),) if padding else ())
    else:
        fields = tuple(memory_type(f.type) for f in record.fields)
        end = ty.StructType(name, fields).size
        if end < record.size:  # an `aligned` attribute's tail padding, after the members
            fields += (ty.ArrayType(ty.i8, record.size - end),)
    struct = ty.StructType(name, fields)
    offsets = [0] if record.is_union else [f.offset for f in record.fields]
    if struct.size != record.size or struct.offsets[:len(offsets)] != offsets:
        raise unsupported(f"the layout of '{record.spelling()}'", record.loc)
    return struct


def is_signed(t: T.Type) -> bool:
    """Whether integer operations on t (or on its vector elements) are signed."""
    element = t.element if t.is_vector else t
    return bool(getattr(element, "signed", False)) and element.is_integer


def overflow_is_undefined(t: T.Type) -> bool:
    """Whether C leaves overflow of arithmetic in t undefined: scalar `int` and `long` (narrower types
    are promoted to int, and `c++` on a char converts back, which is defined). Vectors are left out:
    their elements are not promoted (a char4 sum is computed in chars), and wrapping is the safe
    reading there."""
    return not t.is_vector and is_signed(t) and t.size >= 4


def is_floating(t: T.Type) -> bool:
    return (t.element if t.is_vector else t).is_floating


def pointee_memory_type(t: T.Type) -> ty.Type:
    """The element type addressed by pointer type t (void* steps by bytes, as GNU C does)."""
    pointee = t.pointee
    return ty.i8 if pointee.is_void else memory_type(pointee)
