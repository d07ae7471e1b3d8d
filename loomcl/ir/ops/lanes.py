"""Lanes of work-items: the operations whole-function vectorization (transforms/vectorize_work_items.py)
adds, where one vector lane is one work-item.

A mask is a vector of i1, one lane per work-item: false lanes are inactive and their memory is never
touched (a masked lane may lie past the end of a buffer). Memory lanes step over the element type
with its own alignment, never the vector's. Addresses that differ per lane are a uniform base plus
a vector of i64 byte offsets, so no vector of pointers is needed.
"""
from __future__ import annotations

from typing import Iterator

from .. import types as ty
from ..values import Value
from .base import Instruction, TextReader, TextWriter, address, read_operands, result_is
from .shapes import NO_VALUE, OPERANDS, PER_WORK_ITEM

__all__ = ["Broadcast", "LaneLoad", "LaneStore", "Gather", "Scatter", "AnyLane"]


def mask_type(count: int) -> ty.VectorType:
    return ty.VectorType(ty.i1, count)


def _lanes_of(value: Value, role: str) -> Iterator[str]:
    t = value.type
    if not isinstance(t, ty.VectorType) or isinstance(t.element, ty.VectorType):
        yield f"{role} is {t}, not a vector of scalars"


def _mask(mask: Value, count: int) -> Iterator[str]:
    if mask.type is not mask_type(count):
        yield f"mask is {mask.type}, not {mask_type(count)}"


def _offsets(offsets: Value, count: int) -> Iterator[str]:
    if offsets.type is not ty.VectorType(ty.i64, count):
        yield f"offsets are {offsets.type}, not <{count} x i64>"


class Broadcast(Instruction):
    """The scalar `value` in each of `count` lanes."""

    keywords = ("broadcast",)
    operand_names = ("value",)
    is_pure = True
    uniformity = OPERANDS

    def __init__(self, value: Value, count: int, name: str = "") -> None:
        super().__init__(ty.VectorType(value.type, count), [value], name)

    def print_operands(self, p: TextWriter) -> str:
        return f"{self.type.count}, {p.operand(self.value)}"

    @classmethod
    def parse(cls, keyword: str, r: TextReader, name: str) -> Broadcast:
        count = r.int()
        r.expect(",")
        return cls(r.operand(), count, name)

    def verify(self) -> Iterator[str]:
        if not isinstance(self.value.type, (ty.IntType, ty.FloatType)):
            yield f"broadcasts {self.value.type}, not an integer or float"


class LaneLoad(Instruction):
    """Lane k reads the element at `pointer + k * sizeof(element)` where `mask` is true (0 elsewhere)."""

    keywords = ("lane.load",)
    operand_names = ("pointer", "mask")
    reads_memory = True
    uniformity = PER_WORK_ITEM

    def __init__(self, type: ty.VectorType, pointer: Value, mask: Value, name: str = "") -> None:
        super().__init__(type, [pointer, mask], name)

    def print_operands(self, p: TextWriter) -> str:
        return f"{self.type}, {p.operands(self._operands)}"

    @classmethod
    def parse(cls, keyword: str, r: TextReader, name: str) -> LaneLoad:
        t = r.type()
        r.expect(",")
        return cls(t, *read_operands(r, 2), name=name)

    def verify(self) -> Iterator[str]:
        yield from address(self.pointer)
        yield from _lanes_of(self, "the result")
        if isinstance(self.type, ty.VectorType):
            yield from _mask(self.mask, self.type.count)


class LaneStore(Instruction):
    """Lane k of `value` goes to `pointer + k * sizeof(element)` where `mask` is true."""

    keywords = ("lane.store",)
    operand_names = ("value", "pointer", "mask")
    writes_memory = True
    uniformity = NO_VALUE

    def __init__(self, value: Value, pointer: Value, mask: Value) -> None:
        super().__init__(ty.void, [value, pointer, mask])

    @classmethod
    def parse(cls, keyword: str, r: TextReader, name: str) -> LaneStore:
        return cls(*read_operands(r, 3))

    def verify(self) -> Iterator[str]:
        yield from address(self.pointer)
        yield from _lanes_of(self.value, "the stored value")
        if isinstance(self.value.type, ty.VectorType):
            yield from _mask(self.mask, self.value.type.count)


class Gather(Instruction):
    """Lane k reads the element at byte `base + offsets[k]` where `mask` is true (0 elsewhere)."""

    keywords = ("gather",)
    operand_names = ("base", "offsets", "mask")
    reads_memory = True
    uniformity = PER_WORK_ITEM

    def __init__(self, type: ty.VectorType, base: Value, offsets: Value, mask: Value, name: str = "") -> None:
        super().__init__(type, [base, offsets, mask], name)

    def print_operands(self, p: TextWriter) -> str:
        return f"{self.type}, {p.operands(self._operands)}"

    @classmethod
    def parse(cls, keyword: str, r: TextReader, name: str) -> Gather:
        t = r.type()
        r.expect(",")
        return cls(t, *read_operands(r, 3), name=name)

    def verify(self) -> Iterator[str]:
        yield from address(self.base, "base")
        yield from _lanes_of(self, "the result")
        if isinstance(self.type, ty.VectorType):
            yield from _offsets(self.offsets, self.type.count)
            yield from _mask(self.mask, self.type.count)


class Scatter(Instruction):
    """Lane k of `value` goes to byte `base + offsets[k]` where `mask` is true, lane 0 first: when
    lanes share an address the highest lane's value stays, as if the work-items ran in order."""

    keywords = ("scatter",)
    operand_names = ("value", "base", "offsets", "mask")
    writes_memory = True
    uniformity = NO_VALUE

    def __init__(self, value: Value, base: Value, offsets: Value, mask: Value) -> None:
        super().__init__(ty.void, [value, base, offsets, mask])

    @classmethod
    def parse(cls, keyword: str, r: TextReader, name: str) -> Scatter:
        return cls(*read_operands(r, 4))

    def verify(self) -> Iterator[str]:
        yield from address(self.base, "base")
        yield from _lanes_of(self.value, "the stored value")
        if isinstance(self.value.type, ty.VectorType):
            yield from _offsets(self.offsets, self.value.type.count)
            yield from _mask(self.mask, self.value.type.count)


class AnyLane(Instruction):
    """Whether any lane of the mask is true (branch-on-superword-condition)."""

    keywords = ("any.lane",)
    operand_names = ("mask",)
    is_pure = True
    uniformity = OPERANDS

    def __init__(self, mask: Value, name: str = "") -> None:
        super().__init__(ty.i1, [mask], name)

    @classmethod
    def parse(cls, keyword: str, r: TextReader, name: str) -> AnyLane:
        return cls(r.operand(), name)

    def verify(self) -> Iterator[str]:
        t = self.mask.type
        if not (isinstance(t, ty.VectorType) and t.element is ty.i1):
            yield f"any.lane of {t}, not a vector of i1"
        yield from result_is(self, ty.i1, "any.lane gives")
