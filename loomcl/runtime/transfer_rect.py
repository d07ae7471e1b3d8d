"""Rectangular transfers (clEnqueue{Read,Write,Copy}BufferRect), reached through `enqueue_copy` with
pyopencl's keywords: `buffer_origin, host_origin, region[, buffer_pitches, host_pitches]` between a
Buffer and host memory, `src_origin, dst_origin, region[, src_pitches, dst_pitches]` between Buffers.

A side is a 3-D box in a flat byte array: origin and region are (x in bytes, y rows, z slices),
padded with 0 (origin) and 1 (region); pitches are (row pitch, slice pitch) in bytes, and a missing
or zero pitch means tightly packed (region[0], then region[1] * row pitch). Each side becomes a
strided uint8 view after its whole extent is checked against its array (at the enqueue call), so
one numpy assignment, the command's work, does the copy and no byte outside either box is touched.
"""
from __future__ import annotations

import numpy as np
from numpy.lib.stride_tricks import as_strided

from loomcl.errors import LogicError, status_code

from .buffer import Buffer, host_bytes
from .command import Copy
from .constants import command_type

RECT_KEYWORDS = ("buffer_origin", "src_origin")


def copy_rect(dest, src, kwargs: dict) -> tuple:
    """Check the rectangular copy `kwargs` describes; return (command type, routine, work)."""
    if isinstance(dest, Buffer) and isinstance(src, Buffer):
        routine, command = "clEnqueueCopyBufferRect", command_type.COPY_BUFFER_RECT
        names = ("src_origin", "dst_origin", "region", "src_pitches", "dst_pitches")
        src_origin, dst_origin, region, src_pitches, dst_pitches = _arguments(kwargs, names, routine)
        src_memory, dst_memory = src.memory(routine), dest.memory(routine)
    else:
        writing = isinstance(dest, Buffer)
        routine = "clEnqueueWriteBufferRect" if writing else "clEnqueueReadBufferRect"
        names = ("buffer_origin", "host_origin", "region", "buffer_pitches", "host_pitches")
        buffer_origin, host_origin, region, buffer_pitches, host_pitches = _arguments(kwargs, names, routine)
        buffer_side = (buffer_origin, buffer_pitches)
        host_side = (host_origin, host_pitches)
        if writing:
            command = command_type.WRITE_BUFFER_RECT
            src_memory, dst_memory = host_bytes(src, routine), dest.memory(routine)
            (src_origin, src_pitches), (dst_origin, dst_pitches) = host_side, buffer_side
        else:
            command = command_type.READ_BUFFER_RECT
            src_memory, dst_memory = src.memory(routine), host_bytes(dest, routine, writable=True)
            (src_origin, src_pitches), (dst_origin, dst_pitches) = buffer_side, host_side
    region = _triple(region, 1, "region", routine)
    if 0 in region:
        raise LogicError(routine, status_code.INVALID_VALUE, f"region {region} has an empty dimension")
    source = _box(src_memory, src_origin, src_pitches, region, routine, "source")
    target = _box(dst_memory, dst_origin, dst_pitches, region, routine, "destination")
    if src is dest and _overlap(source, target, src_memory):
        raise LogicError(routine, status_code.MEM_COPY_OVERLAP, "the source and destination boxes overlap")
    return command, routine, Copy(target, source)


def _arguments(kwargs: dict, names: tuple, routine: str) -> list:
    unexpected = sorted(set(kwargs) - set(names))
    if unexpected:
        raise LogicError(routine, status_code.INVALID_VALUE,
                         f"unexpected keyword arguments {unexpected}; a rectangular copy takes {list(names)}")
    missing = [name for name in names[:3] if kwargs.get(name) is None]
    if missing:
        raise LogicError(routine, status_code.INVALID_VALUE, f"a rectangular copy needs {missing}")
    return [kwargs.get(name) for name in names]


def _triple(values, fill: int, name: str, routine: str) -> tuple:
    values = (values,) if isinstance(values, (int, np.integer)) else tuple(values)
    if not 1 <= len(values) <= 3 or any(
            isinstance(v, bool) or not isinstance(v, (int, np.integer)) or v < 0 for v in values):
        raise LogicError(routine, status_code.INVALID_VALUE,
                         f"{name} must be 1 to 3 non-negative ints (x in bytes, y, z), got {values!r}")
    return tuple(int(v) for v in values) + (fill,) * (3 - len(values))


def _pitches(pitches, region: tuple, routine: str, side: str) -> tuple:
    """(row pitch, slice pitch), zeros replaced by the packed values, checked against the region."""
    pitches = () if pitches is None else tuple(pitches)
    if len(pitches) > 2 or any(isinstance(p, bool) or not isinstance(p, (int, np.integer)) or p < 0 for p in pitches):
        raise LogicError(routine, status_code.INVALID_VALUE,
                         f"{side} pitches must be up to 2 non-negative ints (row, slice), got {pitches!r}")
    row, slice_ = (tuple(int(p) for p in pitches) + (0, 0))[:2]
    row = row or region[0]
    slice_ = slice_ or region[1] * row
    if row < region[0]:
        raise LogicError(routine, status_code.INVALID_VALUE,
                         f"{side} row pitch {row} is less than the region's {region[0]} bytes per row")
    if slice_ < region[1] * row or slice_ % row:
        raise LogicError(routine, status_code.INVALID_VALUE,
                         f"{side} slice pitch {slice_} must be a multiple of the row pitch {row} "
                         f"and at least {region[1]} rows")
    return row, slice_


def _box(memory: np.ndarray, origin, pitches, region: tuple, routine: str, side: str) -> np.ndarray:
    """The (z, y, x) uint8 view of one side's box, after checking that all of it lies in `memory`."""
    x, y, z = _triple(origin, 0, f"{side} origin", routine)
    row, slice_ = _pitches(pitches, region, routine, side)
    start = z * slice_ + y * row + x
    end = start + (region[2] - 1) * slice_ + (region[1] - 1) * row + region[0]
    if end > memory.size:
        raise LogicError(routine, status_code.INVALID_VALUE,
                         f"the {side} box reaches byte {end}, past the {memory.size} bytes of its memory")
    return as_strided(memory[start:end], shape=(region[2], region[1], region[0]), strides=(slice_, row, 1),
                      writeable=True)


def _overlap(source: np.ndarray, target: np.ndarray, memory: np.ndarray) -> bool:
    """Whether two boxes in one buffer share a byte: exact (marks the source's bytes, tests the
    target's) over the span the two cover, when their outer byte ranges intersect."""
    base = memory.ctypes.data
    s0, t0 = source.ctypes.data - base, target.ctypes.data - base
    s1, t1 = s0 + _extent(source), t0 + _extent(target)
    if s1 <= t0 or t1 <= s0:
        return False
    low = min(s0, t0)
    touched = np.zeros(max(s1, t1) - low, dtype=bool)
    as_strided(touched[s0 - low:], shape=source.shape, strides=source.strides, writeable=True)[...] = True
    return bool(as_strided(touched[t0 - low:], shape=target.shape, strides=target.strides).any())


def _extent(view: np.ndarray) -> int:
    return sum((n - 1) * s for n, s in zip(view.shape, view.strides)) + 1
