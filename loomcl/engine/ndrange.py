"""NDRange geometry: validating sizes, choosing a local size, splitting into uniform regions.

A work-group function is compiled for one constant local size (pocl 4.1), so an NDRange whose global
size is not a multiple of the local size (OpenCL 2.0 non-uniform work-groups) is cut, per dimension,
into the full groups and one remainder group. The cartesian product gives up to 2**work_dim regions,
each with a uniform local size; abi/kernel.py's `struct launch` describes a region by its origin and extent
in group ids.

Errors follow clEnqueueNDRangeKernel's statuses and name the offending size.
"""
from __future__ import annotations

import itertools
from dataclasses import dataclass

from loomcl.abi.kernel import MAX_DIMS, LaunchInfo
from loomcl.errors import LogicError, status_code

ROUTINE = "clEnqueueNDRangeKernel"
MAX_AUTO_X = 256  # widest automatic local size in x: long enough work-item loops to vectorize
MAX_AUTO_ITEMS = 256  # automatic groups stay small enough to leave many groups for load balance
MIN_GOOD_DIVISOR = 16  # below this, a non-dividing local size with a remainder group is better


@dataclass(frozen=True)
class Region:
    """Groups [origin, origin + groups) per dimension, all with the same `local_size`."""

    origin: tuple[int, int, int]
    groups: tuple[int, int, int]
    local_size: tuple[int, int, int]

    @property
    def group_count(self) -> int:
        return self.groups[0] * self.groups[1] * self.groups[2]


def _fail(code: int, message: str) -> LogicError:
    return LogicError(ROUTINE, code, message)


def _as_sizes(value, what: str, code: int) -> tuple[int, ...]:
    try:
        sizes = tuple(value)
    except TypeError:
        sizes = (value,)
    for size in sizes:
        if isinstance(size, bool) or not hasattr(size, "__index__"):
            raise _fail(code, f"{what} {value!r} must hold integers")
    return tuple(s.__index__() for s in sizes)


def check_global(global_size) -> tuple[int, ...]:
    sizes = _as_sizes(global_size, "global size", status_code.INVALID_GLOBAL_WORK_SIZE)
    if not 1 <= len(sizes) <= MAX_DIMS:
        raise _fail(status_code.INVALID_WORK_DIMENSION, f"global size {sizes} must have 1 to 3 dimensions")
    if any(s < 0 for s in sizes):
        raise _fail(status_code.INVALID_GLOBAL_WORK_SIZE, f"global size {sizes} has a negative dimension")
    if any(s == 0 for s in sizes):
        raise _fail(
            status_code.INVALID_GLOBAL_WORK_SIZE,
            f"global size {sizes} has a zero dimension (pass allow_empty_ndrange=True to allow it)",
        )
    return sizes


def check_local(local_size, dims: int, device, required) -> tuple[int, ...]:
    sizes = _as_sizes(local_size, "local size", status_code.INVALID_WORK_GROUP_SIZE)
    if len(sizes) != dims:
        raise _fail(
            status_code.INVALID_WORK_DIMENSION,
            f"local size {sizes} has {len(sizes)} dimensions but the global size has {dims}",
        )
    if any(s <= 0 for s in sizes):
        raise _fail(status_code.INVALID_WORK_GROUP_SIZE, f"local size {sizes} has a dimension below 1")
    items = _product(sizes)
    if items > device.max_work_group_size:
        raise _fail(
            status_code.INVALID_WORK_GROUP_SIZE,
            f"local size {sizes} has {items} work-items; the device maximum is {device.max_work_group_size}",
        )
    for dim, (size, limit) in enumerate(zip(sizes, device.max_work_item_sizes)):
        if size > limit:
            raise _fail(
                status_code.INVALID_WORK_ITEM_SIZE,
                f"local size {sizes}: dimension {dim} is {size}, above max_work_item_sizes[{dim}] = {limit}",
            )
    if required is not None and pad3(sizes) != tuple(required):
        raise _fail(
            status_code.INVALID_WORK_GROUP_SIZE,
            f"local size {sizes} differs from the kernel's reqd_work_group_size{tuple(required)}",
        )
    return sizes


def check_offset(global_offset, dims: int) -> tuple[int, ...]:
    if global_offset is None:
        return (0,) * dims
    offsets = _as_sizes(global_offset, "global offset", status_code.INVALID_GLOBAL_OFFSET)
    if len(offsets) != dims:
        raise _fail(
            status_code.INVALID_GLOBAL_OFFSET,
            f"global offset {offsets} has {len(offsets)} dimensions but the global size has {dims}",
        )
    if any(o < 0 for o in offsets):
        raise _fail(status_code.INVALID_GLOBAL_OFFSET, f"global offset {offsets} is negative")
    return offsets


def choose_local_size(global_size: tuple[int, ...], threads: int, required) -> tuple[int, ...]:
    """A local size for `local_size=None`: the kernel's required size, else dividing sizes with a
    wide x (vectorizable work-item loops), few items per group, and at least `threads` groups."""
    dims = len(global_size)
    if required is not None:
        return tuple(required)[:dims]
    local = [1] * dims
    local[0] = _pick(global_size[0], MAX_AUTO_X)
    budget = MAX_AUTO_ITEMS // local[0]
    for dim in range(1, dims):
        local[dim] = _largest_divisor(global_size[dim], budget)
        budget //= local[dim]
    _split_for_threads(local, global_size, threads)
    return tuple(local)


def _pick(size: int, limit: int) -> int:
    divisor = _largest_divisor(size, limit)
    if divisor >= MIN_GOOD_DIVISOR or divisor == size:
        return divisor
    return min(size, 64)  # a prime-ish size: one full-group function plus a remainder group


def _largest_divisor(size: int, limit: int) -> int:
    for candidate in range(min(size, max(limit, 1)), 0, -1):
        if size % candidate == 0:
            return candidate
    return 1


def _split_for_threads(local: list[int], global_size: tuple[int, ...], threads: int) -> None:
    """Halve group sizes (last dimension first, x last and not below 8) until every thread has a group."""
    for dim in reversed(range(len(local))):
        floor = 8 if dim == 0 else 1
        while _group_count(global_size, local) < threads and local[dim] % 2 == 0 and local[dim] // 2 >= floor:
            local[dim] //= 2


def _group_count(global_size, local) -> int:
    return _product(-(-g // l) for g, l in zip(global_size, local))


def _product(values) -> int:
    result = 1
    for value in values:
        result *= value
    return result


def pad3(sizes: tuple[int, ...], fill: int = 1) -> tuple[int, int, int]:
    return tuple(sizes) + (fill,) * (MAX_DIMS - len(sizes))


def split_regions(global_size: tuple[int, ...], local_size: tuple[int, ...]) -> list[Region]:
    """The uniform-local-size regions of an NDRange (full groups first, then remainders)."""
    per_dim = []
    for g, l in zip(pad3(global_size), pad3(local_size)):
        full, rest = divmod(g, l)
        segments = [(0, full, l)] if full else []
        if rest:
            segments.append((full, 1, rest))
        per_dim.append(segments)
    regions = []
    for (ox, nx, lx), (oy, ny, ly), (oz, nz, lz) in itertools.product(*per_dim):
        regions.append(Region((ox, oy, oz), (nx, ny, nz), (lx, ly, lz)))
    return regions


def launch_info(global_size, local_size, offset, region: Region) -> LaunchInfo:
    """abi/kernel.py's `struct launch` for one region."""
    info = LaunchInfo()
    info.work_dim = len(global_size)
    gs, ls = pad3(global_size), pad3(local_size)
    info.global_size[:] = gs
    info.global_offset[:] = pad3(offset, 0)
    info.enqueued_local_size[:] = ls
    info.num_groups[:] = [-(-g // l) for g, l in zip(gs, ls)]
    info.region_origin[:] = region.origin
    info.region_groups[:] = region.groups
    return info
