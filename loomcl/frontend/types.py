"""The OpenCL C type system.

Types are immutable values, compared structurally and interned through the constructor helpers
(`pointer_to`, `array_of`, `qualified`, ...), so `t1 == t2` and `t1 is t2` agree for types built here.
Qualifiers (const, volatile, restrict and the OpenCL address space) live on the type they qualify, as in
clang's QualType: `__global float *p` is a pointer whose *pointee* is `__global float`; a `__local`
variable has a type whose address space is LOCAL. `address_space is None` means "not written": sema
fills the default (private for variables, generic or private for pointees, by OpenCL C version).

Sizes follow OpenCL (spec 6.1.1): char 8, short 16, int 32, long 64 bits; size_t and friends are 64-bit
typedefs on this device. A struct or union type is a `RecordType` over a `Record`, the definition
that the parser creates and sema lays out; an enum type is int. `ArrayType.length` may temporarily
hold an unfolded expression between the parser and sema (see `ArrayType`).
"""
from __future__ import annotations

import enum
from dataclasses import dataclass, field, replace
from typing import Any


class AddressSpace(enum.Enum):
    PRIVATE = "__private"
    GLOBAL = "__global"
    CONSTANT = "__constant"
    LOCAL = "__local"
    GENERIC = "__generic"


@dataclass(frozen=True, repr=False)
class Qualifiers:
    const: bool = False
    volatile: bool = False
    restrict: bool = False
    address_space: AddressSpace | None = None

    def __or__(self, other: "Qualifiers") -> "Qualifiers":
        return Qualifiers(self.const or other.const, self.volatile or other.volatile,
                          self.restrict or other.restrict,
                          other.address_space or self.address_space)

    def in_space(self, space: AddressSpace | None) -> "Qualifiers":
        """These qualifiers with the address space replaced (dataclasses.replace is slow for sema)."""
        return Qualifiers(self.const, self.volatile, self.restrict, space)

    def includes(self, other: "Qualifiers") -> bool:
        """True when self has every cv-qualifier of other (address spaces not compared)."""
        return ((self.const or not other.const) and (self.volatile or not other.volatile)
                and (self.restrict or not other.restrict))

    def spelling(self) -> str:
        words = [self.address_space.value] if self.address_space else []
        words += [w for w, on in (("const", self.const), ("volatile", self.volatile),
                                  ("restrict", self.restrict)) if on]
        return " ".join(words)


NO_QUALIFIERS = Qualifiers()


@dataclass(frozen=True, repr=False)
class Type:
    """Base of all types. `quals` are this type's own qualifiers."""

    quals: Qualifiers = field(default=NO_QUALIFIERS, kw_only=True)

    # Classification; subclasses override what applies to them.
    is_void = False
    is_bool = False
    is_integer = False
    is_floating = False
    is_pointer = False
    is_array = False
    is_function = False
    is_vector = False
    is_record = False
    is_error = False
    is_event = False
    is_image = False
    is_sampler = False

    @property
    def is_arithmetic(self) -> bool:
        return self.is_integer or self.is_floating

    @property
    def is_scalar(self) -> bool:
        return self.is_arithmetic or self.is_pointer

    @property
    def address_space(self) -> AddressSpace | None:
        return self.quals.address_space

    _unqualified = None  # unqualified()'s answer, remembered (not a field: no part of the value)

    def unqualified(self) -> "Type":
        found = self._unqualified
        if found is None:
            found = self if self.quals == NO_QUALIFIERS else self.with_quals(NO_QUALIFIERS)
            object.__setattr__(self, "_unqualified", found)
        return found

    def with_quals(self, quals: Qualifiers) -> "Type":
        # Remembered on the (interned) instance: the front-end asks this of the same few types
        # hundreds of thousands of times, and building and hashing the copy dominated.
        memo = self.__dict__.get("_with_quals")
        if memo is None:
            memo = {}
            object.__setattr__(self, "_with_quals", memo)
        found = memo.get(quals)
        if found is None:
            found = memo[quals] = _intern(replace(self, quals=quals))
        return found

    @property
    def size(self) -> int:
        raise TypeError(f"type '{self}' has no size")

    @property
    def align(self) -> int:
        return self.size

    def base_spelling(self) -> str:
        raise NotImplementedError

    def __repr__(self) -> str:
        return f"<type {self}>"

    def __str__(self) -> str:
        q = self.quals.spelling()
        return f"{q} {self.base_spelling()}" if q else self.base_spelling()


@dataclass(frozen=True, repr=False)
class VoidType(Type):
    is_void = True

    def base_spelling(self) -> str:
        return "void"


@dataclass(frozen=True, repr=False)
class ErrorType(Type):
    """The type of an expression that already produced a diagnostic; it silences follow-on errors."""

    is_error = True

    def base_spelling(self) -> str:
        return "<error>"


@dataclass(frozen=True, repr=False)
class IntegerType(Type):
    """bool, char .. ulong. `rank` orders the conversion ranks of C 6.3.1.1."""

    name: str = "int"
    bits: int = 32
    signed: bool = True
    rank: int = 3

    is_integer = True

    @property
    def is_bool(self) -> bool:
        return self.rank == 0

    @property
    def size(self) -> int:
        return max(self.bits // 8, 1)

    @property
    def min_value(self) -> int:
        return -(1 << (self.bits - 1)) if self.signed else 0

    @property
    def max_value(self) -> int:
        return (1 << (self.bits - 1)) - 1 if self.signed else (1 << self.bits) - 1

    def wrap(self, value: int) -> int:
        """value reduced modulo 2**bits into this type's range (two's complement)."""
        if self.rank == 0:
            return int(value != 0)
        value &= (1 << self.bits) - 1
        return value - (1 << self.bits) if self.signed and value > self.max_value else value

    def base_spelling(self) -> str:
        return self.name


@dataclass(frozen=True, repr=False)
class FloatType(Type):
    name: str = "float"
    bits: int = 32

    is_floating = True

    @property
    def size(self) -> int:
        return self.bits // 8

    def base_spelling(self) -> str:
        return self.name


@dataclass(frozen=True, repr=False)
class EventType(Type):
    """event_t (spec 6.1.3): the handle of async work-group copies. loomcl's copies are complete
    when wait_group_events returns, so an event carries no state; it is a 64-bit zero."""

    is_event = True
    size = 8

    def base_spelling(self) -> str:
        return "event_t"


@dataclass(frozen=True, repr=False)
class ImageType(Type):
    """image1d_t .. image3d_t (spec 6.1.3) with its access qualifier, read_only unless written.
    A value is a handle: the address of the image's descriptor (abi/image.py). Images are
    function parameters only: never stored, compared or returned (spec 6.9.b)."""

    name: str = "image2d_t"
    access: str = "read_only"  # or "write_only"

    is_image = True
    size = 8

    def base_spelling(self) -> str:
        return f"__{self.access} {self.name}"


@dataclass(frozen=True, repr=False)
class SamplerType(Type):
    """sampler_t (spec 6.1.3, 6.12.14.1): the sampler's bits (abi/image.py), a 32-bit
    integer; a constant wherever a `const sampler_t` initializer names it."""

    is_sampler = True
    size = 4

    def base_spelling(self) -> str:
        return "sampler_t"


@dataclass(frozen=True, repr=False)
class PointerType(Type):
    """A pointer; the address space it points into is `pointee.address_space`."""

    pointee: Type = field(default_factory=VoidType)

    is_pointer = True
    size = 8

    @property
    def pointee_address_space(self) -> AddressSpace | None:
        return self.pointee.quals.address_space

    def base_spelling(self) -> str:
        return f"{self.pointee} *"

    def __str__(self) -> str:
        q = self.quals.spelling()  # the pointer's own qualifiers follow the '*', as in C
        return f"{self.pointee} *{' ' + q if q else ''}"


@dataclass(frozen=True, repr=False)
class ArrayType(Type):
    """`element[length]`. length is an int once checked; None for `[]` awaiting an initializer;
    between parsing and sema it may be the unfolded size expression (an ast.Expr)."""

    element: Type = field(default_factory=VoidType)
    length: Any = None

    is_array = True

    @property
    def size(self) -> int:
        if not isinstance(self.length, int):
            raise TypeError(f"array type '{self}' has no known size")
        return self.length * self.element.size

    @property
    def align(self) -> int:
        return self.element.align

    @property
    def address_space(self) -> AddressSpace | None:
        return self.quals.address_space or self.element.address_space

    def base_spelling(self) -> str:
        n = self.length if isinstance(self.length, int) else ""
        return f"{self.element}[{n}]"

    def __str__(self) -> str:
        return self.base_spelling()  # the element carries the qualifiers


@dataclass(frozen=True, repr=False)
class FunctionType(Type):
    result: Type = field(default_factory=VoidType)
    params: tuple[Type, ...] = ()

    is_function = True

    def base_spelling(self) -> str:
        return f"{self.result} ({', '.join(map(str, self.params)) or 'void'})"


@dataclass(frozen=True, repr=False)
class VectorType(Type):
    """OpenCL vector (`float4`, spec 6.1.2): 2, 3, 4, 8 or 16 lanes of a scalar element; a
    3-lane vector is sized and aligned like a 4-lane one (spec 6.1.5)."""

    element: Type = field(default_factory=VoidType)
    count: int = 4

    is_vector = True

    @property
    def size(self) -> int:
        return self.element.size * (4 if self.count == 3 else self.count)

    def base_spelling(self) -> str:
        return f"{self.element.base_spelling()}{self.count}"


@dataclass(frozen=True)
class Field:
    """A member of a struct or union; `name` is None for an anonymous struct or union member
    (C11 6.7.2.1p13), whose own members are found through it."""

    name: str | None
    type: Type
    offset: int = 0


class Record:
    """The definition behind a struct or union tag: one object per declaration, compared by
    identity. The parser creates it (with `body` holding the members as written, unresolved) and
    sema lays it out (`complete`), so `fields`, `size` and `align` exist only for a complete record.
    Layout is C's natural one: each member at the next multiple of its alignment, the size rounded
    up to the largest alignment (raised by an `aligned` attribute); every union member sits at
    offset 0."""

    def __init__(self, is_union: bool, tag: str | None, loc) -> None:
        self.is_union, self.tag, self.loc = is_union, tag, loc
        self.body: list | None = None          # [(loc, name, unresolved type)] once defined
        self.fields: tuple[Field, ...] | None = None
        self.size = self.align = 0
        self.laying_out = False
        self.attributes: list = []               # `aligned` attributes of the definition

    @property
    def kind(self) -> str:
        return "union" if self.is_union else "struct"

    @property
    def is_complete(self) -> bool:
        return self.fields is not None

    def complete(self, members: list[tuple[str | None, Type]], min_align: int = 1) -> None:
        """Lay out the members; `min_align` is an `aligned(N)` attribute's N."""
        fields, offset, align = [], 0, min_align
        for name, t in members:
            at = 0 if self.is_union else -(-offset // t.align) * t.align
            fields.append(Field(name, t, at))
            offset = max(offset, at + t.size)
            align = max(align, t.align)
        self.fields, self.align = tuple(fields), align
        self.size = -(-offset // align) * align

    def lookup(self, name: str) -> list[Field] | None:
        """The fields leading to member `name` (through anonymous members), or None."""
        for f in self.fields or ():
            if f.name == name:
                return [f]
            if f.name is None and f.type.is_record:
                inner = f.type.record.lookup(name)
                if inner is not None:
                    return [f] + inner
        return None

    def spelling(self) -> str:
        return f"{self.kind} {self.tag or '(anonymous)'}"


@dataclass(frozen=True, repr=False)
class RecordType(Type):
    """`struct S` or `union U`: qualifiers over a shared Record."""

    record: Record = None

    is_record = True

    @property
    def size(self) -> int:
        if not self.record.is_complete:
            raise TypeError(f"incomplete type '{self}'")
        return self.record.size

    @property
    def align(self) -> int:
        return self.record.align

    def base_spelling(self) -> str:
        return self.record.spelling()


def record_type(record: Record) -> RecordType:
    return _intern(RecordType(record=record))


_INTERNED: dict[Type, Type] = {}


def _intern(t: Type) -> Type:
    if isinstance(t, ArrayType) and not _hashable_length(t):
        return t
    return _INTERNED.setdefault(t, t)


def _hashable_length(t: ArrayType) -> bool:
    return t.length is None or isinstance(t.length, int)


def pointer_to(pointee: Type, quals: Qualifiers = NO_QUALIFIERS) -> PointerType:
    return _intern(PointerType(pointee=pointee, quals=quals))


def array_of(element: Type, length: Any, quals: Qualifiers = NO_QUALIFIERS) -> ArrayType:
    return _intern(ArrayType(element=element, length=length, quals=quals))


def function_type(result: Type, params: tuple[Type, ...]) -> FunctionType:
    return _intern(FunctionType(result=result, params=tuple(params)))


def vector_of(element: Type, count: int) -> VectorType:
    return _intern(VectorType(element=element, count=count))


def qualified(t: Type, quals: Qualifiers) -> Type:
    """t with quals added to its own qualifiers."""
    return t.with_quals(t.quals | quals)


def with_address_space(t: Type, space: AddressSpace) -> Type:
    """t placed in `space`; for arrays the element carries it too, so decay keeps the space."""
    if isinstance(t, ArrayType):
        element = with_address_space(t.element, space)
        return array_of(element, t.length, t.quals.in_space(space))
    return t.with_quals(t.quals.in_space(space))


def _int(name: str, bits: int, signed: bool, rank: int) -> IntegerType:
    return _intern(IntegerType(name=name, bits=bits, signed=signed, rank=rank))


VOID = _intern(VoidType())
ERROR = _intern(ErrorType())
BOOL = _int("bool", 8, False, 0)
CHAR = _int("char", 8, True, 1)
UCHAR = _int("uchar", 8, False, 1)
SHORT = _int("short", 16, True, 2)
USHORT = _int("ushort", 16, False, 2)
INT = _int("int", 32, True, 3)
UINT = _int("uint", 32, False, 3)
LONG = _int("long", 64, True, 4)
ULONG = _int("ulong", 64, False, 4)
HALF = _intern(FloatType(name="half", bits=16))
FLOAT = _intern(FloatType(name="float", bits=32))
DOUBLE = _intern(FloatType(name="double", bits=64))
EVENT = _intern(EventType())
SAMPLER = _intern(SamplerType())
IMAGE_TYPE_NAMES = ("image1d_t", "image1d_array_t", "image1d_buffer_t", "image2d_t", "image2d_array_t",
                    "image3d_t")


def image_type(name: str, access: str = "read_only") -> ImageType:
    return _intern(ImageType(name=name, access=access))

SIZE_T = ULONG
PTRDIFF_T = LONG

INTEGER_TYPES = (CHAR, UCHAR, SHORT, USHORT, INT, UINT, LONG, ULONG)
FLOAT_TYPES = (FLOAT, DOUBLE)

# Type names that OpenCL C predefines (spec 6.1.1) and that are not keyword combinations.
BUILTIN_TYPE_NAMES: dict[str, Type] = {
    "uchar": UCHAR, "ushort": USHORT, "uint": UINT, "ulong": ULONG,
    "size_t": SIZE_T, "ptrdiff_t": PTRDIFF_T, "intptr_t": LONG, "uintptr_t": ULONG,
    "event_t": EVENT,
    "sampler_t": SAMPLER,
    **{name: image_type(name) for name in IMAGE_TYPE_NAMES},
}
for _scalar in (CHAR, UCHAR, SHORT, USHORT, INT, UINT, LONG, ULONG, FLOAT, DOUBLE, HALF):
    for _n in (2, 3, 4, 8, 16):
        BUILTIN_TYPE_NAMES[f"{_scalar.name}{_n}"] = vector_of(_scalar, _n)


def element_of(t: Type) -> Type:
    """The element type of a vector, or t itself."""
    return t.element if t.is_vector else t


def mask_type(t: VectorType) -> VectorType:
    """What comparing two vectors of type t gives (spec 6.3.d): lanes of the signed integer as
    wide as t's element, -1 for true and 0 for false."""
    signed = {1: CHAR, 2: SHORT, 4: INT, 8: LONG}[t.element.size]
    return vector_of(signed, t.count)


def to_unsigned(t: IntegerType) -> IntegerType:
    """The unsigned type of the same width (`ugentype` in the OpenCL spec)."""
    return {CHAR: UCHAR, SHORT: USHORT, INT: UINT, LONG: ULONG}.get(t.unqualified(), t.unqualified())


def to_signed(t: IntegerType) -> IntegerType:
    return {UCHAR: CHAR, USHORT: SHORT, UINT: INT, ULONG: LONG}.get(t.unqualified(), t.unqualified())
