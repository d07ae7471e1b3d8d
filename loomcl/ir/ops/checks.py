"""Checked mode's run-time checks (transforms/insert_checks.py inserts them; codegen expands them).

A check is one instruction, so no pass needs to know about the control flow it stands for: code
generation turns it into a compare and a branch to a cold block that records the violation in the
launch's error record and leaves the work-group (codegen/llvm_checks.py). Each check names a *site*,
an index into the kernel's site table (`Function.check_sites`), which the runtime turns into the
message: source location, variable, extent.
"""
from __future__ import annotations

from typing import Iterator

from .. import types as ty
from ..values import Value
from .base import Instruction, TextReader, TextWriter, address, read_operands
from .shapes import NO_VALUE, OPERANDS

__all__ = ["ArgumentExtent", "CheckAccess", "CheckBarrier"]


class ArgumentExtent(Instruction):
    """The size in bytes of what pointer parameter `param` points into (0 for a null buffer), as
    the launch passes it; i64, uniform."""

    keywords = ("argument_extent",)
    fields = ("param",)
    is_pure = True
    uniformity = OPERANDS  # none: the launch's

    def __init__(self, param: int, name: str = "") -> None:
        super().__init__(ty.i64, [], name)
        self.param = param

    def print_operands(self, p: TextWriter) -> str:
        return str(self.param)

    @classmethod
    def parse(cls, keyword: str, r: TextReader, name: str) -> ArgumentExtent:
        return cls(r.int(), name)

    def verify(self) -> Iterator[str]:
        params = self.function.params if self.function is not None else []
        if not 0 <= self.param < len(params) or not isinstance(params[self.param].type, ty.PointerType):
            yield f"parameter {self.param} is not a pointer parameter of the function"


def _ids(values) -> Iterator[str]:
    for v in values:
        if v.type is not ty.i64:
            yield f"a local id is {v.type}, not i64"


class CheckAccess(Instruction):
    """Stop the work-group unless the `size` bytes at `pointer` lie within [base, base + extent).
    The local ids name the offending work-item in the report."""

    keywords = ("check_access",)
    fields = ("site", "size")
    operand_names = ("pointer", "base", "extent", "local_ids*")
    has_other_effects = True  # may stop the work-group
    uniformity = NO_VALUE

    def __init__(self, site: int, size: int, pointer: Value, base: Value, extent: Value, local_ids) -> None:
        super().__init__(ty.void, [pointer, base, extent, *local_ids])
        self.site = site
        self.size = size

    def print_operands(self, p: TextWriter) -> str:
        return f"{self.site}, {self.size}, {p.operands(self._operands)}"

    @classmethod
    def parse(cls, keyword: str, r: TextReader, name: str) -> CheckAccess:
        site = r.int()
        r.expect(",")
        size = r.int()
        r.expect(",")
        pointer, base, extent, *ids = read_operands(r, 6)
        return cls(site, size, pointer, base, extent, ids)

    def verify(self) -> Iterator[str]:
        yield from address(self.pointer)
        yield from address(self.base, "base")
        if self.extent.type is not ty.i64:
            yield f"extent is {self.extent.type}, not i64"
        yield from _ids(self.local_ids)


class CheckBarrier(Instruction):
    """At the end of a work-item's region: `next` (i32) is the barrier it goes to next. The first
    work-item of the group stores its `next` in the i32 at `first`; a later one that differs has
    reached a different barrier (or none): the report names both."""

    keywords = ("check_barrier",)
    fields = ("site",)
    operand_names = ("next", "first", "local_ids*")
    writes_memory = True  # the first work-item's `next`, at `first`
    has_other_effects = True  # may stop the work-group
    uniformity = NO_VALUE

    def __init__(self, site: int, next: Value, first: Value, local_ids) -> None:
        super().__init__(ty.void, [next, first, *local_ids])
        self.site = site

    def print_operands(self, p: TextWriter) -> str:
        return f"{self.site}, {p.operands(self._operands)}"

    @classmethod
    def parse(cls, keyword: str, r: TextReader, name: str) -> CheckBarrier:
        site = r.int()
        r.expect(",")
        next, first, *ids = read_operands(r, 5)
        return cls(site, next, first, ids)

    def verify(self) -> Iterator[str]:
        if self.next.type is not ty.i32:
            yield f"next is {self.next.type}, not i32"
        yield from address(self.first, "first")
        yield from _ids(self.local_ids)
