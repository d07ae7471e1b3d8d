"""Enqueued transfers on buffers: read, write, copy (also rectangular), fill, map and unmap."""
from __future__ import annotations


from loomcl.errors import LogicError, status_code
from loomcl.runtime.buffer import Buffer, check_host_access
from loomcl.runtime.constants import command_type
from loomcl.runtime.mapping import enqueue_map_buffer
from loomcl.runtime.scheduler import HAND_OFF_BYTES
from loomcl.runtime.transfer import enqueue_copy, enqueue_fill_buffer, read_work, write_work

from .api_event import hand_out, queue_of, wait_list
from .handles import registry
from .host_memory import host_array, size_triple


def _buffer(handle, routine: str):
    return registry.get(handle, "mem", routine)


def _host_copy(routine, queue, buffer, blocking, offset, size, ptr, num_events, events, out, reading: bool):
    """A read or write between a buffer and the caller's memory: its work made here, without
    enqueue_copy's dispatch on argument types (pyopencl.array reads and writes on every get and
    to_device)."""
    q, memory = queue_of(queue, routine), _buffer(buffer, routine)
    if type(memory) is not Buffer and not isinstance(memory, Buffer):
        raise LogicError(routine, status_code.INVALID_MEM_OBJECT, f"{memory!r} is not a buffer")
    if memory.context is not q.context:
        raise LogicError(routine, status_code.INVALID_CONTEXT, "the buffer and the queue belong to different contexts")
    check_host_access(memory, reading, routine)
    host = host_array(ptr, size, routine)
    if reading:
        command, work = command_type.READ_BUFFER, read_work(host, memory, offset)
    else:
        command, work = command_type.WRITE_BUFFER, write_work(memory, host, offset)
    # a blocking copy is run by the caller, who waits for it anyway (handing it to the queue's
    # executor would add a thread's wake-up and the GIL's ping-pong to a memcpy)
    hand_off = not blocking and size >= HAND_OFF_BYTES
    hand_out(q.enqueue(command, routine, work, wait_list(num_events, events, routine, q), bool(blocking), hand_off),
             out)


def clEnqueueReadBuffer(queue, buffer, blocking, offset, size, ptr, num_events, events, out):
    _host_copy("clEnqueueReadBuffer", queue, buffer, blocking, offset, size, ptr, num_events, events, out, reading=True)


def clEnqueueWriteBuffer(queue, buffer, blocking, offset, size, ptr, num_events, events, out):
    _host_copy("clEnqueueWriteBuffer", queue, buffer, blocking, offset, size, ptr, num_events, events, out,
               reading=False)


def clEnqueueCopyBuffer(queue, src, dst, src_offset, dst_offset, size, num_events, events, out):
    routine = "clEnqueueCopyBuffer"
    q = queue_of(queue, routine)
    source, target = _buffer(src, routine), _buffer(dst, routine)
    if size == 0:
        raise LogicError(routine, status_code.INVALID_VALUE, "size is 0")
    hand_out(enqueue_copy(q, target, source, byte_count=size, src_offset=src_offset, dst_offset=dst_offset,
                          wait_for=wait_list(num_events, events, routine, q)), out)


def _rect_host(ptr, origin, region, row_pitch, slice_pitch, routine: str):
    """The caller's memory spanned by a host box (its pitches defaulted as the spec says)."""
    row_pitch = row_pitch or region[0]
    slice_pitch = slice_pitch or row_pitch * region[1]
    span = (origin[2] + region[2] - 1) * slice_pitch + (origin[1] + region[1] - 1) * row_pitch + origin[0] + region[0]
    return host_array(ptr, span, routine), (row_pitch, slice_pitch)


def _rect(routine, queue, buffer, blocking, buffer_origin, host_origin, region, buffer_row_pitch,
          buffer_slice_pitch, host_row_pitch, host_slice_pitch, ptr, num_events, events, out, reading):
    q, memory = queue_of(queue, routine), _buffer(buffer, routine)
    check_host_access(memory, reading, routine)
    region = size_triple(region, routine, "region")
    host_origin = size_triple(host_origin, routine, "host_origin")
    host, host_pitches = _rect_host(ptr, host_origin, region, host_row_pitch, host_slice_pitch, routine)
    keywords = dict(buffer_origin=size_triple(buffer_origin, routine, "buffer_origin"), host_origin=host_origin,
                    region=region, buffer_pitches=(buffer_row_pitch, buffer_slice_pitch), host_pitches=host_pitches)
    dest, src = (host, memory) if reading else (memory, host)
    hand_out(enqueue_copy(q, dest, src, is_blocking=bool(blocking),
                          wait_for=wait_list(num_events, events, routine, q), **keywords), out)


def clEnqueueReadBufferRect(queue, buffer, blocking, buffer_origin, host_origin, region, buffer_row_pitch,
                            buffer_slice_pitch, host_row_pitch, host_slice_pitch, ptr, num_events, events, out):
    _rect("clEnqueueReadBufferRect", queue, buffer, blocking, buffer_origin, host_origin, region, buffer_row_pitch,
          buffer_slice_pitch, host_row_pitch, host_slice_pitch, ptr, num_events, events, out, reading=True)


def clEnqueueWriteBufferRect(queue, buffer, blocking, buffer_origin, host_origin, region, buffer_row_pitch,
                             buffer_slice_pitch, host_row_pitch, host_slice_pitch, ptr, num_events, events, out):
    _rect("clEnqueueWriteBufferRect", queue, buffer, blocking, buffer_origin, host_origin, region, buffer_row_pitch,
          buffer_slice_pitch, host_row_pitch, host_slice_pitch, ptr, num_events, events, out, reading=False)


def clEnqueueCopyBufferRect(queue, src, dst, src_origin, dst_origin, region, src_row_pitch, src_slice_pitch,
                            dst_row_pitch, dst_slice_pitch, num_events, events, out):
    routine = "clEnqueueCopyBufferRect"
    q = queue_of(queue, routine)
    hand_out(enqueue_copy(q, _buffer(dst, routine), _buffer(src, routine),
                          src_origin=size_triple(src_origin, routine, "src_origin"),
                          dst_origin=size_triple(dst_origin, routine, "dst_origin"),
                          region=size_triple(region, routine, "region"),
                          src_pitches=(src_row_pitch, src_slice_pitch), dst_pitches=(dst_row_pitch, dst_slice_pitch),
                          wait_for=wait_list(num_events, events, routine, q)), out)


def clEnqueueFillBuffer(queue, buffer, pattern, pattern_size, offset, size, num_events, events, out):
    routine = "clEnqueueFillBuffer"
    if pattern_size not in (1, 2, 4, 8, 16, 32, 64, 128):
        raise LogicError(routine, status_code.INVALID_VALUE, f"pattern_size {pattern_size} is not a power of two up to 128")
    unit = bytes(host_array(pattern, pattern_size, routine, "pattern"))
    q = queue_of(queue, routine)
    hand_out(enqueue_fill_buffer(q, _buffer(buffer, routine), unit, offset, size,
                                 wait_for=wait_list(num_events, events, routine, q)), out)


_mapped: dict[int, list] = {}  # mapped address -> the MemoryMap arrays handed out there (a stack)


def clEnqueueMapBuffer(queue, buffer, blocking, flags, offset, size, num_events, events, out):
    routine = "clEnqueueMapBuffer"
    q, memory = queue_of(queue, routine), _buffer(buffer, routine)
    if size == 0:
        raise LogicError(routine, status_code.INVALID_VALUE, "size is 0")
    array, event = enqueue_map_buffer(q, memory, flags, offset, (size,), "uint8", is_blocking=bool(blocking),
                                      wait_for=wait_list(num_events, events, routine, q))
    hand_out(event, out)
    return remember_mapping(array)


def remember_mapping(array) -> int:
    """The address a map hands out, remembered so that clEnqueueUnmapMemObject finds its mapping."""
    address = array.__array_interface__["data"][0]
    _mapped.setdefault(address, []).append(array)
    return address


def clEnqueueUnmapMemObject(queue, memobj, mapped_ptr, num_events, events, out):
    routine = "clEnqueueUnmapMemObject"
    q, memory = queue_of(queue, routine), registry.get(memobj, "mem", routine)
    arrays = _mapped.get(mapped_ptr or 0)
    mapping = arrays[-1].base if arrays else None
    if mapping is None or getattr(mapping, "buffer", getattr(mapping, "image", None)) is not memory:
        raise LogicError(routine, status_code.INVALID_VALUE, "mapped_ptr is not a live mapping of this memory object")
    arrays.pop()
    if not arrays:
        del _mapped[mapped_ptr]
    hand_out(mapping.release(q, wait_for=wait_list(num_events, events, routine, q)), out)


