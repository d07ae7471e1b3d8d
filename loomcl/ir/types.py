"""Types of the kernel IR.

The IR's types mirror LLVM's closely enough that code generation is a one-to-one mapping: integers are
signless (signedness lives in the operations: sdiv/udiv, sext/zext, slt/ult), pointers are opaque but
carry their OpenCL address space, and aggregates exist only as the allocated type of memory. Types are
interned, so `is` and `==` agree and they can key dictionaries.
"""
from __future__ import annotations

import enum


class AddressSpace(enum.IntEnum):
    PRIVATE = 0
    GLOBAL = 1
    CONSTANT = 2
    LOCAL = 3
    GENERIC = 4

    @property
    def spelling(self) -> str:
        return self.name.lower()


class Type:
    """Base of all IR types. Subclasses are interned by their constructor arguments."""

    _interned: dict = {}

    def __new__(cls, *args):
        key = (cls, *args)
        found = Type._interned.get(key)
        if found is None:
            found = super().__new__(cls)
            found._init(*args)
            Type._interned[key] = found
        return found

    def _init(self, *args) -> None:
        pass

    def __reduce__(self):
        return (type(self), self._args())

    def _args(self) -> tuple:
        return ()

    @property
    def size(self) -> int:
        """Size in bytes as stored in memory."""
        raise TypeError(f"{self} has no size")

    @property
    def alignment(self) -> int:
        return self.size

    def __repr__(self) -> str:
        return str(self)


class VoidType(Type):
    def __str__(self) -> str:
        return "void"


class IntType(Type):
    def _init(self, bits: int) -> None:
        self.bits = bits

    def _args(self) -> tuple:
        return (self.bits,)

    @property
    def size(self) -> int:
        return max(1, self.bits // 8)

    def __str__(self) -> str:
        return f"i{self.bits}"


class FloatType(Type):
    def _init(self, bits: int) -> None:
        self.bits = bits

    def _args(self) -> tuple:
        return (self.bits,)

    @property
    def size(self) -> int:
        return self.bits // 8

    def __str__(self) -> str:
        return f"f{self.bits}"


class PointerType(Type):
    def _init(self, address_space: AddressSpace) -> None:
        self.address_space = AddressSpace(address_space)

    def _args(self) -> tuple:
        return (self.address_space,)

    @property
    def size(self) -> int:
        return 8

    def __str__(self) -> str:
        return f"ptr.{self.address_space.spelling}"


class VectorType(Type):
    def _init(self, element: Type, count: int) -> None:
        self.element = element
        self.count = count

    def _args(self) -> tuple:
        return (self.element, self.count)

    @property
    def size(self) -> int:
        # OpenCL: a 3-component vector occupies the storage of 4.
        return self.element.size * (4 if self.count == 3 else self.count)

    def __str__(self) -> str:
        return f"<{self.count} x {self.element}>"


class ArrayType(Type):
    def _init(self, element: Type, count: int) -> None:
        self.element = element
        self.count = count

    def _args(self) -> tuple:
        return (self.element, self.count)

    @property
    def size(self) -> int:
        return self.element.size * self.count

    @property
    def alignment(self) -> int:
        return self.element.alignment

    def __str__(self) -> str:
        return f"[{self.count} x {self.element}]"


class StructType(Type):
    """A struct laid out with C's rules; `fields` is a tuple of member types."""

    def _init(self, name: str, fields: tuple) -> None:
        self.name = name
        self.fields = tuple(fields)
        offset, align = 0, 1
        self.offsets = []
        for field in self.fields:
            offset = -(-offset // field.alignment) * field.alignment
            self.offsets.append(offset)
            offset += field.size
            align = max(align, field.alignment)
        self._alignment = align
        self._size = -(-offset // align) * align

    def _args(self) -> tuple:
        return (self.name, self.fields)

    @property
    def size(self) -> int:
        return self._size

    @property
    def alignment(self) -> int:
        return self._alignment

    def __str__(self) -> str:
        return f"%{self.name}"


void = VoidType()
i1 = IntType(1)
i8 = IntType(8)
i16 = IntType(16)
i32 = IntType(32)
i64 = IntType(64)
f16 = FloatType(16)
f32 = FloatType(32)
f64 = FloatType(64)


def pointer(address_space: AddressSpace) -> PointerType:
    return PointerType(address_space)


def is_int(t: Type) -> bool:
    return isinstance(t, IntType) or (isinstance(t, VectorType) and isinstance(t.element, IntType))


def is_float(t: Type) -> bool:
    return isinstance(t, FloatType) or (isinstance(t, VectorType) and isinstance(t.element, FloatType))


def scalar_of(t: Type) -> Type:
    """The element type of a vector, or the type itself."""
    return t.element if isinstance(t, VectorType) else t
