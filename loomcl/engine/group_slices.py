"""A slice of a launch's work-groups, run with chosen entry points: what micro-profiling hands the pool.

The native pool (engine/native_pool.py) runs every group of a request's flat range [0, total),
region after region, a region's flat span being [first, first + count). A slice [begin, end) of a
batch's flat range is therefore a request of its own: the regions that meet the slice, each shifted
by -begin (its `first` may become negative: positions below 0 are never claimed) and cut at `end`.
A position then maps to the same group as in the whole batch, so slices that tile [0, total) run
every group exactly once, whichever entry point each slice uses.
"""
from __future__ import annotations

import ctypes

from .native_pool import LaunchRequest, RegionDesc


class GroupSlice:
    """A request for groups [begin, end) of a batch; `pointer` is what WorkerPool.run takes."""

    __slots__ = ("descs", "request", "pointer", "groups")

    def __init__(self, batch, entries: tuple[int, ...], begin: int, end: int) -> None:
        parts = []
        for desc, entry in zip(batch.descs, entries):
            first = desc.first
            hi = min(end, first + desc.count)
            if max(begin, first) < hi:
                parts.append((entry, desc.args, desc.launch, first - begin, hi - first))
        self.descs = (RegionDesc * len(parts))(*parts)
        self.groups = end - begin
        self.request = LaunchRequest(ctypes.addressof(self.descs), len(parts), self.groups)
        self.pointer = ctypes.c_void_p(ctypes.addressof(self.request))
