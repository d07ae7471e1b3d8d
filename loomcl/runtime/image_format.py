"""Image formats: pyopencl's `ImageFormat`, which (order, type) pairs OpenCL allows, which of them loomcl
supports, and `get_supported_image_formats`.

A pixel is `channel_count` channels of `dtype_size` bytes, except the packed types (UNORM_SHORT_565,
UNORM_SHORT_555, UNORM_INT_101010), where the whole pixel is one 16- or 32-bit word. Channel counts
are the stored ones, as the conformance suite counts them: `Rx`, `RGx`, `RGBx` store 1, 2, 3 channels
(the x is the alpha a read reports, not memory). Which orders take which types follows the OpenCL 1.2
specification, section 5.3.1.1: RGB and RGBx only packed types, BGRA and ARGB only 8-bit types,
INTENSITY and LUMINANCE only normalized and float types; the rest every unpacked type.
"""
from __future__ import annotations

import numpy as np

from loomcl.errors import LogicError, RuntimeError, status_code

from .buffer import check_mem_flags
from .constants import mem_flags, mem_object_type
from .context import Context
from .image_constants import channel_order, channel_type

_CHANNELS = {
    channel_order.R: 1, channel_order.A: 1, channel_order.INTENSITY: 1, channel_order.LUMINANCE: 1,
    channel_order.Rx: 1, channel_order.DEPTH: 1,
    channel_order.RG: 2, channel_order.RA: 2, channel_order.RGx: 2,
    channel_order.RGB: 3, channel_order.RGBx: 3, channel_order.sRGB: 3, channel_order.sRGBx: 3,
    channel_order.RGBA: 4, channel_order.BGRA: 4, channel_order.ARGB: 4, channel_order.sRGBA: 4,
    channel_order.sBGRA: 4, channel_order.ABGR: 4,
}
_TYPE_SIZE = {
    channel_type.SNORM_INT8: 1, channel_type.UNORM_INT8: 1, channel_type.SIGNED_INT8: 1,
    channel_type.UNSIGNED_INT8: 1,
    channel_type.SNORM_INT16: 2, channel_type.UNORM_INT16: 2, channel_type.SIGNED_INT16: 2,
    channel_type.UNSIGNED_INT16: 2, channel_type.HALF_FLOAT: 2,
    channel_type.SIGNED_INT32: 4, channel_type.UNSIGNED_INT32: 4, channel_type.FLOAT: 4,
    channel_type.UNORM_SHORT_565: 2, channel_type.UNORM_SHORT_555: 2, channel_type.UNORM_INT_101010: 4,
    channel_type.UNORM_INT_101010_2: 4,
}
PACKED_TYPES = frozenset({channel_type.UNORM_SHORT_565, channel_type.UNORM_SHORT_555,
                          channel_type.UNORM_INT_101010, channel_type.UNORM_INT_101010_2})
SIGNED_INTEGER_TYPES = frozenset({channel_type.SIGNED_INT8, channel_type.SIGNED_INT16, channel_type.SIGNED_INT32})
UNSIGNED_INTEGER_TYPES = frozenset({channel_type.UNSIGNED_INT8, channel_type.UNSIGNED_INT16,
                                    channel_type.UNSIGNED_INT32})
_UNPACKED = tuple(t for t in _TYPE_SIZE if t not in PACKED_TYPES)
_EIGHT_BIT = (channel_type.UNORM_INT8, channel_type.SNORM_INT8, channel_type.SIGNED_INT8,
              channel_type.UNSIGNED_INT8)
_NORMALIZED_AND_FLOAT = (channel_type.UNORM_INT8, channel_type.UNORM_INT16, channel_type.SNORM_INT8,
                         channel_type.SNORM_INT16, channel_type.HALF_FLOAT, channel_type.FLOAT)
_THREE_PACKED = (channel_type.UNORM_SHORT_565, channel_type.UNORM_SHORT_555, channel_type.UNORM_INT_101010)
_ALLOWED_TYPES = {  # orders the specification restricts; every other order takes every unpacked type
    channel_order.RGB: _THREE_PACKED, channel_order.RGBx: _THREE_PACKED,
    channel_order.BGRA: _EIGHT_BIT, channel_order.ARGB: _EIGHT_BIT,
    channel_order.INTENSITY: _NORMALIZED_AND_FLOAT, channel_order.LUMINANCE: _NORMALIZED_AND_FLOAT,
    channel_order.RGBA: _UNPACKED + (channel_type.UNORM_INT_101010_2,),
}
# The OpenCL 1.2 orders and types; sRGB*, ABGR, DEPTH and UNORM_INT_101010_2 are not supported.
SUPPORTED_ORDERS = (
    channel_order.R, channel_order.A, channel_order.RG, channel_order.RA, channel_order.RGB, channel_order.RGBA,
    channel_order.BGRA, channel_order.ARGB, channel_order.INTENSITY, channel_order.LUMINANCE, channel_order.Rx,
    channel_order.RGx, channel_order.RGBx,
)
_UNSUPPORTED_TYPES = (channel_type.UNORM_INT_101010_2,)
_HOST_POINTER_FLAGS = mem_flags.USE_HOST_PTR | mem_flags.COPY_HOST_PTR
IMAGE_TYPES = (mem_object_type.IMAGE1D, mem_object_type.IMAGE1D_BUFFER, mem_object_type.IMAGE1D_ARRAY,
               mem_object_type.IMAGE2D, mem_object_type.IMAGE2D_ARRAY, mem_object_type.IMAGE3D)


class ImageFormat:
    """pyopencl's ImageFormat(channel_order, channel_type). Unlike pyopencl, `itemsize` of a packed
    format is the size of its pixel (2 for UNORM_SHORT_565), not channel_count * dtype_size."""

    __slots__ = ("channel_order", "channel_data_type")

    def __init__(self, channel_order: int, channel_type: int) -> None:  # noqa: F811 - pyopencl's names
        self.channel_order = int(channel_order)
        self.channel_data_type = int(channel_type)

    @property
    def channel_count(self) -> int:
        try:
            return _CHANNELS[self.channel_order]
        except KeyError:
            raise LogicError("ImageFormat.channel_count", status_code.INVALID_VALUE,
                             f"unrecognized channel order {self.channel_order:#x}") from None

    @property
    def dtype_size(self) -> int:
        try:
            return _TYPE_SIZE[self.channel_data_type]
        except KeyError:
            raise LogicError("ImageFormat.dtype_size", status_code.INVALID_VALUE,
                             f"unrecognized channel data type {self.channel_data_type:#x}") from None

    @property
    def itemsize(self) -> int:
        if self.channel_data_type in PACKED_TYPES:
            return self.dtype_size
        return self.channel_count * self.dtype_size

    def __eq__(self, other) -> bool:
        return (isinstance(other, ImageFormat) and self.channel_order == other.channel_order
                and self.channel_data_type == other.channel_data_type)

    def __hash__(self) -> int:
        return hash((ImageFormat, self.channel_order, self.channel_data_type))

    def __repr__(self) -> str:
        order = channel_order.to_string(self.channel_order, "<unknown channel order %#x>")
        data_type = channel_type.to_string(self.channel_data_type, "<unknown channel data type %#x>")
        return f"ImageFormat({order}, {data_type})"


def is_valid(order: int, data_type: int) -> bool:
    """Whether OpenCL defines the pair at all (supported here or not)."""
    if order not in _CHANNELS or data_type not in _TYPE_SIZE:
        return False
    return data_type in _ALLOWED_TYPES.get(order, _UNPACKED)


def is_supported(order: int, data_type: int) -> bool:
    return order in SUPPORTED_ORDERS and data_type not in _UNSUPPORTED_TYPES and is_valid(order, data_type)


SUPPORTED_FORMATS = tuple(ImageFormat(order, data_type) for order in SUPPORTED_ORDERS
                          for data_type in _TYPE_SIZE if is_supported(order, data_type))


def check_format(image_format, routine: str) -> ImageFormat:
    """`image_format` if loomcl can make images of it; else INVALID_IMAGE_FORMAT_DESCRIPTOR (no such
    format in OpenCL) or IMAGE_FORMAT_NOT_SUPPORTED (a format loomcl does not implement)."""
    if not isinstance(image_format, ImageFormat):
        raise LogicError(routine, status_code.INVALID_IMAGE_FORMAT_DESCRIPTOR,
                         f"format must be an ImageFormat, got {image_format!r}")
    order, data_type = image_format.channel_order, image_format.channel_data_type
    if not is_valid(order, data_type):
        raise LogicError(routine, status_code.INVALID_IMAGE_FORMAT_DESCRIPTOR,
                         f"format {image_format!r} is not an OpenCL image format{_allowed_hint(order)}")
    if not is_supported(order, data_type):
        raise RuntimeError(routine, status_code.IMAGE_FORMAT_NOT_SUPPORTED,
                           f"format {image_format!r} is not supported (see get_supported_image_formats)")
    return image_format


def _allowed_hint(order: int) -> str:
    allowed = _ALLOWED_TYPES.get(order)
    if allowed is None or order not in SUPPORTED_ORDERS:
        return ""
    names = ", ".join(channel_type.to_string(t) for t in allowed if t not in _UNSUPPORTED_TYPES)
    return f"; channel order {channel_order.to_string(order)} takes {names}"


def get_supported_image_formats(context: Context, flags: int, image_type: int) -> list[ImageFormat]:
    """Every supported format; the same list for every access flag and image type (a loomcl image is
    host memory that kernels read and write alike), except KERNEL_READ_AND_WRITE: read_write image
    arguments are OpenCL C 2.0's, which the device reports absent (max_read_write_image_args 0), so
    no format supports them."""
    routine = "clGetSupportedImageFormats"
    if not isinstance(context, Context):
        raise LogicError(routine, status_code.INVALID_CONTEXT, f"{context!r} is not a Context")
    if isinstance(flags, bool) or not isinstance(flags, (int, np.integer)):
        raise LogicError(routine, status_code.INVALID_VALUE, f"flags must be mem_flags bits, got {flags!r}")
    check_mem_flags(int(flags) & ~_HOST_POINTER_FLAGS, None, routine)
    if image_type not in IMAGE_TYPES:
        raise LogicError(routine, status_code.INVALID_VALUE,
                         f"image_type must be a mem_object_type IMAGE* value, got {image_type!r}")
    if flags & mem_flags.KERNEL_READ_AND_WRITE and not context.devices[0].max_read_write_image_args:
        return []
    return list(SUPPORTED_FORMATS)
