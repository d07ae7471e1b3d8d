"""Images: pyopencl's `Image`, `create_image` and `image_from_array`.

An image's pixels are host memory laid out as OpenCL describes it to the host (image_desc.py): rows
of `element_size`-byte pixels `row_pitch` apart, planes `slice_pitch` apart. Fresh images, COPY_HOST_PTR
ones included, are packed and 64-byte aligned; a USE_HOST_PTR image is the caller's memory with the
caller's pitches, and a 1D buffer image is its buffer's memory. Kernels reach the pixels through
`descriptor`, the ABI structure of loomcl/abi/image.py, which lives as long as the image.
"""
from __future__ import annotations

import ctypes
import warnings

import numpy as np

from loomcl.abi import image as image_abi
from loomcl.errors import LogicError, status_code

from .buffer import Buffer, aligned_zeros, check_mem_flags, host_bytes
from .constants import info_attribute, mem_flags, mem_info, mem_object_type
from .context import Context
from .image_constants import channel_order, channel_type, image_info
from .image_desc import ARRAYS, ImageDescriptor, Layout, descriptor_from_arguments, is_one_dimensional, layout
from .image_format import ImageFormat, check_format

_ROUTINE = "clCreateImage"
_HOST_POINTER_FLAGS = mem_flags.USE_HOST_PTR | mem_flags.COPY_HOST_PTR | mem_flags.ALLOC_HOST_PTR
_ACCESS = mem_flags.READ_WRITE | mem_flags.WRITE_ONLY | mem_flags.READ_ONLY


class Image:
    """pyopencl's Image(context, flags, format, shape=None, pitches=None, hostbuf=None, is_array=False,
    buffer=None, *, desc=None). `shape` is (width[, height[, depth]]), or (width, layers) and
    (width, height, layers) with is_array; `buffer` makes a 1D image of a Buffer's memory."""

    map_count = 0
    reference_count = 1
    offset = 0
    num_mip_levels = 0
    num_samples = 0
    uses_svm_pointer = 0  # no SVM
    properties: list = []  # clCreateImageWithProperties' list (the C API keeps its own)

    def __init__(self, context: Context, flags: int, format: ImageFormat, shape=None, pitches=None,  # noqa: A002
                 hostbuf=None, is_array: bool = False, buffer: Buffer | None = None, *,
                 desc: ImageDescriptor | None = None) -> None:
        if not isinstance(context, Context):
            raise LogicError(_ROUTINE, status_code.INVALID_CONTEXT, f"{context!r} is not a Context")
        if desc is None:
            if shape is None and hostbuf is None:
                raise LogicError(_ROUTINE, status_code.INVALID_IMAGE_DESCRIPTOR,
                                 "shape must be given when there is no hostbuf")
            desc = descriptor_from_arguments(np.shape(hostbuf) if shape is None else shape, pitches, is_array,
                                             buffer)
        elif shape is not None or pitches is not None or is_array or buffer is not None:
            raise TypeError("shape, pitches, is_array and buffer may not be passed with desc")
        if hostbuf is not None and isinstance(flags, (int, np.integer)) and not flags & (
                mem_flags.USE_HOST_PTR | mem_flags.COPY_HOST_PTR):
            warnings.warn("'hostbuf' was passed, but no memory flags to make use of it.", stacklevel=2)
            hostbuf = None
        check_mem_flags(flags, hostbuf, _ROUTINE)
        self.format = check_format(format, _ROUTINE)
        host_layout = layout(desc, format.itemsize, context.devices[0], hostbuf is not None)
        use_host = bool(flags & mem_flags.USE_HOST_PTR)
        self.layout = host_layout if use_host else host_layout.packed()
        self.context = context
        self.buffer = self._check_buffer(desc, int(flags))
        self.flags = int(flags) or (self.buffer.flags & _ACCESS if self.buffer is not None else 0)
        self._hostbuf = hostbuf if use_host else None
        self._memory = self._allocate(hostbuf, host_layout)
        self.descriptor = self._descriptor()

    def _check_buffer(self, desc: ImageDescriptor, flags: int) -> Buffer | None:
        """The buffer of a 1D buffer image (INVALID_IMAGE_DESCRIPTOR if it is missing, too small or
        given for another type; INVALID_VALUE for host-pointer or clashing access flags)."""
        buffer, kind = desc.buffer, self.layout.image_type
        if (buffer is not None) != (kind == mem_object_type.IMAGE1D_BUFFER):
            raise LogicError(_ROUTINE, status_code.INVALID_IMAGE_DESCRIPTOR,
                             "a buffer is given exactly for an IMAGE1D_BUFFER image")
        if buffer is None:
            return None
        if not isinstance(buffer, Buffer):
            raise LogicError(_ROUTINE, status_code.INVALID_IMAGE_DESCRIPTOR, f"buffer {buffer!r} is not a Buffer")
        if buffer.context is not self.context:
            raise LogicError(_ROUTINE, status_code.INVALID_CONTEXT, "the buffer belongs to another context")
        if flags & _HOST_POINTER_FLAGS:
            raise LogicError(_ROUTINE, status_code.INVALID_VALUE,
                             "an image of a buffer takes no USE_HOST_PTR, COPY_HOST_PTR or ALLOC_HOST_PTR")
        if buffer.flags & (mem_flags.WRITE_ONLY | mem_flags.READ_ONLY) and flags & _ACCESS & ~buffer.flags:
            raise LogicError(_ROUTINE, status_code.INVALID_VALUE,
                             "the image's access flags ask for more than its buffer's allow")
        if self.layout.nbytes > buffer.size:
            raise LogicError(_ROUTINE, status_code.INVALID_IMAGE_DESCRIPTOR,
                             f"width {self.layout.width} needs {self.layout.nbytes} bytes; "
                             f"the buffer has {buffer.size}")
        return buffer

    def _allocate(self, hostbuf, host_layout: Layout) -> np.ndarray:
        """The image's bytes: its buffer's, the hostbuf itself (USE_HOST_PTR), or fresh packed memory
        holding a copy of the hostbuf's pixels (COPY_HOST_PTR) or zeros."""
        if self.buffer is not None:
            return self.buffer.memory(_ROUTINE)[:self.layout.nbytes]
        if hostbuf is None:
            return aligned_zeros(self.layout.nbytes)
        use = bool(self.flags & mem_flags.USE_HOST_PTR)
        host = host_bytes(hostbuf if use else np.ascontiguousarray(hostbuf), _ROUTINE, writable=use)
        if host.size < host_layout.nbytes:
            raise LogicError(_ROUTINE, status_code.INVALID_HOST_PTR,
                             f"hostbuf has {host.size} bytes; the image's shape {host_layout.shape} and pitches "
                             f"({host_layout.row_pitch}, {host_layout.plane_pitch}) need {host_layout.nbytes}")
        if use:
            return host[:host_layout.nbytes]
        memory = aligned_zeros(self.layout.nbytes)
        lay = self.layout
        pixels = np.ndarray((lay.planes, lay.rows, lay.row_pitch), np.uint8, host, 0,
                            (host_layout.plane_pitch, host_layout.row_pitch, 1))
        memory.reshape(lay.planes, lay.rows, lay.row_pitch)[...] = pixels
        return memory

    def _descriptor(self) -> image_abi.ImageDescriptor:
        lay, fmt = self.layout, self.format
        one_d_array = lay.image_type == mem_object_type.IMAGE1D_ARRAY
        return image_abi.ImageDescriptor(
            data=self._memory.ctypes.data, width=lay.width, height=lay.rows,
            depth=lay.planes if lay.image_type == mem_object_type.IMAGE3D else 1,
            array_size=lay.planes if lay.image_type in ARRAYS else 1,
            row_pitch=lay.plane_pitch if one_d_array else lay.row_pitch, slice_pitch=lay.plane_pitch,
            channel_order=fmt.channel_order, channel_data_type=fmt.channel_data_type,
            element_size=lay.element_size, num_channels=fmt.channel_count, image_type=lay.image_type, reserved=0)

    # -- memory ---------------------------------------------------------------------------------------

    def memory(self, routine: str) -> np.ndarray:
        """The image's bytes (uint8), or LogicError INVALID_MEM_OBJECT if it was released."""
        if self._memory is None:
            raise LogicError(routine, status_code.INVALID_MEM_OBJECT, "the image was released")
        return self._memory

    def release(self) -> None:
        self._memory = None
        self._hostbuf = None
        self.descriptor.data = None

    @property
    def released(self) -> bool:
        return self._memory is None

    @property
    def address(self) -> int:
        """Where the descriptor lives: what an image2d_t kernel argument's slot receives."""
        return ctypes.addressof(self.descriptor)

    @property
    def int_ptr(self) -> int:
        return id(self)

    @property
    def hostbuf(self):
        return self._hostbuf

    @property
    def host_ptr(self) -> int:
        return self._memory.ctypes.data if self._hostbuf is not None else 0

    # -- the info pyopencl exposes ----------------------------------------------------------------------

    @property
    def type(self) -> int:
        return self.layout.image_type

    @property
    def shape(self) -> tuple:
        """The `shape` the image was made with: (width, height) of a 2D image, (width, height, depth)
        of a 3D one (pyopencl's), and for the other types their constructor's order too."""
        return self.layout.shape

    @property
    def size(self) -> int:
        return self.layout.nbytes

    @property
    def element_size(self) -> int:
        return self.layout.element_size

    @property
    def width(self) -> int:
        return self.layout.width

    @property
    def height(self) -> int:
        """0 for the 1D types, as clGetImageInfo reports it."""
        return 0 if is_one_dimensional(self.layout.image_type) else self.layout.rows

    @property
    def depth(self) -> int:
        return self.layout.planes if self.layout.image_type == mem_object_type.IMAGE3D else 0

    @property
    def array_size(self) -> int:
        return self.layout.planes if self.layout.image_type in ARRAYS else 0

    @property
    def row_pitch(self) -> int:
        return self.layout.row_pitch

    @property
    def slice_pitch(self) -> int:
        """The bytes of a 3D slice or an array layer; 0 for other types (clGetImageInfo's rule)."""
        has_planes = self.layout.image_type in ARRAYS or self.layout.image_type == mem_object_type.IMAGE3D
        return self.layout.plane_pitch if has_planes else 0

    @property
    def associated_memobject(self) -> Buffer | None:
        return self.buffer

    @property
    def image(self) -> Image:
        """pyopencl's `img.image.depth` spelling of image info: the image answers it itself."""
        return self

    def get_image_info(self, param: int):
        return getattr(self, info_attribute(image_info, param, "clGetImageInfo"))

    def get_info(self, param: int):
        return getattr(self, info_attribute(mem_info, param, "clGetMemObjectInfo"))

    def __eq__(self, other) -> bool:
        return self is other

    def __hash__(self) -> int:
        return id(self)

    def __repr__(self) -> str:
        kind = mem_object_type.to_string(self.layout.image_type)
        return f"<loomcl.Image {kind} {self.layout.shape} {self.format!r}>"


def create_image(context: Context, flags: int, format: ImageFormat, shape=None, pitches=None,  # noqa: A002
                 hostbuf=None, is_array: bool = False, buffer: Buffer | None = None) -> Image:
    """pyopencl's create_image: the same as Image(...)."""
    return Image(context, flags, format, shape, pitches, hostbuf, is_array, buffer)


_CHANNEL_TYPES = {
    np.dtype(np.float32): channel_type.FLOAT, np.dtype(np.float16): channel_type.HALF_FLOAT,
    np.dtype(np.int8): channel_type.SIGNED_INT8, np.dtype(np.int16): channel_type.SIGNED_INT16,
    np.dtype(np.int32): channel_type.SIGNED_INT32, np.dtype(np.uint8): channel_type.UNSIGNED_INT8,
    np.dtype(np.uint16): channel_type.UNSIGNED_INT16, np.dtype(np.uint32): channel_type.UNSIGNED_INT32,
}
_NORMALIZED_TYPES = {
    np.dtype(np.int8): channel_type.SNORM_INT8, np.dtype(np.int16): channel_type.SNORM_INT16,
    np.dtype(np.uint8): channel_type.UNORM_INT8, np.dtype(np.uint16): channel_type.UNORM_INT16,
}
_ORDERS = {1: channel_order.R, 2: channel_order.RG, 3: channel_order.RGB, 4: channel_order.RGBA}


def image_from_array(ctx: Context, ary: np.ndarray, num_channels: int | None = None, mode: str = "r",
                     norm_int: bool = False) -> Image:
    """pyopencl's image_from_array: a READ_ONLY ("r") or WRITE_ONLY ("w") image holding a copy of the
    C-contiguous `ary`, whose last axis is the channels when num_channels > 1 (or whose dtype is a
    cltypes vector) and whose other axes are reversed into the image's (width, height[, depth])."""
    from loomcl import cltypes

    if not ary.flags.c_contiguous:
        raise ValueError("array must be C-contiguous")
    dtype, shape, strides = ary.dtype, ary.shape, ary.strides
    if num_channels is None:
        dtype, num_channels = _vector_lanes(cltypes, dtype)
    elif num_channels > 1:
        if ary.shape[-1] != num_channels:
            raise RuntimeError("last dimension must be equal to number of channels")
        shape, strides = shape[:-1], strides[:-1]
    if mode not in ("r", "w"):
        raise ValueError(f"invalid value '{mode}' for 'mode'")
    table = _NORMALIZED_TYPES if norm_int else _CHANNEL_TYPES
    if num_channels not in _ORDERS or dtype not in table:
        raise LogicError(_ROUTINE, status_code.INVALID_IMAGE_FORMAT_DESCRIPTOR,
                         f"no image format holds {num_channels} channel(s) of {dtype}"
                         f"{' as normalized integers' if norm_int else ''}")
    flags = (mem_flags.READ_ONLY if mode == "r" else mem_flags.WRITE_ONLY) | mem_flags.COPY_HOST_PTR
    return Image(ctx, flags, ImageFormat(_ORDERS[num_channels], table[dtype]), shape=shape[::-1],
                 pitches=strides[::-1][1:], hostbuf=ary)


def _vector_lanes(cltypes, dtype: np.dtype) -> tuple:
    """(scalar dtype, lanes) of a cltypes vector dtype, or (dtype, 1) of a scalar one."""
    for (scalar, lanes), vector in cltypes.vec_types.items():
        if vector == dtype:
            return scalar, lanes
    return dtype, 1

