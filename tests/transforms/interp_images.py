"""The test interpreter's image operations (interp.py): an image argument is a stand-in image
(tests/e2e/image_fixtures.py), and reads, writes and queries follow the numpy model of the spec
(tests/e2e/image_reference.py), the same one the native results are checked against. Linear filtering
gives the model's float64 weighted sum rounded to float, which may differ from native code in the
last bit: the differential tests generate no images, and the image tests compare with tolerance."""
from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

from loomcl.devlib.images import channels as C
from loomcl.ir import instructions as ins
from loomcl.ir import types as ty

_E2E = str(Path(__file__).resolve().parents[1] / "e2e")
if _E2E not in sys.path:
    sys.path.insert(0, _E2E)

from image_reference import encode, sample  # noqa: E402

_KIND = {ins.ImageChannels.FLOAT: "f", ins.ImageChannels.INT: "i", ins.ImageChannels.UINT: "ui"}


def _signed(v: int) -> int:
    return v - (1 << 32) if v >= 1 << 31 else v


def _lanes(value) -> tuple:
    return value if isinstance(value, tuple) else (value,)


def _coordinates(value, is_float: bool) -> np.ndarray:
    lanes = _lanes(value)
    if is_float:
        return np.array([lanes], np.float32)
    return np.array([[_signed(v) for v in lanes]], np.int32)


def image_compilers(getter):
    """Compile functions for interp's dispatch table; `getter` is interp's operand reader."""

    def read(i: ins.ImageRead):
        image, coords = getter(i.image), getter(i.coordinates)
        sampler = getter(i.sampler) if i.sampler is not None else (lambda fr: 0)
        kind, is_float = _KIND[i.channels], ty.scalar_of(i.coordinates.type) is ty.f32

        def run(fr):
            result = sample(image(fr), kind, sampler(fr), _coordinates(coords(fr), is_float))[0]
            if kind == "f":
                return tuple(float(np.float32(v)) for v in result)
            return tuple(int(v) & 0xFFFFFFFF for v in result)

        return run

    def write(i: ins.ImageWrite):
        image, coords, color = getter(i.image), getter(i.coordinates), getter(i.color)
        kind = _KIND[i.channels]

        def run(fr):
            target = image(fr)
            index = [int(c) for c in _coordinates(coords(fr), False)[0]]
            d = target.descriptor
            limits = {"image1d_t": [d.width], "image1d_buffer_t": [d.width], "image2d_t": [d.width, d.height],
                      "image1d_array_t": [d.width, d.array_size], "image3d_t": [d.width, d.height, d.depth],
                      "image2d_array_t": [d.width, d.height, d.array_size]}[target.image_type]
            if not all(0 <= c < n for c, n in zip(index, limits)):
                return None  # outside: nothing is written
            lanes = _lanes(color(fr))
            colors = np.array([lanes], np.float32) if kind == "f" else \
                np.array([[_signed(v) if kind == "i" else v for v in lanes]], np.int64)
            x, y, z = (index + [0, 0])[:3]
            stored = encode(target, kind, colors)[0]
            places = 1 if target.data_type in C.PACKED else len(C.RGBA_TO_ORDER[target.order])  # not the x
            target.components[z, y, x, :places] = stored[:places]
            return None

        return run

    def query(i: ins.ImageQuery):
        image, field = getter(i.image), i.field.value
        return lambda fr: int(getattr(image(fr).descriptor, field)) & 0xFFFFFFFF

    return {ins.ImageRead: read, ins.ImageWrite: write, ins.ImageQuery: query}
