"""Sampled reads of every image type through every addressing mode, with normalized and unnormalized
coordinates and nearest and linear filtering, against the numpy model (image_reference.py): the
sampler as a program-scope constant (specialized code) and as a kernel argument (the dispatcher).
Nearest results are exact; linear ones within 2e-6 of the model's float64 weighted sum."""
from __future__ import annotations

import numpy as np
import pytest

from loomcl.abi.image import (
    ADDRESS_CLAMP, ADDRESS_CLAMP_TO_EDGE, ADDRESS_MIRRORED_REPEAT, ADDRESS_NONE, ADDRESS_REPEAT, FILTER_LINEAR,
    FILTER_NEAREST,
)

from image_fixtures import StandInImage, StandInSampler
from image_reference import sample

# image type -> (size arguments, coordinate lanes)
SHAPES = {"image1d_t": ((9,), 1), "image1d_array_t": ((7, 1, 1, 3), 2), "image2d_t": ((7, 5), 2),
          "image2d_array_t": ((6, 5, 1, 3), 4), "image3d_t": ((5, 4, 3), 4)}
_COORD = {1: "float", 2: "float2", 4: "float4"}
_ICOORD = {1: "int", 2: "int2", 4: "int4"}
ADDRESSING = {"none": ADDRESS_NONE, "clamp_to_edge": ADDRESS_CLAMP_TO_EDGE, "clamp": ADDRESS_CLAMP,
              "repeat": ADDRESS_REPEAT, "mirrored_repeat": ADDRESS_MIRRORED_REPEAT}
_CLK_ADDRESS = {ADDRESS_NONE: "CLK_ADDRESS_NONE", ADDRESS_CLAMP_TO_EDGE: "CLK_ADDRESS_CLAMP_TO_EDGE",
                ADDRESS_CLAMP: "CLK_ADDRESS_CLAMP", ADDRESS_REPEAT: "CLK_ADDRESS_REPEAT",
                ADDRESS_MIRRORED_REPEAT: "CLK_ADDRESS_MIRRORED_REPEAT"}

CONSTANT = """
__constant sampler_t smp = SAMPLER;
__kernel void k(__read_only {image} img, __global const {coord} *coords, __global {vec} *out) {{
    size_t i = get_global_id(0);
    out[i] = read_image{kind}(img, smp, coords[i]);
}}
"""

ARGUMENT = """
__kernel void k(__read_only {image} img, sampler_t smp, __global const {coord} *coords, __global {vec} *out) {{
    size_t i = get_global_id(0);
    out[i] = read_image{kind}(img, smp, coords[i]);
}}
"""

CASES = [(a, n, f) for a in ADDRESSING for n in (False, True) for f in ("nearest", "linear")
         if n or ADDRESSING[a] not in (ADDRESS_REPEAT, ADDRESS_MIRRORED_REPEAT)]


def _image(image_type: str, rng, data_type="UNORM_INT8") -> StandInImage:
    size, _ = SHAPES[image_type]
    names = ("width", "height", "depth", "array_size")
    image = StandInImage(image_type, "RGBA", data_type, **dict(zip(names, size)), row_padding=4)
    image.fill_random(rng)
    return image


def _coordinates(image: StandInImage, normalized: bool, rng, n: int = 300) -> np.ndarray:
    """Random coordinates reaching past every edge, texel centers and edges, per lane."""
    d = image.descriptor
    lanes = SHAPES[image.image_type][1]
    limits = [d.width, d.height, d.depth][:{"image1d_t": 1, "image1d_array_t": 1, "image2d_t": 2,
                                             "image2d_array_t": 2, "image3d_t": 3}[image.image_type]]
    coords = np.zeros((n, lanes), np.float32)
    for k, size in enumerate(limits):
        if normalized:
            values = rng.uniform(-1.6, 2.6, n)
            values[:40] = np.arange(-10, 30) / (2 * size)  # edges and centers
        else:
            values = rng.uniform(-3, size + 3, n)
            values[:40] = np.arange(-10, 30) * 0.5
        coords[:, k] = values
    if image.image_type.endswith("array_t"):
        coords[:, len(limits)] = rng.uniform(-1.7, d.array_size + 0.7, n)
        coords[:5, len(limits)] = [0.5, 1.5, 2.5, -0.5, 1.49]  # rint: ties to even
    return coords[:, 0].copy() if lanes == 1 else coords


def _check(result, expected, linear):
    if linear:
        np.testing.assert_allclose(result, expected, rtol=0, atol=2e-6)
    else:
        np.testing.assert_array_equal(result, expected)


@pytest.mark.parametrize("image_type", list(SHAPES))
@pytest.mark.parametrize("addressing,normalized,filtering", CASES)
def test_constant_sampler(run_kernel, rng, image_type, addressing, normalized, filtering):
    image = _image(image_type, rng)
    coords = _coordinates(image, normalized, rng)
    mode = ADDRESSING[addressing]
    flags = (f"{'CLK_NORMALIZED_COORDS_TRUE' if normalized else 'CLK_NORMALIZED_COORDS_FALSE'}|"
             f"{_CLK_ADDRESS[mode]}|CLK_FILTER_{filtering.upper()}")
    src = CONSTANT.format(image=image_type, coord=_COORD[SHAPES[image_type][1]], vec="float4", kind="f")
    out = np.zeros((len(coords), 4), np.float32)
    _, result = run_kernel(src, "k", (len(coords),), None, image, coords, out, options=f"-D SAMPLER={flags}")
    bits = StandInSampler(normalized, mode, FILTER_LINEAR if filtering == "linear" else FILTER_NEAREST).bits
    _check(result, sample(image, "f", bits, coords), filtering == "linear")


@pytest.mark.parametrize("image_type", list(SHAPES))
def test_argument_sampler(run_kernel, rng, image_type):
    """One kernel, every sampler: the bits are tested at run time."""
    image = _image(image_type, rng)
    src = ARGUMENT.format(image=image_type, coord=_COORD[SHAPES[image_type][1]], vec="float4", kind="f")
    for addressing, normalized, filtering in CASES:
        coords = _coordinates(image, normalized, rng, 120)
        mode = ADDRESSING[addressing]
        sampler = StandInSampler(normalized, mode, FILTER_LINEAR if filtering == "linear" else FILTER_NEAREST)
        out = np.zeros((len(coords), 4), np.float32)
        _, result = run_kernel(src, "k", (len(coords),), None, image, sampler, coords, out)
        _check(result, sample(image, "f", sampler.bits, coords), filtering == "linear")


@pytest.mark.parametrize("image_type", list(SHAPES))
@pytest.mark.parametrize("addressing", ["none", "clamp_to_edge", "clamp"])
def test_integer_coordinates_and_integer_reads(run_kernel, rng, image_type, addressing):
    """read_imagei with a sampler and int coordinates (unnormalized, nearest, as OpenCL requires),
    inside and outside the image; also through a sampler argument."""
    image = _image(image_type, rng, "SIGNED_INT16")
    lanes = SHAPES[image_type][1]
    coords = rng.integers(-3, 10, (200, lanes)).astype(np.int32)
    coords = coords[:, 0].copy() if lanes == 1 else coords
    mode = ADDRESSING[addressing]
    bits = StandInSampler(False, mode, FILTER_NEAREST).bits
    expected = sample(image, "i", bits, coords)
    src = CONSTANT.format(image=image_type, coord=_ICOORD[lanes], vec="int4", kind="i")
    out = np.zeros((len(coords), 4), np.int32)
    flags = f"CLK_NORMALIZED_COORDS_FALSE|{_CLK_ADDRESS[mode]}|CLK_FILTER_NEAREST"
    _, result = run_kernel(src, "k", (len(coords),), None, image, coords, out, options=f"-D SAMPLER={flags}")
    np.testing.assert_array_equal(result, expected)
    src = ARGUMENT.format(image=image_type, coord=_ICOORD[lanes], vec="int4", kind="i")
    _, result = run_kernel(src, "k", (len(coords),), None, image, StandInSampler(False, mode, FILTER_NEAREST),
                           coords, out)
    np.testing.assert_array_equal(result, expected)


class _Bits:
    def __init__(self, bits: int) -> None:
        self.bits = bits


def test_argument_sampler_without_a_filter_or_mode(run_kernel, rng):
    """Bits 0 (unnormalized, CLK_ADDRESS_NONE, no filter named) read as nearest, clamped to the edge."""
    image = _image("image2d_t", rng)
    coords = _coordinates(image, False, rng, 100)
    src = ARGUMENT.format(image="image2d_t", coord="float2", vec="float4", kind="f")
    _, result = run_kernel(src, "k", (len(coords),), None, image, _Bits(0), coords, np.zeros((100, 4), np.float32))
    np.testing.assert_array_equal(result, sample(image, "f", StandInSampler(False, ADDRESS_CLAMP_TO_EDGE,
                                                                            FILTER_NEAREST).bits, coords))
