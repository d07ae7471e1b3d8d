"""Data transfers: pyopencl's `enqueue_copy` (host to buffer, buffer to host, buffer to buffer) and
`enqueue_fill_buffer`. Buffers are host memory, so each is one numpy byte copy. Sizes and offsets
are checked at the enqueue call (an error names the byte range and the buffer size), which also
makes the views the copy will assign; the copy itself is the command's work, run when the queue
reaches it (command_queue.py).
"""
from __future__ import annotations

import numpy as np

from loomcl.errors import LogicError, status_code

from .buffer import Buffer, host_bytes
from .command import Copy
from .command_queue import check_queue
from .constants import command_type
from .event import Event
from .image import Image
from .image_transfer import copy_image_command
from .scheduler import HAND_OFF_BYTES
from .transfer_rect import RECT_KEYWORDS, copy_rect

_MEMORY = (Buffer, Image)

def enqueue_copy(queue, dest, src, is_blocking: bool = True, wait_for=None, **kwargs) -> Event:
    """Copy between a Buffer and host memory, or between two Buffers (pyopencl's keywords); with
    `buffer_origin` or `src_origin`, a rectangular copy (transfer_rect.py); to or from an Image, an
    image transfer (image_transfer.py). A copy between memory objects never blocks (as in pyopencl);
    one with host memory blocks unless `is_blocking=False`, and then the host array must stay
    unchanged (a write) or unread (a read) until the event completes."""
    check_queue(queue, "enqueue_copy", dest, src)
    if isinstance(dest, Image) or isinstance(src, Image):
        command, routine, work = copy_image_command(dest, src, kwargs)
    elif any(name in kwargs for name in RECT_KEYWORDS) and (isinstance(dest, Buffer) or isinstance(src, Buffer)):
        command, routine, work = copy_rect(dest, src, kwargs)
    elif isinstance(dest, Buffer) and isinstance(src, Buffer):
        command, routine = command_type.COPY_BUFFER, "clEnqueueCopyBuffer"
        work = _copy_buffer(dest, src, **kwargs)
    elif isinstance(dest, Buffer):
        command, routine = command_type.WRITE_BUFFER, "clEnqueueWriteBuffer"
        work = _write_buffer(dest, src, **kwargs)
    elif isinstance(src, Buffer):
        command, routine = command_type.READ_BUFFER, "clEnqueueReadBuffer"
        work = _read_buffer(dest, src, **kwargs)
    else:
        raise LogicError(
            "enqueue_copy",
            status_code.INVALID_VALUE,
            f"one of dest and src must be a Buffer; got {type(dest).__name__} and {type(src).__name__}",
        )
    blocking = bool(is_blocking) and not (isinstance(dest, _MEMORY) and isinstance(src, _MEMORY))
    return queue.enqueue(command, routine, work, wait_for, blocking, hand_off=work.nbytes >= HAND_OFF_BYTES)


def _offset(kwargs: dict, name: str, routine: str) -> int:
    """Read `name` (or pyopencl's older `device_offset`) and reject keywords that do not apply."""
    offset = kwargs.pop(name, None)
    legacy = kwargs.pop("device_offset", None)
    if offset is None:
        offset = 0 if legacy is None else legacy
    if kwargs:
        raise LogicError(routine, status_code.INVALID_VALUE, f"unexpected keyword arguments {sorted(kwargs)}")
    if isinstance(offset, bool) or not isinstance(offset, (int, np.integer)) or offset < 0:
        raise LogicError(routine, status_code.INVALID_VALUE, f"{name} must be a non-negative int, got {offset!r}")
    return int(offset)


def _check_range(buffer: Buffer, offset: int, count: int, routine: str, what: str) -> np.ndarray:
    memory = buffer.memory(routine)
    if offset + count > buffer.size:
        raise LogicError(
            routine,
            status_code.INVALID_VALUE,
            f"{what}: bytes [{offset}, {offset + count}) exceed the buffer's {buffer.size} bytes",
        )
    return memory[offset : offset + count]


def _write_buffer(dest: Buffer, host, **kwargs):
    routine = "clEnqueueWriteBuffer"
    offset = _offset(kwargs, "dst_offset", routine)
    return write_work(dest, host_bytes(host, routine), offset)


def _read_buffer(host, src: Buffer, **kwargs):
    routine = "clEnqueueReadBuffer"
    offset = _offset(kwargs, "src_offset", routine)
    return read_work(host_bytes(host, routine, writable=True), src, offset)


def write_work(dest: Buffer, data: np.ndarray, offset: int) -> Copy:
    """The work of a write of `data` (flat bytes) into `dest` at `offset`, checked (the C API's
    clEnqueueWriteBuffer calls this directly)."""
    return Copy(_check_range(dest, offset, data.size, "clEnqueueWriteBuffer", "host to buffer copy"), data)


def read_work(data: np.ndarray, src: Buffer, offset: int) -> Copy:
    """The work of a read of `src` from `offset` into `data` (flat writable bytes), checked."""
    return Copy(data, _check_range(src, offset, data.size, "clEnqueueReadBuffer", "buffer to host copy"))


def _copy_buffer(dest: Buffer, src: Buffer, byte_count=None, src_offset: int = 0, dst_offset: int = 0):
    routine = "clEnqueueCopyBuffer"
    for name, value in (("src_offset", src_offset), ("dst_offset", dst_offset)):
        if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 0:
            raise LogicError(routine, status_code.INVALID_VALUE, f"{name} must be a non-negative int, got {value!r}")
    if byte_count is None or byte_count < 0:
        byte_count = min(src.size - src_offset, dest.size - dst_offset)
    source = _check_range(src, src_offset, byte_count, routine, "source")
    target = _check_range(dest, dst_offset, byte_count, routine, "destination")
    if src is dest and abs(src_offset - dst_offset) < byte_count:
        raise LogicError(routine, status_code.MEM_COPY_OVERLAP, "source and destination ranges overlap")
    return Copy(target, source)


def enqueue_fill_buffer(queue, mem: Buffer, pattern, offset: int, size: int, wait_for=None) -> Event:
    """Repeat `pattern` (a numpy scalar or bytes) over bytes [offset, offset + size) of `mem`."""
    routine = "clEnqueueFillBuffer"
    check_queue(queue, routine, mem)
    unit = np.frombuffer(np.ascontiguousarray(pattern).tobytes(), dtype=np.uint8)
    if unit.size == 0 or size % unit.size or offset % unit.size:
        raise LogicError(
            routine,
            status_code.INVALID_VALUE,
            f"offset {offset} and size {size} must be multiples of the {unit.size}-byte pattern",
        )
    target = _check_range(mem, offset, size, routine, "fill")
    return queue.enqueue(command_type.FILL_BUFFER, routine, Copy(target.reshape(-1, unit.size), unit), wait_for,
                         hand_off=size >= HAND_OFF_BYTES)
