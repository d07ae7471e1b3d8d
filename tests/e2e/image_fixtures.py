"""Stand-in images and samplers for the kernel tests: the runtime's contract (abi/image.py)
over numpy memory, so kernel code is tested without the host image API (runtime/image.py).

`StandInImage` holds its texels in a uint8 array laid out as abi/image.py says (rows may be padded,
so pitches are exercised) and `components` views them as a (slices, rows, width, channels) array of
the component type (packed formats: one word per texel, channels 1). `descriptor` is the
ImageDescriptor the kernel argument points to.
"""
from __future__ import annotations

import numpy as np

from loomcl.abi.image import ImageDescriptor, sampler_bits
from loomcl.devlib.images import channels as C

IMAGE_TYPE_CODES = {"image2d_t": 0x10F1, "image3d_t": 0x10F2, "image2d_array_t": 0x10F3, "image1d_t": 0x10F4,
                    "image1d_array_t": 0x10F5, "image1d_buffer_t": 0x10F6}

COMPONENT_DTYPES = {
    C.SNORM_INT8: np.int8, C.SNORM_INT16: np.int16, C.UNORM_INT8: np.uint8, C.UNORM_INT16: np.uint16,
    C.UNORM_SHORT_565: np.uint16, C.UNORM_SHORT_555: np.uint16, C.UNORM_INT_101010: np.uint32,
    C.SIGNED_INT8: np.int8, C.SIGNED_INT16: np.int16, C.SIGNED_INT32: np.int32, C.UNSIGNED_INT8: np.uint8,
    C.UNSIGNED_INT16: np.uint16, C.UNSIGNED_INT32: np.uint32, C.HALF_FLOAT: np.float16, C.FLOAT: np.float32,
}
STORED_CHANNELS = {C.R: 1, C.A: 1, C.INTENSITY: 1, C.LUMINANCE: 1, C.RX: 2, C.RG: 2, C.RA: 2, C.RGX: 3,
                   C.RGB: 3, C.RGBX: 4, C.RGBA: 4, C.BGRA: 4, C.ARGB: 4}

_ALL_TYPES = ("SNORM_INT8 SNORM_INT16 UNORM_INT8 UNORM_INT16 SIGNED_INT8 SIGNED_INT16 SIGNED_INT32 "
              "UNSIGNED_INT8 UNSIGNED_INT16 UNSIGNED_INT32 HALF_FLOAT FLOAT").split()
_NORMALIZED_FLOAT = "SNORM_INT8 SNORM_INT16 UNORM_INT8 UNORM_INT16 HALF_FLOAT FLOAT".split()
_BYTES = "UNORM_INT8 SNORM_INT8 SIGNED_INT8 UNSIGNED_INT8".split()
_PACKED = "UNORM_SHORT_565 UNORM_SHORT_555 UNORM_INT_101010".split()
# the (channel order, channel data type) pairs OpenCL 1.2 (5.3.1.1) lists
SPEC_FORMATS = [(order, t) for order in ("R", "A", "RG", "RA", "RGBA", "Rx", "RGx") for t in _ALL_TYPES] + \
    [(order, t) for order in ("INTENSITY", "LUMINANCE") for t in _NORMALIZED_FLOAT] + \
    [(order, t) for order in ("BGRA", "ARGB") for t in _BYTES] + \
    [(order, t) for order in ("RGB", "RGBx") for t in _PACKED]


def kind_of(data_type: int) -> str:
    """'f', 'i' or 'ui': the read and write functions of a data type."""
    if data_type in C.SIGNED_INTEGER:
        return "i"
    return "ui" if data_type in C.UNSIGNED_INTEGER else "f"


class StandInImage:
    def __init__(self, image_type: str, order: str, data_type: str, width: int, height: int = 1, depth: int = 1,
                 array_size: int = 1, row_padding: int = 0) -> None:
        self.image_type, self.order, self.data_type = image_type, C.CHANNEL_ORDERS[order], C.CHANNEL_TYPES[data_type]
        packed = self.data_type in C.PACKED
        self.channels = 1 if packed else STORED_CHANNELS[self.order]
        dtype = np.dtype(COMPONENT_DTYPES[self.data_type])
        element = dtype.itemsize * self.channels
        rows = array_size if image_type == "image1d_array_t" else height
        slices = array_size if image_type == "image2d_array_t" else depth
        row_pitch = width * element + row_padding
        slice_pitch = rows * row_pitch
        self.raw = np.zeros(slices * slice_pitch + 64, np.uint8)
        self.components = np.ndarray((slices, rows, width, self.channels), dtype, self.raw,
                                     strides=(slice_pitch, row_pitch, element, dtype.itemsize))
        d = self.descriptor = ImageDescriptor()
        d.data = self.raw.ctypes.data
        d.width, d.height, d.depth, d.array_size = width, height, depth, array_size
        d.row_pitch, d.slice_pitch = row_pitch, slice_pitch
        d.channel_order, d.channel_data_type = self.order, self.data_type
        d.element_size, d.num_channels = element, self.channels
        d.image_type = IMAGE_TYPE_CODES[image_type]

    @property
    def kind(self) -> str:
        return kind_of(self.data_type)

    def fill_random(self, rng: np.random.Generator) -> None:
        """Random components (finite floats in [-2, 2] for half and float)."""
        c = self.components
        if c.dtype.kind == "f":
            c[...] = rng.uniform(-2, 2, c.shape).astype(c.dtype)
        else:
            info = np.iinfo(c.dtype)
            c[...] = rng.integers(info.min, info.max, c.shape, endpoint=True, dtype=c.dtype)


class StandInSampler:
    def __init__(self, normalized: bool, addressing: int, filtering: int) -> None:
        self.bits = sampler_bits(normalized, addressing, filtering)
