"""Memory: private allocations, loads and stores, address arithmetic, atomics and fences.

Pointers are opaque and carry only their OpenCL address space, so an access names the type it reads
or writes, and address arithmetic names the element type it steps over. Atomics are sequentially
consistent and give the old value; LLVM's `atomicrmw` takes integers, except `xchg`, which also
takes floating-point values.
"""
from __future__ import annotations

import enum
from typing import Iterator

from .. import types as ty
from ..values import Value
from .base import Instruction, TextReader, TextWriter, address, has_size, integer_index, read_operands, result_is
from .shapes import BOTTOM, NO_VALUE, PER_WORK_ITEM, UNIFORM, VARYING, Kind, Shape, ShapeOf, UniformityRule, consecutive

__all__ = ["Alloca", "Load", "Store", "ElementPtr", "FieldPtr", "AtomicOpcode", "AtomicRMW", "AtomicCmpXchg",
           "Fence"]


class Alloca(Instruction):
    """Private storage for one `allocated_type`, alive for the whole function invocation."""

    keywords = ("alloca",)
    fields = ("allocated_type",)
    uniformity = PER_WORK_ITEM  # each work-item has its own

    def __init__(self, allocated_type: ty.Type, name: str = "") -> None:
        super().__init__(ty.pointer(ty.AddressSpace.PRIVATE), [], name)
        self.allocated_type = allocated_type

    def print_operands(self, p: TextWriter) -> str:
        return str(self.allocated_type)

    @classmethod
    def parse(cls, keyword: str, r: TextReader, name: str) -> Alloca:
        return cls(r.type(), name)

    def verify(self) -> Iterator[str]:
        if not has_size(self.allocated_type):
            yield f"allocates {self.allocated_type}, which has no size"


def _volatile(inst) -> str:
    return " volatile" if inst.volatile else ""


def _load_shape(i: Load, lanes: ShapeOf) -> Shape:
    """Uniform only from a uniform address in __constant memory: any other memory may be written by
    another work-item, or by this one, between two loads (the safe rule)."""
    p = i.pointer
    constant = isinstance(p.type, ty.PointerType) and p.type.address_space is ty.AddressSpace.CONSTANT
    return UNIFORM if constant and lanes.shape(p).is_uniform and not i.volatile else VARYING


class Load(Instruction):
    keywords = ("load",)
    address_operand = "pointer"
    fields = ("volatile",)
    operand_names = ("pointer",)
    reads_memory = True
    uniformity = UniformityRule("uniform __constant address", _load_shape)

    def __init__(self, type: ty.Type, pointer: Value, name: str = "") -> None:
        super().__init__(type, [pointer], name)
        self.volatile = False

    def print_operands(self, p: TextWriter) -> str:
        return f"{self.type}, {p.operand(self.pointer)}{_volatile(self)}"

    @classmethod
    def parse(cls, keyword: str, r: TextReader, name: str) -> Load:
        type = r.type()
        r.expect(",")
        load = cls(type, r.operand(), name)
        load.volatile = r.accept("volatile")
        return load

    def verify(self) -> Iterator[str]:
        yield from address(self.pointer)
        if not has_size(self.type):
            yield f"loads {self.type}, which has no size"


class Store(Instruction):
    keywords = ("store",)
    address_operand = "pointer"
    fields = ("volatile",)
    operand_names = ("value", "pointer")
    writes_memory = True
    uniformity = NO_VALUE

    def __init__(self, value: Value, pointer: Value) -> None:
        super().__init__(ty.void, [value, pointer])
        self.volatile = False

    @property
    def accessed_type(self) -> ty.Type:
        return self.value.type

    def print_operands(self, p: TextWriter) -> str:
        return f"{p.operands(self._operands)}{_volatile(self)}"

    @classmethod
    def parse(cls, keyword: str, r: TextReader, name: str) -> Store:
        value = r.operand()
        r.expect(",")
        store = cls(value, r.operand())
        store.volatile = r.accept("volatile")
        return store

    def verify(self) -> Iterator[str]:
        yield from address(self.pointer)
        if not has_size(self.value.type):
            yield f"stores {self.value.type}, which has no size"


def _element_ptr_shape(i: ElementPtr, lanes: ShapeOf) -> Shape:
    """The base's stride plus the index's, scaled by the element's size."""
    base, index = lanes.shape(i.base), lanes.shape(i.index)
    if base.kind is Kind.BOTTOM or index.kind is Kind.BOTTOM:
        return BOTTOM
    if base.is_uniform and index.is_uniform:
        return UNIFORM
    if Kind.VARYING in (base.kind, index.kind):
        return VARYING
    return consecutive(base.stride + index.stride * i.element_type.size)


class ElementPtr(Instruction):
    """`base + index * sizeof(element_type)`, staying in the base pointer's address space. The
    index is a signed integer of any width."""

    keywords = ("elementptr",)
    fields = ("element_type",)
    operand_names = ("base", "index")
    is_pure = True
    uniformity = UniformityRule("affine address", _element_ptr_shape)

    def __init__(self, element_type: ty.Type, base: Value, index: Value, name: str = "") -> None:
        super().__init__(base.type, [base, index], name)
        self.element_type = element_type

    address_origin = property(lambda self: self.base)

    def print_operands(self, p: TextWriter) -> str:
        return f"{self.element_type}, {p.operand(self.base)}, {p.operand(self.index)}"

    @classmethod
    def parse(cls, keyword: str, r: TextReader, name: str) -> ElementPtr:
        element = r.type()
        r.expect(",")
        base = r.operand()
        r.expect(",")
        return cls(element, base, r.operand(), name)

    def verify(self) -> Iterator[str]:
        yield from address(self.base)
        yield from integer_index(self.index)
        yield from result_is(self, self.base.type, "the base is")
        if not has_size(self.element_type):
            yield f"steps over {self.element_type}, which has no size"


class FieldPtr(Instruction):
    """Address of member `field` of the struct at `base`."""

    keywords = ("fieldptr",)
    fields = ("struct_type", "field")
    operand_names = ("base",)
    is_pure = True
    uniformity = UniformityRule("the base's", lambda i, lanes: lanes.shape(i.base))

    def __init__(self, struct_type: ty.StructType, base: Value, field: int, name: str = "") -> None:
        super().__init__(base.type, [base], name)
        self.struct_type = struct_type
        self.field = field

    address_origin = property(lambda self: self.base)

    def print_operands(self, p: TextWriter) -> str:
        return f"{self.struct_type}, {p.operand(self.base)}, {self.field}"

    @classmethod
    def parse(cls, keyword: str, r: TextReader, name: str) -> FieldPtr:
        struct = r.type()
        r.expect(",")
        base = r.operand()
        r.expect(",")
        return cls(struct, base, r.int(), name)

    def verify(self) -> Iterator[str]:
        yield from address(self.base)
        yield from result_is(self, self.base.type, "the base is")
        if not isinstance(self.struct_type, ty.StructType):
            yield f"{self.struct_type} is not a struct"
        elif not 0 <= self.field < len(self.struct_type.fields):
            yield f"{self.struct_type} has no field {self.field}"


class AtomicOpcode(enum.Enum):
    ADD = "add"
    SUB = "sub"
    XCHG = "xchg"
    SMIN = "smin"
    SMAX = "smax"
    UMIN = "umin"
    UMAX = "umax"
    AND = "and"
    OR = "or"
    XOR = "xor"


def _atomic_value(value: Value, what: str, floats: bool) -> Iterator[str]:
    """An atomic operates on one scalar integer of at least a byte (or, where `floats`, a float)."""
    t = value.type
    if isinstance(t, ty.IntType) and t.bits >= 8:
        return
    if floats and isinstance(t, ty.FloatType):
        return
    kinds = "an integer or floating-point scalar" if floats else "an integer scalar of 8 bits or more"
    yield f"{what} operates on {t}, not {kinds}"


class AtomicRMW(Instruction):
    """Atomically `*pointer = *pointer <op> value`, giving the old value (sequentially consistent)."""

    keywords = ("atomic",)
    address_operand = "pointer"
    fields = ("opcode",)
    operand_names = ("pointer", "value")
    reads_memory = True
    writes_memory = True
    uniformity = PER_WORK_ITEM

    def __init__(self, opcode: AtomicOpcode, pointer: Value, value: Value, name: str = "") -> None:
        super().__init__(value.type, [pointer, value], name)
        self.opcode = opcode

    def print_operands(self, p: TextWriter) -> str:
        return f"{self.opcode.value} {p.operands(self._operands)}"

    @classmethod
    def parse(cls, keyword: str, r: TextReader, name: str) -> AtomicRMW:
        opcode = AtomicOpcode(r.next())
        pointer = r.operand()
        r.expect(",")
        return cls(opcode, pointer, r.operand(), name)

    def verify(self) -> Iterator[str]:
        yield from address(self.pointer)
        yield from _atomic_value(self.value, f"atomic {self.opcode.value}", self.opcode is AtomicOpcode.XCHG)
        yield from result_is(self, self.value.type, "the old value is")


class AtomicCmpXchg(Instruction):
    """Atomically replace `*pointer` by `new` if it equals `expected`; gives the old value."""

    keywords = ("cmpxchg",)
    address_operand = "pointer"
    operand_names = ("pointer", "expected", "new")
    reads_memory = True
    writes_memory = True
    uniformity = PER_WORK_ITEM

    def __init__(self, pointer: Value, expected: Value, new: Value, name: str = "") -> None:
        super().__init__(expected.type, [pointer, expected, new], name)

    @classmethod
    def parse(cls, keyword: str, r: TextReader, name: str) -> AtomicCmpXchg:
        return cls(*read_operands(r, 3), name=name)

    def verify(self) -> Iterator[str]:
        yield from address(self.pointer)
        if self.expected.type is not self.new.type:
            yield f"expected is {self.expected.type}, new is {self.new.type}"
        yield from _atomic_value(self.expected, "cmpxchg", floats=True)
        yield from result_is(self, self.expected.type, "the old value is")


_FENCE_FLAGS = 7  # CLK_LOCAL_MEM_FENCE (1) | CLK_GLOBAL_MEM_FENCE (2) | CLK_IMAGE_MEM_FENCE (4)


class FenceFlagged(Instruction):
    """What a fence and a barrier share: no operands, memory-fence `flags`, a side effect (the
    order of memory operations)."""

    fields = ("flags",)
    has_other_effects = True
    uniformity = NO_VALUE

    def __init__(self, flags: int) -> None:
        super().__init__(ty.void, [])
        self.flags = flags

    def print_operands(self, p: TextWriter) -> str:
        return str(self.flags)

    @classmethod
    def parse(cls, keyword: str, r: TextReader, name: str) -> FenceFlagged:
        return cls(r.int())

    def verify(self) -> Iterator[str]:
        flags = self.flags
        if not isinstance(flags, int) or not 0 <= flags <= _FENCE_FLAGS:
            yield f"flags {flags!r} are not a combination of CLK_*_MEM_FENCE (0..{_FENCE_FLAGS})"


class Fence(FenceFlagged):
    """A memory fence (mem_fence / read_mem_fence / write_mem_fence) of one work-item."""

    keywords = ("fence",)
