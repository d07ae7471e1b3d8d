"""Lanes of vectors: OpenCL's vector types and swizzles, and the vectorizing passes."""
from __future__ import annotations

from typing import Iterator

from .. import types as ty
from ..values import Value
from .base import Instruction, TextReader, TextWriter, integer_index, read_operands, result_is
from .shapes import OPERANDS

__all__ = ["ExtractElement", "InsertElement", "ShuffleVector"]


def _vector(value: Value, role: str) -> Iterator[str]:
    if not isinstance(value.type, ty.VectorType):
        yield f"{role} is {value.type}, not a vector"


class ExtractElement(Instruction):
    keywords = ("extractelement",)
    operand_names = ("vector", "index")
    is_pure = True
    uniformity = OPERANDS

    def __init__(self, vector: Value, index: Value, name: str = "") -> None:
        super().__init__(ty.scalar_of(vector.type), [vector, index], name)

    @classmethod
    def parse(cls, keyword: str, r: TextReader, name: str) -> ExtractElement:
        vector = r.operand()
        r.expect(",")
        return cls(vector, r.operand(), name)

    def verify(self) -> Iterator[str]:
        yield from _vector(self.vector, "the vector operand")
        yield from integer_index(self.index)
        if isinstance(self.vector.type, ty.VectorType):
            yield from result_is(self, self.vector.type.element, "the lanes are")


class InsertElement(Instruction):
    keywords = ("insertelement",)
    operand_names = ("vector", "value", "index")
    is_pure = True
    uniformity = OPERANDS

    def __init__(self, vector: Value, value: Value, index: Value, name: str = "") -> None:
        super().__init__(vector.type, [vector, value, index], name)

    @classmethod
    def parse(cls, keyword: str, r: TextReader, name: str) -> InsertElement:
        return cls(*read_operands(r, 3), name=name)

    def verify(self) -> Iterator[str]:
        yield from _vector(self.vector, "the vector operand")
        yield from integer_index(self.index)
        yield from result_is(self, self.vector.type, "the vector is")
        if isinstance(self.vector.type, ty.VectorType) and self.value.type is not self.vector.type.element:
            yield f"inserts {self.value.type} into {self.vector.type}"


class ShuffleVector(Instruction):
    """Lanes picked from the concatenation of `a` and `b` by the constant `mask` (-1: any value)."""

    keywords = ("shufflevector",)
    fields = ("mask",)
    operand_names = ("a", "b")
    is_pure = True
    uniformity = OPERANDS

    def __init__(self, a: Value, b: Value, mask: list[int], name: str = "") -> None:
        super().__init__(ty.VectorType(ty.scalar_of(a.type), len(mask)), [a, b], name)
        self.mask = tuple(mask)

    def print_operands(self, p: TextWriter) -> str:
        return f"{p.operands(self._operands)}, <{', '.join(map(str, self.mask))}>"

    @classmethod
    def parse(cls, keyword: str, r: TextReader, name: str) -> ShuffleVector:
        a = r.operand()
        r.expect(",")
        b = r.operand()
        r.expect(",")
        r.expect("<")
        mask = [r.int()]
        while r.accept(","):
            mask.append(r.int())
        r.expect(">")
        return cls(a, b, mask, name)

    def verify(self) -> Iterator[str]:
        a, b = self.operands
        yield from _vector(a, "the first operand")
        if b.type is not a.type:
            yield f"shuffles {a.type} with {b.type}"
        if not isinstance(a.type, ty.VectorType):
            return
        yield from result_is(self, ty.VectorType(a.type.element, len(self.mask)), "the mask picks")
        lanes = 2 * a.type.count
        for m in self.mask:
            if not -1 <= m < lanes:
                yield f"mask lane {m} is outside -1..{lanes - 1}"
