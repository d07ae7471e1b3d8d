"""A launch plan: everything about one NDRange shape of one kernel that does not change between
launches, prepared once and cached on the kernel, so that a repeated launch is a dict lookup plus one
native call (DESIGN.md: "short and allocation-free after the first call").

A plan holds the regions' `struct launch` records and `RegionDesc` entries (ctypes, kept alive here)
with the work-group function of each region's local size. Regions whose functions use the same
amount of static local memory run in one native call; regions are grouped by that amount because
local arguments are placed after the static variables, so their slot values differ per group.
"""
from __future__ import annotations

import ctypes
import math

from .native_pool import LaunchRequest, RegionDesc
from .ndrange import launch_info, split_regions

# A launch of this many work-items or more wakes its queue's executor at once (runtime/scheduler.py says why).
HAND_OFF_WORK_ITEMS = 1 << 16


class RegionBatch:
    """Regions that run in one native call: their descriptors and the flat group count."""

    __slots__ = ("descs", "count", "total_groups", "static_local_bytes", "private_bytes", "request",
                 "request_pointer", "local_sizes", "_infos")

    def __init__(self, entries: list, static_local_bytes: int) -> None:
        self.count = len(entries)
        self.descs = (RegionDesc * self.count)()
        self._infos = []
        first = 0
        for desc, (function, info, args_address, groups) in zip(self.descs, entries):
            desc.entry = function.address
            desc.args = args_address
            desc.launch = ctypes.addressof(info)
            desc.first = first
            desc.count = groups
            self._infos.append(info)
            first += groups
        self.total_groups = first
        self.local_sizes = tuple(function.local_size for function, *_ in entries)  # each region's
        self.static_local_bytes = static_local_bytes
        self.private_bytes = max(function.private_bytes for function, *_ in entries)
        self.request = LaunchRequest(ctypes.addressof(self.descs), self.count, first)
        self.request_pointer = ctypes.c_void_p(ctypes.addressof(self.request))


class LaunchPlan:
    """The batches of one (global size, local size, offset) of one kernel."""

    __slots__ = ("global_size", "local_size", "offset", "batches", "printf_buffer", "regions", "work_items",
                 "hand_off", "runs", "selection")

    def __init__(self, global_size, local_size, offset, function_for, args_address: int) -> None:
        self.global_size, self.local_size, self.offset = global_size, local_size, offset
        self.work_items = math.prod(global_size)
        self.hand_off = self.work_items >= HAND_OFF_WORK_ITEMS  # big: its queue's executor starts it at once
        by_static: dict[int, list] = {}
        self.regions = []  # (Region, WorkGroupFunction): checked mode finds a failed group's sites here
        for region in split_regions(global_size, local_size):
            function = function_for(region.local_size)
            self.regions.append((region, function))
            info = launch_info(global_size, local_size, offset, region)
            entry = (function, info, args_address, region.group_count)
            by_static.setdefault(function.static_local_bytes, []).append(entry)
        self.batches = tuple(RegionBatch(entries, static) for static, entries in by_static.items())
        self.printf_buffer = 0
        self.runs = None  # launch.py's checked (request, groups, arena, None) per batch, once known
        self.selection = None  # microprofile.Selection while its variant is being chosen

    def install(self, functions: dict) -> None:
        """Run each region with `functions[its local size]` from now on: a variant of the same
        kernel with the same arena layout (microprofile.py checks it), so a launch running
        meanwhile may run some of its groups with either: each still runs once."""
        for batch in self.batches:
            for desc, local_size in zip(batch.descs, batch.local_sizes):
                desc.entry = functions[local_size].address
        self.regions = [(region, functions[function.local_size]) for region, function in self.regions]

    def use_printf_buffer(self, address: int) -> None:
        """Point every region's `struct launch` at the kernel's printf buffer."""
        if address != self.printf_buffer:
            for batch in self.batches:
                for info in batch._infos:
                    info.printf_buffer = address
            self.printf_buffer = address
