"""Filling images: pyopencl's `enqueue_fill_image` (clEnqueueFillImage).

The color is four components (r, g, b, a): floats for normalized, half and float formats, signed ints
for SIGNED_INT* formats and unsigned ints for UNSIGNED_INT* formats. It becomes one pixel's bytes by
the rules a kernel's write_image{f,i,ui} follows (OpenCL 1.2 section 8.3): a normalized channel is
`convert_<type>_sat_rte(f * max)` (255, 65535, 127, 32767; 31 or 63 for the packed 5- and 6-bit
fields, 1023 for 10-bit ones), NaN becoming 0; half rounds to nearest even; an integer channel
saturates to its range. The channel order picks and orders the components (BGRA stores b, g, r, a).
"""
from __future__ import annotations

import numpy as np

from loomcl.errors import LogicError, status_code

from .command import Copy
from .command_queue import check_queue
from .constants import command_type
from .event import Event
from .image import Image
from .image_constants import channel_order, channel_type
from .image_format import SIGNED_INTEGER_TYPES, UNSIGNED_INTEGER_TYPES, ImageFormat
from .image_transfer import image_box

_ROUTINE = "clEnqueueFillImage"
R, G, B, A = range(4)
_COMPONENTS = {  # which color components each order stores, in memory order
    channel_order.R: (R,), channel_order.Rx: (R,), channel_order.A: (A,), channel_order.INTENSITY: (R,),
    channel_order.LUMINANCE: (R,), channel_order.RG: (R, G), channel_order.RGx: (R, G),
    channel_order.RA: (R, A), channel_order.RGB: (R, G, B), channel_order.RGBx: (R, G, B),
    channel_order.RGBA: (R, G, B, A), channel_order.BGRA: (B, G, R, A), channel_order.ARGB: (A, R, G, B),
}
_NORMALIZED = {  # channel type: (scale, stored dtype)
    channel_type.UNORM_INT8: (255, np.uint8), channel_type.UNORM_INT16: (65535, np.uint16),
    channel_type.SNORM_INT8: (127, np.int8), channel_type.SNORM_INT16: (32767, np.int16),
}
_INTEGER = {
    channel_type.SIGNED_INT8: np.int8, channel_type.SIGNED_INT16: np.int16, channel_type.SIGNED_INT32: np.int32,
    channel_type.UNSIGNED_INT8: np.uint8, channel_type.UNSIGNED_INT16: np.uint16,
    channel_type.UNSIGNED_INT32: np.uint32,
}
_PACKING = {  # packed type: (field scales, field shifts, word dtype)
    channel_type.UNORM_SHORT_565: ((31, 63, 31), (11, 5, 0), np.uint16),
    channel_type.UNORM_SHORT_555: ((31, 31, 31), (10, 5, 0), np.uint16),
    channel_type.UNORM_INT_101010: ((1023, 1023, 1023), (20, 10, 0), np.uint32),
}


def enqueue_fill_image(queue, mem: Image, color, origin, region, wait_for=None) -> Event:
    """Set every pixel of the region to `color` (four components, see the module docstring)."""
    check_queue(queue, _ROUTINE, mem)
    return queue.enqueue(command_type.FILL_IMAGE, _ROUTINE, fill_image(mem, color, origin, region), wait_for)


def fill_image(image: Image, color, origin, region) -> Copy:
    """The work of the fill, checked."""
    if not isinstance(image, Image):
        raise LogicError(_ROUTINE, status_code.INVALID_MEM_OBJECT, f"{image!r} is not an Image")
    pixel = np.frombuffer(encode_pixel(image.format, color), dtype=np.uint8)
    box, region = image_box(image, origin, region, _ROUTINE)
    return Copy(box, np.tile(pixel, region[0]))  # one row of pixels, copied to every row of the box


def encode_pixel(image_format: ImageFormat, color) -> bytes:
    """The bytes of one pixel of `image_format` holding `color`."""
    data_type = image_format.channel_data_type
    components = fill_color(color, data_type)[list(_COMPONENTS[image_format.channel_order])]
    if data_type in _PACKING:
        scales, shifts, word = _PACKING[data_type]
        fields = [int(_normalized(components[i:i + 1], scale, np.uint16)[0]) << shift
                  for i, (scale, shift) in enumerate(zip(scales, shifts))]
        return np.array(sum(fields), dtype=word).tobytes()
    if data_type in _NORMALIZED:
        return _normalized(components, *_NORMALIZED[data_type]).tobytes()
    if data_type in _INTEGER:
        limits = np.iinfo(_INTEGER[data_type])
        return np.clip(components, limits.min, limits.max).astype(_INTEGER[data_type]).tobytes()
    if data_type == channel_type.HALF_FLOAT:
        return components.astype(np.float16).tobytes()
    return components.astype(np.float32).tobytes()


def fill_color(color, data_type: int) -> np.ndarray:
    """The four components of `color`: float32 for float-valued formats, int64 holding an int4 or a
    uint4 for integer formats; from a sequence, a numpy array, a cltypes vector (float4, int4, uint4),
    or the 16 raw bytes of the vector the format takes (bytes, bytearray, memoryview: the C API's)."""
    if isinstance(color, (bytes, bytearray, memoryview)):
        color = np.frombuffer(color, dtype=_raw_color_dtype(data_type))
    values = np.asarray(color)
    if values.dtype.fields:  # a cltypes vector: its lanes
        values = np.frombuffer(values.tobytes(), dtype=values.dtype.fields["s0"][0])
    values = values.reshape(-1)
    if values.size != 4:
        raise LogicError(_ROUTINE, status_code.INVALID_VALUE,
                         f"color must hold 4 values (r, g, b, a), got {values.size}")
    integer = data_type in SIGNED_INTEGER_TYPES or data_type in UNSIGNED_INTEGER_TYPES
    if not integer:
        return values.astype(np.float32)
    name = "int4" if data_type in SIGNED_INTEGER_TYPES else "uint4"
    low, high = (-(1 << 31), (1 << 31) - 1) if name == "int4" else (0, (1 << 32) - 1)
    if values.dtype.kind not in "iub" or values.min() < low or values.max() > high:
        raise LogicError(_ROUTINE, status_code.INVALID_VALUE,
                         f"color for a {channel_type.to_string(data_type)} image must be 4 integers of a {name}, "
                         f"got {values.tolist()}")
    return values.astype(np.int64)


def _raw_color_dtype(data_type: int) -> np.dtype:
    if data_type in SIGNED_INTEGER_TYPES:
        return np.dtype(np.int32)
    return np.dtype(np.uint32 if data_type in UNSIGNED_INTEGER_TYPES else np.float32)


def _normalized(values: np.ndarray, scale: int, dtype) -> np.ndarray:
    """convert_<dtype>_sat_rte(value * scale), computed in float as a kernel does; NaN gives 0."""
    scaled = np.nan_to_num(values.astype(np.float32) * np.float32(scale), nan=0.0)
    limits = np.iinfo(dtype)
    return np.clip(np.rint(scaled), max(limits.min, -scale - 1), min(limits.max, scale)).astype(dtype)

