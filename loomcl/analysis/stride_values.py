"""The values of stride analysis (strides.py): integer polynomials over uniform IR values, and strides.

A stride is how much a value (an address: in bytes) changes when one variable (a work-item id, a
loop's iteration count) grows by one. It is a constant (`4`), a uniform value that is unknown at
compile time but the same for every work-item and iteration (`4*%n`: a row of a row-major matrix),
or irregular (data-dependent, or not a linear function of the variable). Uniform unknowns are kept
as polynomials with integer coefficients over the IR values they are made of, so that two strides
compare equal when they are the same expression (`%n*4` and `4*%n`) and a symbolic stride can be
told apart from a constant one. A symbolic stride counts as large (more than a cache line): a
stride through a matrix row.
"""
from __future__ import annotations

import enum
from dataclasses import dataclass

from ..ir.values import Value

CACHE_LINE = 64
"""Bytes; a constant stride below this shares lines between neighbouring accesses."""

Monomial = tuple[Value, ...]


def _name(value: Value) -> str:
    return f"%{value.name}" if value.name else f"%<{type(value).__name__.lower()}>"


def _key(monomial: Monomial):
    return tuple((v.name, id(v)) for v in monomial)


@dataclass(frozen=True)
class Poly:
    """sum(coefficient * product(values)) with integer coefficients; `terms` sorted, none zero."""

    terms: tuple[tuple[Monomial, int], ...] = ()

    @staticmethod
    def of(pairs) -> Poly:
        merged: dict[Monomial, int] = {}
        for monomial, coefficient in pairs:
            monomial = tuple(sorted(monomial, key=lambda v: (v.name, id(v))))
            merged[monomial] = merged.get(monomial, 0) + coefficient
        return Poly(tuple(sorted(((m, c) for m, c in merged.items() if c), key=lambda t: _key(t[0]))))

    @staticmethod
    def constant(c: int) -> Poly:
        return Poly.of([((), c)])

    @staticmethod
    def symbol(value: Value) -> Poly:
        return Poly.of([((value,), 1)])

    def __add__(self, other: Poly) -> Poly:
        return Poly.of(self.terms + other.terms)

    def __neg__(self) -> Poly:
        return Poly.of((m, -c) for m, c in self.terms)

    def __sub__(self, other: Poly) -> Poly:
        return self + -other

    def __mul__(self, other: Poly) -> Poly:
        return Poly.of((m1 + m2, c1 * c2) for m1, c1 in self.terms for m2, c2 in other.terms)

    @property
    def is_zero(self) -> bool:
        return not self.terms

    @property
    def constant_value(self) -> int | None:
        """The value when the polynomial is a constant; None when it names a value."""
        if not self.terms:
            return 0
        if len(self.terms) == 1 and self.terms[0][0] == ():
            return self.terms[0][1]
        return None

    def divide(self, c: int) -> Poly | None:
        """The polynomial divided by `c` if every coefficient divides exactly."""
        if any(coefficient % c for _, coefficient in self.terms):
            return None
        return Poly.of((m, coefficient // c) for m, coefficient in self.terms)

    def __str__(self) -> str:
        if not self.terms:
            return "0"
        parts = []
        for monomial, c in self.terms:
            names = "*".join(_name(v) for v in monomial)
            parts.append(names if c == 1 and names else f"-{names}" if c == -1 and names else
                         f"{c}*{names}" if names else str(c))
        return " + ".join(parts).replace("+ -", "- ")


class Class(enum.Enum):
    """Kim's classes of a stride relative to the accessed element (Table 3.1), with the constant
    ones split by whether neighbours share a cache line."""

    ZERO = "0"          # the same address
    UNIT = "1"          # neighbouring elements (or overlapping ones)
    NEAR = "c"          # a constant stride under a cache line: some sharing
    LARGE = "X"         # a constant stride of a line or more, or a uniform unknown (a matrix row)
    IRREGULAR = "?"     # data-dependent or not linear

    @property
    def kim(self) -> str:
        """Kim's three classes: 0, 1 and other (X). A constant stride under a cache line counts as 1:
        neighbours share lines as consecutive elements do (a loop unrolled by hand, `a[j + 1]` with
        `j += 4`, or a float2 per work-item), which is the locality the class stands for."""
        return "0" if self is Class.ZERO else "1" if self in (Class.UNIT, Class.NEAR) else "X"


@dataclass(frozen=True)
class Stride:
    """A stride: `poly` (None: irregular)."""

    poly: Poly | None

    @property
    def is_irregular(self) -> bool:
        return self.poly is None

    @property
    def is_zero(self) -> bool:
        return self.poly is not None and self.poly.is_zero

    @property
    def constant(self) -> int | None:
        return None if self.poly is None else self.poly.constant_value

    def classify(self, element_size: int) -> Class:
        if self.poly is None:
            return Class.IRREGULAR
        c = self.poly.constant_value
        if c is None:
            return Class.LARGE
        c = abs(c)
        return (Class.ZERO if c == 0 else Class.UNIT if c <= element_size else
                Class.NEAR if c < CACHE_LINE else Class.LARGE)

    def __str__(self) -> str:
        return "irregular" if self.poly is None else str(self.poly)


ZERO = Stride(Poly())
IRREGULAR = Stride(None)


def constant(c: int) -> Stride:
    return Stride(Poly.constant(c))
