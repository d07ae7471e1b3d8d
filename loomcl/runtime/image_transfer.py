"""Image transfers (clEnqueue{Read,Write,Copy}Image, CopyImageToBuffer, CopyBufferToImage), reached
through pyopencl's `enqueue_copy` keywords: `origin, region[, pitches]` between an Image and host
memory, `src_origin, dest_origin, region` between Images, `origin, region, offset` between an Image and
a Buffer.

Origins and regions are in pixels, in the API's axes (x, y, z), padded with 0 and 1; for a 1D image
array y is the layer. Each side becomes a strided uint8 view of shape (region z, region y, region x *
element size) after its whole extent is checked, so one numpy assignment copies the box: an image's
axes step by its pitches, host memory's by the given pitches (0: packed), a buffer's are packed.
`read_image` and the other plain functions check one copy and return its work (command.Copy, run
when the queue reaches the command); `copy_image_command` maps enqueue_copy's keywords onto them.
"""
from __future__ import annotations

import numpy as np

from loomcl.errors import LogicError, RuntimeError, status_code

from .buffer import Buffer, host_bytes
from .command import Copy
from .constants import command_type, mem_flags, mem_object_type
from .image import Image


def read_image(image: Image, host, origin, region, row_pitch: int = 0, slice_pitch: int = 0) -> Copy:
    routine = "clEnqueueReadImage"
    source, region = image_box(image, origin, region, routine)
    _check_host_access(image, mem_flags.HOST_WRITE_ONLY, routine)
    return Copy(_host_box(host_bytes(host, routine, writable=True), image, region, row_pitch, slice_pitch, routine),
                source)


def write_image(image: Image, host, origin, region, row_pitch: int = 0, slice_pitch: int = 0) -> Copy:
    routine = "clEnqueueWriteImage"
    target, region = image_box(image, origin, region, routine)
    _check_host_access(image, mem_flags.HOST_READ_ONLY, routine)
    return Copy(target, _host_box(host_bytes(host, routine), image, region, row_pitch, slice_pitch, routine))


def copy_image(src: Image, dest: Image, src_origin, dest_origin, region) -> Copy:
    routine = "clEnqueueCopyImage"
    if src.format != dest.format:
        raise RuntimeError(routine, status_code.IMAGE_FORMAT_MISMATCH,
                           f"the source's format {src.format!r} differs from the destination's {dest.format!r}")
    source, region = image_box(src, src_origin, region, routine, "source")
    target, _ = image_box(dest, dest_origin, region, routine, "destination")
    if src is dest and _boxes_overlap(_triple(src_origin, 0), _triple(dest_origin, 0), region):
        raise LogicError(routine, status_code.MEM_COPY_OVERLAP, "the source and destination regions overlap")
    return Copy(target, source)


def copy_image_to_buffer(src: Image, dest: Buffer, origin, region, offset: int) -> Copy:
    routine = "clEnqueueCopyImageToBuffer"
    source, region = image_box(src, origin, region, routine)
    target = _buffer_box(dest, offset, src, region, routine)
    _check_shared_memory(src, dest, source, target, routine)
    return Copy(target, source)


def copy_buffer_to_image(src: Buffer, dest: Image, offset: int, origin, region) -> Copy:
    routine = "clEnqueueCopyBufferToImage"
    target, region = image_box(dest, origin, region, routine)
    source = _buffer_box(src, offset, dest, region, routine)
    _check_shared_memory(dest, src, source, target, routine)
    return Copy(target, source)


def copy_image_command(dest, src, kwargs: dict) -> tuple:
    """Check the image transfer enqueue_copy's arguments name; return (command type, routine, work)."""
    if isinstance(dest, Image) and isinstance(src, Image):
        if "dest_origin" not in kwargs and "dst_origin" in kwargs:
            kwargs["dest_origin"] = kwargs.pop("dst_origin")
        routine = "clEnqueueCopyImage"
        work = copy_image(src, dest, *_keywords(kwargs, ("src_origin", "dest_origin", "region"), routine))
        return command_type.COPY_IMAGE, routine, work
    if isinstance(dest, Image) and isinstance(src, Buffer):
        routine = "clEnqueueCopyBufferToImage"
        origin, region, offset = _keywords(kwargs, ("origin", "region", "offset"), routine)
        return command_type.COPY_BUFFER_TO_IMAGE, routine, copy_buffer_to_image(src, dest, offset, origin, region)
    if isinstance(dest, Buffer):
        routine = "clEnqueueCopyImageToBuffer"
        work = copy_image_to_buffer(src, dest, *_keywords(kwargs, ("origin", "region", "offset"), routine))
        return command_type.COPY_IMAGE_TO_BUFFER, routine, work
    writing = isinstance(dest, Image)
    routine = "clEnqueueWriteImage" if writing else "clEnqueueReadImage"
    pitches = kwargs.pop("pitches", None)
    if pitches is not None:
        if "row_pitch" in kwargs or "slice_pitch" in kwargs:
            raise LogicError(routine, status_code.INVALID_VALUE, "give pitches or row_pitch/slice_pitch, not both")
        kwargs["row_pitch"], kwargs["slice_pitch"] = (tuple(pitches) + (0, 0))[:2]
    origin, region, row_pitch, slice_pitch = _keywords(
        kwargs, ("origin", "region", "row_pitch", "slice_pitch"), routine, required=2)
    if writing:
        return command_type.WRITE_IMAGE, routine, write_image(dest, src, origin, region, row_pitch or 0, slice_pitch or 0)
    return command_type.READ_IMAGE, routine, read_image(src, dest, origin, region, row_pitch or 0, slice_pitch or 0)


def _check_host_access(image: Image, excluding: int, routine: str) -> None:
    """INVALID_OPERATION if the image's flags forbid this direction of host access."""
    refused = image.flags & (excluding | mem_flags.HOST_NO_ACCESS)
    if refused:
        raise LogicError(routine, status_code.INVALID_OPERATION,
                         f"the image was created with {mem_flags.to_string(refused)}")


def _keywords(kwargs: dict, names: tuple, routine: str, required: int = 3) -> list:
    unexpected = sorted(set(kwargs) - set(names))
    if unexpected:
        raise LogicError(routine, status_code.INVALID_VALUE,
                         f"unexpected keyword arguments {unexpected}; this copy takes {list(names)}")
    missing = [name for name in names[:required] if kwargs.get(name) is None]
    if missing:
        raise LogicError(routine, status_code.INVALID_VALUE, f"this copy needs {missing}")
    return [kwargs.get(name) for name in names]


def _triple(values, fill: int) -> tuple:
    values = (values,) if isinstance(values, (int, np.integer)) else tuple(values)
    return tuple(values) + (fill,) * (3 - len(values))


def _checked_triple(values, fill: int, name: str, routine: str) -> tuple:
    try:
        triple = _triple(values, fill)
    except TypeError:
        triple = (values,)
    if len(triple) != 3 or any(isinstance(v, bool) or not isinstance(v, (int, np.integer)) or v < 0 for v in triple):
        raise LogicError(routine, status_code.INVALID_VALUE,
                         f"{name} must be 1 to 3 non-negative ints (pixels: x, y, z), got {values!r}")
    return tuple(int(v) for v in triple)


def image_box(image: Image, origin, region, routine: str, side: str = "image") -> tuple:
    """(the (z, y, x bytes) view of `image`'s box, the padded region) after checking the box lies in
    the image (INVALID_VALUE naming the axis otherwise)."""
    if not isinstance(image, Image):
        raise LogicError(routine, status_code.INVALID_MEM_OBJECT, f"the {side} {image!r} is not an Image")
    memory = image.memory(routine)
    origin = _checked_triple(origin, 0, f"{side} origin", routine)
    region = _checked_triple(region, 1, "region", routine)
    if 0 in region:
        raise LogicError(routine, status_code.INVALID_VALUE, f"region {region} has an empty dimension")
    extents = image.layout.shape + (1,) * (3 - len(image.layout.shape))
    for axis, (start, count, extent) in enumerate(zip(origin, region, extents)):
        if start + count > extent:
            raise LogicError(routine, status_code.INVALID_VALUE,
                             f"{side} origin {origin} + region {region} leaves the image along {'xyz'[axis]}: "
                             f"{start} + {count} > {extent} (the image's shape is {image.layout.shape})")
    y_step, z_step = _image_steps(image)
    element = image.layout.element_size
    start = origin[0] * element + origin[1] * y_step + origin[2] * z_step
    return _view(memory, start, region, element, y_step, z_step), region


def _image_steps(image: Image) -> tuple:
    """Bytes between neighbours along the API's y and z (y steps layers in a 1D image array)."""
    lay = image.layout
    y_step = lay.plane_pitch if lay.image_type == mem_object_type.IMAGE1D_ARRAY else lay.row_pitch
    return y_step, lay.plane_pitch


def _host_box(memory: np.ndarray, image: Image, region: tuple, row_pitch, slice_pitch, routine: str) -> np.ndarray:
    """The view of packed or pitched host memory holding `region` of `image`'s pixels. For a 1D image
    array the layers (region y) step by the slice pitch, which defaults to the row pitch."""
    for name, value in (("row_pitch", row_pitch), ("slice_pitch", slice_pitch)):
        if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 0:
            raise LogicError(routine, status_code.INVALID_VALUE, f"{name} must be a non-negative int, got {value!r}")
    lay = image.layout
    row_bytes = region[0] * lay.element_size
    row_pitch = int(row_pitch) or row_bytes
    if row_pitch < row_bytes:
        raise LogicError(routine, status_code.INVALID_VALUE,
                         f"row_pitch {row_pitch} is less than the region's {row_bytes} bytes per row")
    one_d_array = lay.image_type == mem_object_type.IMAGE1D_ARRAY
    rows = 1 if one_d_array else region[1]
    if slice_pitch and image.type not in _WITH_PLANES and slice_pitch < row_pitch * rows:
        # the spec asks for 0 here, but pyopencl passes the plane's size (unused: one plane); PoCL takes it
        raise LogicError(routine, status_code.INVALID_VALUE,
                         f"slice_pitch must be 0 for a {mem_object_type.to_string(image.type)} image, "
                         f"got {slice_pitch}")
    slice_pitch = int(slice_pitch) or row_pitch * rows
    if slice_pitch < row_pitch * rows:
        raise LogicError(routine, status_code.INVALID_VALUE,
                         f"slice_pitch {slice_pitch} is less than {rows} rows of {row_pitch} bytes")
    y_step, z_step = (slice_pitch, slice_pitch) if one_d_array else (row_pitch, slice_pitch)
    return _checked_view(memory, 0, region, lay.element_size, y_step, z_step, routine,
                         f"the host array (pitches {row_pitch}, {slice_pitch})")


_WITH_PLANES = (mem_object_type.IMAGE1D_ARRAY, mem_object_type.IMAGE2D_ARRAY, mem_object_type.IMAGE3D)


def _buffer_box(buffer: Buffer, offset, image: Image, region: tuple, routine: str) -> np.ndarray:
    """The packed view of `region`'s pixels in `buffer` from byte `offset`."""
    if not isinstance(buffer, Buffer):
        raise LogicError(routine, status_code.INVALID_MEM_OBJECT, f"{buffer!r} is not a Buffer")
    if isinstance(offset, bool) or not isinstance(offset, (int, np.integer)) or offset < 0:
        raise LogicError(routine, status_code.INVALID_VALUE, f"offset must be a non-negative int, got {offset!r}")
    element = image.layout.element_size
    y_step = region[0] * element
    return _checked_view(buffer.memory(routine), int(offset), region, element, y_step, y_step * region[1], routine,
                         f"the buffer from offset {offset}")


def _checked_view(memory: np.ndarray, start: int, region: tuple, element: int, y_step: int, z_step: int,
                  routine: str, what: str) -> np.ndarray:
    end = start + (region[2] - 1) * z_step + (region[1] - 1) * y_step + region[0] * element
    if end > memory.size:
        raise LogicError(routine, status_code.INVALID_VALUE,
                         f"{what} has {memory.size} bytes; region {region} needs {end}")
    return _view(memory, start, region, element, y_step, z_step)


def _view(memory: np.ndarray, start: int, region: tuple, element: int, y_step: int, z_step: int) -> np.ndarray:
    """The (z, y, x bytes) view of a box whose extent the caller checked (writable if `memory` is)."""
    return np.ndarray((region[2], region[1], region[0] * element), np.uint8, memory, start, (z_step, y_step, 1))


def _boxes_overlap(a: tuple, b: tuple, region: tuple) -> bool:
    return all(abs(p - q) < n for p, q, n in zip(a, b, region))


def _check_shared_memory(image: Image, buffer: Buffer, source: np.ndarray, target: np.ndarray,
                         routine: str) -> None:
    """A 1D buffer image and its buffer (or a sub-buffer of it): their byte ranges, each one contiguous
    run (so the bounds test is exact), must not meet (MEM_COPY_OVERLAP)."""
    if image.buffer is not None and np.may_share_memory(source, target):
        raise LogicError(routine, status_code.MEM_COPY_OVERLAP,
                         "the image is made of the buffer and the two regions overlap")
