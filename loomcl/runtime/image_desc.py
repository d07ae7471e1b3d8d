"""What an image is shaped like: pyopencl's `ImageDescriptor` (the C API's cl_image_desc), the
image type pyopencl's constructor arguments name, and the checks of sizes and pitches.

`Layout` is the checked result. Every image is addressed as a box of `width` pixels by `rows` rows
by `planes` planes: a plane is a 3D slice or an array layer, so a 1D image array is one row per layer
and its layer index, the y of the API's origins and regions, is a plane index here.
`row_pitch` and `plane_pitch` are bytes; a pitch with nothing to step is the whole extent below it,
so every image's bytes are `plane_pitch * planes`. Pitches given at creation describe a hostbuf; an
image keeps them only when it is that memory (USE_HOST_PTR) and is packed otherwise.
"""
from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from loomcl.errors import LogicError, status_code

from .constants import mem_object_type

_ROUTINE = "clCreateImage"
_ONE_D = (mem_object_type.IMAGE1D, mem_object_type.IMAGE1D_BUFFER, mem_object_type.IMAGE1D_ARRAY)
ARRAYS = (mem_object_type.IMAGE1D_ARRAY, mem_object_type.IMAGE2D_ARRAY)
# The size limits of each image type: (device attribute, what the extent is called) per dimension,
# in the order of the API's shape (width, height, depth or layers).
_LIMITS = {
    mem_object_type.IMAGE1D: (("image2d_max_width", "width"),),
    mem_object_type.IMAGE1D_BUFFER: (("image_max_buffer_size", "width"),),
    mem_object_type.IMAGE1D_ARRAY: (("image2d_max_width", "width"), ("image_max_array_size", "array size")),
    mem_object_type.IMAGE2D: (("image2d_max_width", "width"), ("image2d_max_height", "height")),
    mem_object_type.IMAGE2D_ARRAY: (("image2d_max_width", "width"), ("image2d_max_height", "height"),
                                    ("image_max_array_size", "array size")),
    mem_object_type.IMAGE3D: (("image3d_max_width", "width"), ("image3d_max_height", "height"),
                              ("image3d_max_depth", "depth")),
}


class ImageDescriptor:
    """pyopencl's ImageDescriptor: cl_image_desc for `Image(context, flags, format, desc=...)`.

    (The kernel's view of an image is another structure: loomcl.abi.image.ImageDescriptor,
    reached as `Image.descriptor`.) `shape` sets width, height and depth, and array_size from its third
    entry as pyopencl does; set `array_size` after it for a 1D image array."""

    def __init__(self) -> None:
        self.image_type = mem_object_type.IMAGE2D
        self.width, self.height, self.depth, self.array_size = 0, 0, 0, 0
        self.row_pitch = self.slice_pitch = 0
        self.num_mip_levels = self.num_samples = 0
        self.buffer = None

    @property
    def shape(self) -> tuple:
        return (self.width, self.height, self.depth)

    @shape.setter
    def shape(self, shape) -> None:
        width, height, depth = (tuple(shape) + (1, 1))[:3]
        self.width, self.height, self.depth, self.array_size = width, height, depth, depth

    @property
    def pitches(self) -> tuple:
        return (self.row_pitch, self.slice_pitch)

    @pitches.setter
    def pitches(self, pitches) -> None:
        self.row_pitch, self.slice_pitch = (tuple(pitches) + (0, 0))[:2]


def descriptor_from_arguments(shape, pitches, is_array: bool, buffer) -> ImageDescriptor:
    """The descriptor pyopencl's `Image(..., shape, pitches, is_array, buffer)` means, with its errors."""
    shape = (shape,) if isinstance(shape, (int, np.integer)) else tuple(shape)
    if buffer is not None and is_array:
        raise ValueError("'buffer' and 'is_array' are mutually exclusive")
    if len(shape) not in (1, 2, 3):
        raise ValueError("images cannot have more than three dimensions")
    if buffer is not None and len(shape) != 1:
        raise TypeError(f"'buffer' argument is not supported for {len(shape)}D arrays")
    if len(shape) == 1 and is_array:
        raise TypeError("array of zero-dimensional images not supported")
    desc = ImageDescriptor()
    desc.image_type = {
        (1, False): mem_object_type.IMAGE1D_BUFFER if buffer is not None else mem_object_type.IMAGE1D,
        (2, False): mem_object_type.IMAGE2D, (3, False): mem_object_type.IMAGE3D,
        (2, True): mem_object_type.IMAGE1D_ARRAY, (3, True): mem_object_type.IMAGE2D_ARRAY,
    }[len(shape), bool(is_array)]
    extents = _extents(desc.image_type, shape)
    desc.width, desc.height, desc.depth, desc.array_size = extents
    desc.pitches = () if pitches is None else pitches
    desc.buffer = buffer
    return desc


def _extents(image_type: int, shape: tuple) -> tuple:
    """(width, height, depth, array_size) from the API's shape, 0 where the type has no such extent."""
    padded = shape + (0,) * (3 - len(shape))
    if image_type == mem_object_type.IMAGE1D_ARRAY:
        return (padded[0], 0, 0, padded[1])
    if image_type == mem_object_type.IMAGE2D_ARRAY:
        return (padded[0], padded[1], 0, padded[2])
    return padded + (0,)


@dataclass(frozen=True)
class Layout:
    """A checked image geometry (see the module docstring)."""

    image_type: int
    shape: tuple  # the API's shape: (width[, height or layers[, depth or layers]])
    width: int
    rows: int
    planes: int
    element_size: int
    row_pitch: int
    plane_pitch: int

    @property
    def nbytes(self) -> int:
        return self.plane_pitch * self.planes

    def packed(self) -> Layout:
        """The same image with no padding: rows and planes back to back."""
        row_pitch = self.width * self.element_size
        return replace(self, row_pitch=row_pitch, plane_pitch=row_pitch * self.rows)


def layout(desc: ImageDescriptor, element_size: int, device, has_host: bool) -> Layout:
    """Check `desc` against the device's limits and the format's element size; INVALID_IMAGE_SIZE for a
    size out of range, INVALID_IMAGE_DESCRIPTOR for a bad type or pitch."""
    if desc.image_type not in _LIMITS:
        raise LogicError(_ROUTINE, status_code.INVALID_IMAGE_DESCRIPTOR,
                         f"image_type {desc.image_type!r} is not an image mem_object_type")
    if desc.num_mip_levels or desc.num_samples:
        raise LogicError(_ROUTINE, status_code.INVALID_IMAGE_DESCRIPTOR,
                         "num_mip_levels and num_samples must be 0 (no mipmaps or multisampling)")
    shape = _api_shape(desc)
    for extent, (limit_name, what) in zip(shape, _LIMITS[desc.image_type]):
        limit = getattr(device, limit_name)
        if isinstance(extent, bool) or not isinstance(extent, (int, np.integer)) or not 1 <= extent <= limit:
            raise LogicError(_ROUTINE, status_code.INVALID_IMAGE_SIZE,
                             f"{what} {extent!r} is outside 1..{limit} (the device's {limit_name})")
    width = int(shape[0])
    rows = int(shape[1]) if desc.image_type in (mem_object_type.IMAGE2D, mem_object_type.IMAGE2D_ARRAY,
                                                mem_object_type.IMAGE3D) else 1
    planes = 1 if len(shape) == 1 or desc.image_type == mem_object_type.IMAGE2D else int(shape[-1])
    row_pitch, plane_pitch = _pitches(desc, width * element_size, rows, element_size, has_host)
    result = Layout(desc.image_type, tuple(int(n) for n in shape), width, rows, planes, element_size,
                    row_pitch, plane_pitch)
    if result.nbytes > device.max_mem_alloc_size:
        raise LogicError(_ROUTINE, status_code.INVALID_IMAGE_SIZE,
                         f"the image's {result.nbytes} bytes exceed the device's max_mem_alloc_size "
                         f"{device.max_mem_alloc_size}")
    return result


def _api_shape(desc: ImageDescriptor) -> tuple:
    kind = desc.image_type
    if kind in (mem_object_type.IMAGE1D, mem_object_type.IMAGE1D_BUFFER):
        return (desc.width,)
    if kind == mem_object_type.IMAGE1D_ARRAY:
        return (desc.width, desc.array_size)
    if kind == mem_object_type.IMAGE2D:
        return (desc.width, desc.height)
    if kind == mem_object_type.IMAGE2D_ARRAY:
        return (desc.width, desc.height, desc.array_size)
    return (desc.width, desc.height, desc.depth)


def _pitches(desc: ImageDescriptor, row_bytes: int, rows: int, element_size: int, has_host: bool) -> tuple:
    """(row pitch, plane pitch): the given ones (a host image's layout) checked, zeros packed."""
    row_pitch, slice_pitch = desc.row_pitch, desc.slice_pitch
    for name, value in (("row pitch", row_pitch), ("slice pitch", slice_pitch)):
        if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 0:
            raise LogicError(_ROUTINE, status_code.INVALID_IMAGE_DESCRIPTOR,
                             f"{name} must be a non-negative int, got {value!r}")
    if (row_pitch or slice_pitch) and not has_host:
        raise LogicError(_ROUTINE, status_code.INVALID_IMAGE_DESCRIPTOR,
                         "pitches may only be given with a hostbuf (they describe the host memory's layout)")
    has_planes = desc.image_type in (mem_object_type.IMAGE1D_ARRAY, mem_object_type.IMAGE2D_ARRAY,
                                     mem_object_type.IMAGE3D)
    if slice_pitch and not has_planes:
        raise LogicError(_ROUTINE, status_code.INVALID_IMAGE_DESCRIPTOR,
                         f"a slice pitch ({slice_pitch}) needs a 3D image or an image array")
    row_pitch = int(row_pitch) or row_bytes
    if row_pitch < row_bytes or row_pitch % element_size:
        raise LogicError(_ROUTINE, status_code.INVALID_IMAGE_DESCRIPTOR,
                         f"row pitch {row_pitch} must be a multiple of the {element_size}-byte element "
                         f"and at least a row's {row_bytes} bytes")
    plane_bytes = row_pitch * rows
    plane_pitch = int(slice_pitch) or plane_bytes
    if plane_pitch < plane_bytes or plane_pitch % row_pitch:
        raise LogicError(_ROUTINE, status_code.INVALID_IMAGE_DESCRIPTOR,
                         f"slice pitch {plane_pitch} must be a multiple of the row pitch {row_pitch} "
                         f"and at least {rows} rows ({plane_bytes} bytes)")
    return row_pitch, plane_pitch


def is_one_dimensional(image_type: int) -> bool:
    return image_type in _ONE_D
