"""Every channel order and data type of OpenCL 1.2 (5.3.1.1) read and written by kernels, against the
numpy model of the spec's conversions (image_reference.py): reads are exact, writes bit for bit."""
from __future__ import annotations

import numpy as np
import pytest

from loomcl.devlib.images import channels as C

from image_fixtures import SPEC_FORMATS, StandInImage
from image_reference import encode, texels

_VEC = {"f": "float4", "i": "int4", "ui": "uint4"}
_DTYPE = {"f": np.float32, "i": np.int32, "ui": np.uint32}

READ = """
__kernel void k(__read_only image2d_t img, __global {vec} *out) {{
    int x = get_global_id(0), y = get_global_id(1);
    out[y * get_image_width(img) + x] = read_image{kind}(img, (int2)(x, y));
}}
"""

WRITE = """
__kernel void k(__write_only image2d_t img, __global const {vec} *colors) {{
    int x = get_global_id(0), y = get_global_id(1);
    write_image{kind}(img, (int2)(x, y), colors[y * get_image_width(img) + x]);
}}
"""


def _same(actual: np.ndarray, expected: np.ndarray) -> bool:
    if actual.dtype.kind == "f":
        return np.array_equal(actual, expected, equal_nan=True)
    return np.array_equal(actual.astype(np.int64) & 0xFFFFFFFF, expected.astype(np.int64) & 0xFFFFFFFF)


@pytest.mark.parametrize("order,data_type", SPEC_FORMATS)
def test_read_every_format(ctx, queue, run_kernel, rng, order, data_type):
    image = StandInImage("image2d_t", order, data_type, 7, 5, row_padding=3)
    image.fill_random(rng)
    kind = image.kind
    out = np.zeros((5 * 7, 4), _DTYPE[kind])
    (result,) = run_kernel(READ.format(vec=_VEC[kind], kind=kind), "k", (7, 5), None, image, out)
    expected = texels(image, kind)[0].reshape(-1, 4)
    assert _same(result, expected.astype(_DTYPE[kind]) if kind == "f" else expected), f"{order} {data_type}"


def _colors(kind: str, rng, n: int) -> np.ndarray:
    if kind == "f":  # in and out of range, exact halves (round to nearest even) and NaN
        values = rng.uniform(-1.5, 1.5, (n, 4)).astype(np.float32)
        specials = np.array([0.5 / 255, 1.5 / 255, 2.5 / 255, -0.5 / 127, np.nan, -0.0, 1.0, -1.0, 2.0, -3.0,
                             0.5 / 65535, 1000.0, np.inf, -np.inf], np.float32)
        values.flat[:len(specials)] = specials
        return values
    info = np.iinfo(np.int32)
    values = rng.integers(info.min, info.max, (n, 4), dtype=np.int64)
    values[:3] = [[0, 1, 127, 128], [-129, 255, 256, 65535], [65536, -32769, 32767, -1]]
    return values.astype(_DTYPE[kind])


@pytest.mark.parametrize("order,data_type", SPEC_FORMATS)
def test_write_every_format(ctx, queue, run_kernel, rng, order, data_type):
    image = StandInImage("image2d_t", order, data_type, 6, 4, row_padding=5)
    kind = image.kind
    colors = _colors(kind, rng, 24)
    run_kernel(WRITE.format(vec=_VEC[kind], kind=kind), "k", (6, 4), None, image, colors)
    expected = encode(image, kind, colors)
    stored = image.components[0].reshape(-1, image.channels)
    places = 1 if image.data_type in C.PACKED else len(C.RGBA_TO_ORDER[image.order])  # x channels: not written
    assert _same(stored[:, :places], expected[:, :places]), f"{order} {data_type}"


@pytest.mark.parametrize("scale,low,high", [(255, 0, 255), (127, -128, 127), (65535, 0, 65535),
                                            (32767, -32768, 32767), (31, 0, 31), (63, 0, 63), (1023, 0, 1023)])
def test_a_double_product_rounds_like_the_division(scale, low, high):
    """The texel code reads x / scale as float(double(x) * (1 / scale)): equal to the correctly
    rounded division for every stored value (llvm_image_texel._to_float)."""
    x = np.arange(low, high + 1)
    exact = x.astype(np.float32) / np.float32(scale)
    assert np.array_equal((x.astype(np.float64) * (1.0 / scale)).astype(np.float32), exact)
