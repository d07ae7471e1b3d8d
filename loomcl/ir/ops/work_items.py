"""The work-item's view of the NDRange, and the work-group barrier: real instructions, never calls
recognized by name. The work-group transforms replace local-id queries by work-item loop counters
and remove every barrier (transforms/__init__.py)."""
from __future__ import annotations

import enum
from typing import Iterator

from .. import types as ty
from .base import Instruction, TextReader, TextWriter
from .memory import FenceFlagged
from .shapes import UNIFORM, VARYING, Shape, ShapeOf, UniformityRule, consecutive

__all__ = ["Query", "WorkItemQuery", "Barrier", "is_query"]


class Query(enum.Enum):
    LOCAL_ID = "local_id"
    GROUP_ID = "group_id"
    LOCAL_SIZE = "local_size"
    ENQUEUED_LOCAL_SIZE = "enqueued_local_size"
    NUM_GROUPS = "num_groups"
    GLOBAL_SIZE = "global_size"
    GLOBAL_OFFSET = "global_offset"
    WORK_DIM = "work_dim"


def _query_shape(i: WorkItemQuery, lanes: ShapeOf) -> Shape:
    """local_id(0) steps by one across the group; local_id(1) and (2) vary across it (and are
    uniform within one x work-item loop); the NDRange's other properties are the group's."""
    if i.query is not Query.LOCAL_ID:
        return UNIFORM
    if i.dim == 0:
        return consecutive(1)
    return UNIFORM if lanes.along_x else VARYING


class WorkItemQuery(Instruction):
    """A work-item or NDRange property in dimension `dim` (0..2), as i64. `get_global_id` is
    lowered to group_id * enqueued_local_size + local_id + global_offset. Pure: within one
    work-item it always gives the same value."""

    keywords = tuple(q.value for q in Query)
    fields = ("query", "dim")
    is_pure = True
    uniformity = UniformityRule("local id 0 consecutive", _query_shape)

    def __init__(self, query: Query, dim: int = 0, name: str = "") -> None:
        super().__init__(ty.i64, [], name)
        self.query = query
        self.dim = dim

    @property
    def keyword(self) -> str:
        return self.query.value

    def print_operands(self, p: TextWriter) -> str:
        return str(self.dim)

    @classmethod
    def parse(cls, keyword: str, r: TextReader, name: str) -> WorkItemQuery:
        return cls(Query(keyword), r.int(), name)

    def verify(self) -> Iterator[str]:
        if self.dim not in (0, 1, 2):
            yield f"dimension {self.dim!r} is not 0, 1 or 2"
        if self.type is not ty.i64:
            yield f"result is {self.type}, not i64"


def is_query(value, query: Query, dim: int | None = None) -> bool:
    """Whether `value` is the work-item query `query` (in dimension `dim`, if given)."""
    return isinstance(value, WorkItemQuery) and value.query is query and (dim is None or value.dim == dim)


class Barrier(FenceFlagged):
    """A work-group barrier. `flags` holds CLK_LOCAL_MEM_FENCE (1) | CLK_GLOBAL_MEM_FENCE (2)."""

    keywords = ("barrier",)
    is_barrier = True
