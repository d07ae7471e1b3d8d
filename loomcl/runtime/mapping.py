"""Mapping buffers into host memory: pyopencl's `enqueue_map_buffer` and `MemoryMap`.

A loomcl buffer already is host memory, so a map is zero-copy: the returned numpy array views the
buffer's bytes, and what the host writes there is what the next kernel reads (and the reverse). The
array's `.base` is the MemoryMap (as in pyopencl); `release()` unmaps it. The map holds the buffer's
memory alive, so an array outliving its buffer never reads freed memory. A map for READ only gives
a read-only array: writing there is undefined in OpenCL (lost on a discrete GPU), so it is an error
here rather than a silent difference.

Maps and unmaps are commands of their queue like any other: the array is returned at once (as
pyopencl does for a non-blocking map) and holds valid data once the map's event completes, i.e. after
the commands before it in an in-order queue; a blocking map (the default) returns then. The buffer's
map count changes at the enqueue calls.
"""
from __future__ import annotations

import numpy as np

from loomcl.errors import LogicError, status_code

from .buffer import Buffer
from .command_queue import check_queue
from .constants import command_type, map_flags, mem_flags
from .event import check_wait_list

_ROUTINE = "clEnqueueMapBuffer"
_KNOWN = map_flags.READ | map_flags.WRITE | map_flags.WRITE_INVALIDATE_REGION
_WRITES = map_flags.WRITE | map_flags.WRITE_INVALIDATE_REGION


class MemoryMap:
    """A mapped region of a Buffer; numpy arrays built on it see the buffer's bytes."""

    def __init__(self, queue, buffer: Buffer, memory: np.ndarray, shape, dtype: np.dtype, strides,
                 writable: bool) -> None:
        self.queue = queue
        self.buffer = buffer
        self._memory = memory  # keeps the bytes alive while any array views them
        self._mapped = True
        self.__array_interface__ = {
            "shape": shape,
            "typestr": dtype.str,
            "descr": dtype.descr,
            "data": (memory.ctypes.data, not writable),
            "strides": strides,
            "version": 3,
        }

    @property
    def mapped(self) -> bool:
        return self._mapped

    def release(self, queue=None, wait_for=None):
        """Unmap (clEnqueueUnmapMemObject); returns the unmap's Event. A second release is an error."""
        routine = "clEnqueueUnmapMemObject"
        queue = queue or self.queue
        check_queue(queue, routine, self.buffer)
        wait_for = check_wait_list(wait_for, routine)
        if not self._mapped:
            raise LogicError(routine, status_code.INVALID_VALUE, "this MemoryMap was already released")
        self._unmap()
        return queue.enqueue(command_type.UNMAP_MEM_OBJECT, routine, None, wait_for)

    def _unmap(self) -> None:
        self._mapped = False
        self.buffer.map_count -= 1

    def __enter__(self) -> MemoryMap:
        return self

    def __exit__(self, *exc) -> None:
        if self._mapped:
            self.release()

    def __del__(self) -> None:
        if getattr(self, "_mapped", False):
            self._unmap()


def enqueue_map_buffer(queue, buf: Buffer, flags: int, offset: int, shape, dtype, order: str = "C",
                       strides=None, wait_for=None, is_blocking: bool = True):
    """pyopencl's enqueue_map_buffer: `(array, event)`, the array a view of `buf`'s bytes from `offset`."""
    wait_for = check_wait_list(wait_for, _ROUTINE)
    if not isinstance(buf, Buffer):
        raise LogicError(_ROUTINE, status_code.INVALID_MEM_OBJECT, f"{buf!r} is not a Buffer")
    check_queue(queue, _ROUTINE, buf)
    memory = buf.memory(_ROUTINE)
    flags = check_map_flags(buf, flags)
    dtype = np.dtype(dtype)
    shape = (shape,) if isinstance(shape, (int, np.integer)) else tuple(shape)
    if any(isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n < 0 for n in shape):
        raise LogicError(_ROUTINE, status_code.INVALID_VALUE, f"shape must hold non-negative ints, got {shape!r}")
    shape = tuple(int(n) for n in shape)
    strides = array_strides(shape, dtype, order, strides)
    span = array_span(shape, dtype, strides)
    if isinstance(offset, bool) or not isinstance(offset, (int, np.integer)) or offset < 0:
        raise LogicError(_ROUTINE, status_code.INVALID_VALUE, f"offset must be a non-negative int, got {offset!r}")
    offset = int(offset)
    if span == 0:
        raise LogicError(_ROUTINE, status_code.INVALID_VALUE, f"shape {shape} maps no bytes")
    if offset + span > buf.size:
        raise LogicError(_ROUTINE, status_code.INVALID_VALUE,
                         f"bytes [{offset}, {offset + span}) exceed the buffer's {buf.size} bytes")
    mapping = MemoryMap(queue, buf, memory[offset:offset + span], shape, dtype, strides, bool(flags & _WRITES))
    array = np.asarray(mapping)
    buf.map_count += 1  # (undone by the map's __del__ if the blocking wait raises)
    return array, queue.enqueue(command_type.MAP_BUFFER, _ROUTINE, None, wait_for, bool(is_blocking))


def check_map_flags(buf, flags, routine: str = _ROUTINE) -> int:
    """`flags` as an int after checking them and the buffer's (or image's) host access flags."""
    if isinstance(flags, bool) or not isinstance(flags, (int, np.integer)):
        raise LogicError(routine, status_code.INVALID_VALUE, f"flags must be map_flags bits, got {flags!r}")
    flags = int(flags)
    if flags & ~_KNOWN:
        raise LogicError(routine, status_code.INVALID_VALUE, f"unknown map_flags bits {flags & ~_KNOWN:#x}")
    if flags & map_flags.WRITE_INVALIDATE_REGION and flags & (map_flags.READ | map_flags.WRITE):
        raise LogicError(routine, status_code.INVALID_VALUE, "WRITE_INVALIDATE_REGION excludes READ and WRITE")
    if buf.flags & mem_flags.HOST_NO_ACCESS:
        raise LogicError(routine, status_code.INVALID_OPERATION, "the memory object was created with HOST_NO_ACCESS")
    if buf.flags & mem_flags.HOST_WRITE_ONLY and flags & map_flags.READ:
        raise LogicError(routine, status_code.INVALID_OPERATION, "map_flags.READ on a HOST_WRITE_ONLY memory object")
    if buf.flags & mem_flags.HOST_READ_ONLY and flags & _WRITES:
        raise LogicError(routine, status_code.INVALID_OPERATION, "a write map of a HOST_READ_ONLY memory object")
    return flags


def array_strides(shape: tuple, dtype: np.dtype, order: str, strides, routine: str = _ROUTINE) -> tuple:
    """Byte strides: given ones (non-negative, one per axis) or the contiguous ones of `order`."""
    if strides is None:
        if order not in ("C", "F"):
            raise LogicError(routine, status_code.INVALID_VALUE, f"order must be 'C' or 'F', got {order!r}")
        return _contiguous(shape, dtype, order)
    strides = tuple(strides)
    if len(strides) != len(shape) or any(
            isinstance(s, bool) or not isinstance(s, (int, np.integer)) or s < 0 for s in strides):
        raise LogicError(routine, status_code.INVALID_VALUE,
                         f"strides {strides!r} must be {len(shape)} non-negative ints (bytes), one per axis")
    return tuple(int(s) for s in strides)


def _contiguous(shape: tuple, dtype: np.dtype, order: str) -> tuple:
    strides, step = [], dtype.itemsize
    axes = reversed(shape) if order == "C" else shape
    for n in axes:
        strides.append(step)
        step *= n
    return tuple(reversed(strides)) if order == "C" else tuple(strides)


def array_span(shape: tuple, dtype: np.dtype, strides: tuple) -> int:
    """Bytes from the first element to the end of the last (0 for an empty array)."""
    if 0 in shape:
        return 0
    return sum((n - 1) * s for n, s in zip(shape, strides)) + dtype.itemsize
