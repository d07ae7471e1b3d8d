"""How images and samplers reach kernel code (the contract between the runtime and codegen).

An `image*_t` kernel argument's slot holds the address of the image's `ImageDescriptor`, owned by the
host image object for its whole life. A `sampler_t` argument's slot holds the sampler's bits, the same
bits a `const sampler_t` initializer in kernel source folds to, so a sampler is a plain integer in
kernel code:

    bit 0        normalized coordinates (CLK_NORMALIZED_COORDS_TRUE)
    bits 1..3    addressing mode: 0 none, 1 clamp to edge, 2 clamp, 3 repeat, 4 mirrored repeat
    bits 4..5    filter: 1 nearest, 2 linear

Pixels are stored as OpenCL lays them out on the host: element `element_size` bytes, channels in the
order the channel order names them; row `(x, y, z or layer)` starts at
`data + y * row_pitch + z * slice_pitch`. For a 1D image array the layer is the y coordinate's role, so
`slice_pitch` is unused and `row_pitch` steps layers; for a 2D array `slice_pitch` steps layers.
`channel_order` and `channel_data_type` are the C API's codes (CL_RGBA, CL_UNORM_INT8, ...).
"""
from __future__ import annotations

import ctypes

NORMALIZED_COORDS = 0x1
ADDRESS_SHIFT = 1
ADDRESS_MASK = 0x7 << ADDRESS_SHIFT
ADDRESS_NONE, ADDRESS_CLAMP_TO_EDGE, ADDRESS_CLAMP, ADDRESS_REPEAT, ADDRESS_MIRRORED_REPEAT = range(5)
FILTER_SHIFT = 4
FILTER_MASK = 0x3 << FILTER_SHIFT
FILTER_NEAREST, FILTER_LINEAR = 1, 2


def sampler_bits(normalized: bool, addressing: int, filtering: int) -> int:
    """The bits of a sampler: `addressing` is ADDRESS_*, `filtering` FILTER_*."""
    return int(bool(normalized)) | addressing << ADDRESS_SHIFT | filtering << FILTER_SHIFT


class ImageDescriptor(ctypes.Structure):
    """`struct image`: what kernel code knows of an image (offsets are part of the ABI)."""

    _fields_ = [
        ("data", ctypes.c_void_p),  # 0: the first pixel
        ("width", ctypes.c_int64),  # 8: in pixels
        ("height", ctypes.c_int64),  # 16: 1 for 1D images and 1D arrays
        ("depth", ctypes.c_int64),  # 24: 1 unless 3D
        ("array_size", ctypes.c_int64),  # 32: layers of an array image, else 1
        ("row_pitch", ctypes.c_int64),  # 40: bytes
        ("slice_pitch", ctypes.c_int64),  # 48: bytes (2D array layer or 3D slice)
        ("channel_order", ctypes.c_int32),  # 56: CL_R, CL_RGBA, ...
        ("channel_data_type", ctypes.c_int32),  # 60: CL_UNORM_INT8, CL_FLOAT, ...
        ("element_size", ctypes.c_int32),  # 64: bytes per pixel
        ("num_channels", ctypes.c_int32),  # 68
        ("image_type", ctypes.c_int32),  # 72: CL_MEM_OBJECT_IMAGE2D, ...
        ("reserved", ctypes.c_int32),  # 76
    ]
