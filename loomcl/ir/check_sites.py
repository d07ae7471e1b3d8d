"""The site table of checked mode: what the runtime needs to word a violation that native code found.

A check instruction (ir/ops/checks.py) names its site by index; native code records only that index
and numbers (byte offset, extent, ids). The site holds everything else: the source location and,
for an access, what was accessed and how; for a barrier check, what each barrier id stands for.
Sites are made by the work-group pipeline (insert-checks, subcfg-formation) in a fixed order, so
the same kernel and options give the same table.
"""
from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class MemoryObject:
    """What a checked pointer points into, as the user named it."""

    description: str  # "argument 'out'", "__local array 'tile'", "private array 'p'"
    param: int | None = None  # the kernel parameter's index, for a buffer or LocalMemory argument


@dataclass(frozen=True)
class AccessSite:
    """One checked load, store or atomic. `objects` lists the candidates when the pointer may point
    into several (a phi or select of pointers)."""

    location: object  # frontend Location, or None where the compiler made the access
    access: str  # "read", "write", "atomic access"
    size: int  # bytes accessed
    element: str  # the accessed type, as the IR prints it
    objects: tuple[MemoryObject, ...]
    traced: bool = True  # False: the pointer came from memory or an integer; `objects` are all candidates


@dataclass(frozen=True)
class BarrierSite:
    """The exits of one barrier-free region: per barrier id, where a work-item that leaves by it
    goes next, in words, and the source location of that barrier (None for the kernel's end)."""

    targets: dict = field(default_factory=dict)  # barrier id -> ("the barrier at k.cl:7:5", Location)
