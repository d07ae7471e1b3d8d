"""Mapping images into host memory: pyopencl's `enqueue_map_image` (clEnqueueMapImage).

As with buffers (mapping.py) the map is zero-copy: the array views the image's own pixels from the
region's first one, and the returned row and slice pitches are the image's, so an array that follows
them (strides=(row_pitch, element_size, 1) for the bytes of a 2D region, say) sees exactly the region.
The array may reach no byte past the region's last pixel. Unmapping is `array.base.release()`.
"""
from __future__ import annotations

import numpy as np

from loomcl.errors import LogicError, status_code

from .command_queue import check_queue
from .constants import command_type, map_flags
from .event import check_wait_list
from .image import Image
from .image_transfer import image_box
from .mapping import MemoryMap, array_span, array_strides, check_map_flags

_ROUTINE = "clEnqueueMapImage"


def enqueue_map_image(queue, img: Image, flags: int, origin, region, shape, dtype, order: str = "C",
                      strides=None, wait_for=None, is_blocking: bool = True):
    """`(array, event, row_pitch, slice_pitch)`, as pyopencl returns them: the array is `shape` of
    `dtype` (with `order` or byte `strides`) over the image's memory from pixel `origin`."""
    wait_for = check_wait_list(wait_for, _ROUTINE)
    if not isinstance(img, Image):
        raise LogicError(_ROUTINE, status_code.INVALID_MEM_OBJECT, f"{img!r} is not an Image")
    check_queue(queue, _ROUTINE, img)
    memory = img.memory(_ROUTINE)
    flags = check_map_flags(img, flags, _ROUTINE)
    box, region = image_box(img, origin, region, _ROUTINE)
    start = box.ctypes.data - memory.ctypes.data
    end = start + sum((n - 1) * step for n, step in zip(box.shape, box.strides)) + 1
    dtype = np.dtype(dtype)
    shape = (shape,) if isinstance(shape, (int, np.integer)) else tuple(shape)
    if any(isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n < 0 for n in shape):
        raise LogicError(_ROUTINE, status_code.INVALID_VALUE, f"shape must hold non-negative ints, got {shape!r}")
    shape = tuple(int(n) for n in shape)
    strides = array_strides(shape, dtype, order, strides, _ROUTINE)
    span = array_span(shape, dtype, strides)
    if span == 0:
        raise LogicError(_ROUTINE, status_code.INVALID_VALUE, f"shape {shape} maps no bytes")
    if start + span > end:
        raise LogicError(_ROUTINE, status_code.INVALID_VALUE,
                         f"shape {shape} of {dtype} with strides {strides} spans {span} bytes; region {region} "
                         f"from origin {tuple(origin)} covers {end - start} (row pitch {img.row_pitch})")
    writable = bool(flags & (map_flags.WRITE | map_flags.WRITE_INVALIDATE_REGION))
    mapping = MemoryMap(queue, img, memory[start:start + span], shape, dtype, strides, writable)
    array = np.asarray(mapping)
    img.map_count += 1  # (undone by the map's __del__ if the blocking wait raises)
    event = queue.enqueue(command_type.MAP_IMAGE, _ROUTINE, None, wait_for, bool(is_blocking))
    return array, event, img.row_pitch, img.slice_pitch
