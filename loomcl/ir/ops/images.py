"""Image reads, writes and queries (OpenCL C 6.12.14): operations on an image handle, the address of
the image's descriptor (abi/image.py), which code generation expands into address
arithmetic, the channel conversions and the sampler's addressing and filtering.

The image type (`ImageGeometry`) says how the coordinates are read: x, then y or the layer of a 1D
array, then z or the layer of a 2D array (a fourth lane is ignored). The sampler is an i32 of
image_abi's bits: a constant where the kernel names a `const sampler_t` (the usual case, and the
one code generation specializes), a value where it comes from an argument. A read without a
sampler takes integer coordinates, as if through an unnormalized, non-addressed, nearest sampler.
"""
from __future__ import annotations

import enum
from typing import Iterator

from .. import types as ty
from ..values import Value
from .base import Instruction, TextReader
from .shapes import NO_VALUE, OPERANDS, PER_WORK_ITEM

__all__ = ["ImageGeometry", "ImageChannels", "ImageRead", "ImageWrite", "ImageQuery", "ImageProperty"]


class ImageGeometry(enum.Enum):
    IMAGE1D = "1d"
    IMAGE1D_ARRAY = "1d_array"
    IMAGE1D_BUFFER = "1d_buffer"
    IMAGE2D = "2d"
    IMAGE2D_ARRAY = "2d_array"
    IMAGE3D = "3d"

    @property
    def coordinate_lanes(self) -> int:
        return {"1d": 1, "1d_buffer": 1, "1d_array": 2, "2d": 2, "2d_array": 4, "3d": 4}[self.value]

    @property
    def dims(self) -> int:
        """The spatial dimensions, which a sampler addresses and filters."""
        return {"1d": 1, "1d_buffer": 1, "1d_array": 1, "2d": 2, "2d_array": 2, "3d": 3}[self.value]

    @property
    def is_array(self) -> bool:
        return self.value.endswith("_array")

    @classmethod
    def of_type_name(cls, name: str) -> ImageGeometry:
        """`image2d_array_t` -> IMAGE2D_ARRAY."""
        return cls(name[len("image"):-len("_t")])


class ImageChannels(enum.Enum):
    """What a read gives or a write takes: float4 (read_imagef), int4 (_i) or uint4 (_ui)."""

    FLOAT = "f"
    INT = "i"
    UINT = "ui"

    @property
    def color_type(self) -> ty.VectorType:
        return ty.VectorType(ty.f32 if self is ImageChannels.FLOAT else ty.i32, 4)


def _keywords(prefix: str) -> tuple[str, ...]:
    return tuple(f"{prefix}.{g.value}.{c.value}" for g in ImageGeometry for c in ImageChannels)


def _split(keyword: str) -> tuple[ImageGeometry, ImageChannels]:
    _, _, geometry, channels = keyword.split(".")
    return ImageGeometry(geometry), ImageChannels(channels)


def _verify_image(image: Value, coordinates: Value, geometry: ImageGeometry) -> Iterator[str]:
    if not isinstance(image.type, ty.PointerType):
        yield f"the image is {image.type}, not a pointer to its descriptor"
    t = coordinates.type
    lanes = t.count if isinstance(t, ty.VectorType) else 1
    if lanes != geometry.coordinate_lanes or ty.scalar_of(t) not in (ty.i32, ty.f32):
        yield f"coordinates of a {geometry.value} image are {t}, not {geometry.coordinate_lanes} i32 or f32 lanes"


class ImageRead(Instruction):
    """`image.read.<geometry>.<channels> %image, [%sampler,] %coordinates`: the color at the
    coordinates (float coordinates need a sampler)."""

    keywords = _keywords("image.read")
    fields = ("geometry", "channels")
    reads_memory = True
    uniformity = PER_WORK_ITEM  # it may see another work-item's write

    def __init__(self, geometry: ImageGeometry, channels: ImageChannels, image: Value, sampler: Value | None,
                 coordinates: Value, name: str = "") -> None:
        operands = [image, coordinates] if sampler is None else [image, sampler, coordinates]
        super().__init__(channels.color_type, operands, name)
        self.geometry, self.channels = geometry, channels

    image = property(lambda self: self._operands[0])
    sampler = property(lambda self: self._operands[1] if len(self._operands) == 3 else None)
    coordinates = property(lambda self: self._operands[-1])

    @property
    def keyword(self) -> str:
        return f"image.read.{self.geometry.value}.{self.channels.value}"

    @classmethod
    def parse(cls, keyword: str, r: TextReader, name: str) -> ImageRead:
        operands = r.operand_list()
        sampler = operands[1] if len(operands) == 3 else None
        return cls(*_split(keyword), operands[0], sampler, operands[-1], name)

    def verify(self) -> Iterator[str]:
        if len(self._operands) not in (2, 3):
            yield f"takes an image, an optional sampler and coordinates, not {len(self._operands)} operands"
            return
        yield from _verify_image(self.image, self.coordinates, self.geometry)
        if self.sampler is not None and self.sampler.type is not ty.i32:
            yield f"the sampler is {self.sampler.type}, not i32"
        if self.sampler is None and ty.scalar_of(self.coordinates.type) is not ty.i32:
            yield "a read without a sampler takes integer coordinates"
        if self.type is not self.channels.color_type:
            yield f"gives {self.type}, not {self.channels.color_type}"


class ImageWrite(Instruction):
    """`image.write.<geometry>.<channels> %image, %coordinates, %color`: a write outside the image
    does nothing (OpenCL leaves it undefined)."""

    keywords = _keywords("image.write")
    fields = ("geometry", "channels")
    operand_names = ("image", "coordinates", "color")
    writes_memory = True
    uniformity = NO_VALUE

    def __init__(self, geometry: ImageGeometry, channels: ImageChannels, image: Value, coordinates: Value,
                 color: Value) -> None:
        super().__init__(ty.void, [image, coordinates, color])
        self.geometry, self.channels = geometry, channels


    @property
    def keyword(self) -> str:
        return f"image.write.{self.geometry.value}.{self.channels.value}"

    @classmethod
    def parse(cls, keyword: str, r: TextReader, name: str) -> ImageWrite:
        image, coordinates, color = r.operand_list()
        return cls(*_split(keyword), image, coordinates, color)

    def verify(self) -> Iterator[str]:
        yield from _verify_image(self.image, self.coordinates, self.geometry)
        if ty.scalar_of(self.coordinates.type) is not ty.i32:
            yield "writes take integer coordinates"
        if self.color.type is not self.channels.color_type:
            yield f"the color is {self.color.type}, not {self.channels.color_type}"


class ImageProperty(enum.Enum):
    """A field of the descriptor, as get_image_* returns it."""

    WIDTH = "width"
    HEIGHT = "height"
    DEPTH = "depth"
    ARRAY_SIZE = "array_size"
    CHANNEL_DATA_TYPE = "channel_data_type"
    CHANNEL_ORDER = "channel_order"


class ImageQuery(Instruction):
    """`image.<property> %image`: an i32 (descriptors do not change while a kernel runs, so it is pure)."""

    keywords = tuple(f"image.{p.value}" for p in ImageProperty)
    fields = ("field",)
    operand_names = ("image",)
    is_pure = True
    uniformity = OPERANDS

    def __init__(self, field: ImageProperty, image: Value, name: str = "") -> None:
        super().__init__(ty.i32, [image], name)
        self.field = field

    @property
    def keyword(self) -> str:
        return f"image.{self.field.value}"

    @classmethod
    def parse(cls, keyword: str, r: TextReader, name: str) -> ImageQuery:
        return cls(ImageProperty(keyword[len("image."):]), r.operand(), name)

    def verify(self) -> Iterator[str]:
        if not isinstance(self.image.type, ty.PointerType):
            yield f"the image is {self.image.type}, not a pointer to its descriptor"
