"""The image code compiled without the launch's formats (the generic helpers, which dispatch on the
descriptor's format per texel; the runtime always specializes for its images' formats): every
format read and written, and sampled reads through a sampler argument, run natively on one thread."""
from __future__ import annotations

import ctypes

import numpy as np
import pytest

from loomcl.abi import kernel as abi
from loomcl.abi.image import ADDRESS_CLAMP, ADDRESS_MIRRORED_REPEAT, FILTER_LINEAR, FILTER_NEAREST
from loomcl.devlib.images import channels as C
from loomcl.driver.compiler import build

from image_fixtures import SPEC_FORMATS, StandInImage, StandInSampler
from image_reference import encode, sample, texels
from test_image_formats import READ, WRITE, _VEC, _DTYPE, _colors, _same
from test_image_sampling import ARGUMENT, _coordinates, _image

LOCAL = (4, 2, 1)


def _run(source: str, args, global_size) -> None:
    """Every group of an NDRange divisible by LOCAL, on this thread, through the generic code."""
    compiled = build(source).work_group_function("k", LOCAL)
    groups = [g // l for g, l in zip(tuple(global_size) + (1,) * (3 - len(global_size)), LOCAL)]
    info = abi.LaunchInfo()
    info.work_dim = len(global_size)
    for d in range(3):
        info.global_size[d] = groups[d] * LOCAL[d]
        info.enqueued_local_size[d] = LOCAL[d]
        info.num_groups[d] = info.region_groups[d] = groups[d]
    slots = np.array([a.ctypes.data if isinstance(a, np.ndarray) else
                      ctypes.addressof(a.descriptor) if hasattr(a, "descriptor") else a.bits for a in args], np.uint64)
    arena = np.zeros(compiled.static_local_bytes + 2 * abi.LOCAL_ALIGN, np.uint8)
    arena_address = -(-arena.ctypes.data // abi.LOCAL_ALIGN) * abi.LOCAL_ALIGN
    abi.ENTRY_CTYPE(compiled.address)(slots.ctypes.data, ctypes.addressof(info), 0, int(np.prod(groups)),
                                      arena_address)


@pytest.mark.parametrize("kind", ["f", "i", "ui"])
def test_every_format_through_the_generic_code(rng, kind):
    for order, data_type in SPEC_FORMATS:
        image = StandInImage("image2d_t", order, data_type, 8, 4, row_padding=3)
        if image.kind != kind:
            continue
        image.fill_random(rng)
        out = np.zeros((32, 4), _DTYPE[kind])
        _run(READ.format(vec=_VEC[kind], kind=kind), [image, out], (8, 4))
        expected = texels(image, kind)[0].reshape(-1, 4)
        assert _same(out, expected.astype(_DTYPE[kind]) if kind == "f" else expected), f"{order} {data_type}"
        colors = _colors(kind, rng, 32)
        _run(WRITE.format(vec=_VEC[kind], kind=kind), [image, colors], (8, 4))
        places = 1 if image.data_type in C.PACKED else len(C.RGBA_TO_ORDER[image.order])  # x: not written
        stored = image.components[0].reshape(-1, image.channels)[:, :places]
        assert _same(stored, encode(image, kind, colors)[:, :places]), f"{order} {data_type}"


def test_sampled_reads_through_the_generic_code(rng):
    image = _image("image2d_t", rng)
    src = ARGUMENT.format(image="image2d_t", coord="float2", vec="float4", kind="f")
    for mode in (ADDRESS_CLAMP, ADDRESS_MIRRORED_REPEAT):
        for filtering in (FILTER_NEAREST, FILTER_LINEAR):
            sampler = StandInSampler(True, mode, filtering)
            coords = _coordinates(image, True, rng, 64)
            out = np.zeros((64, 4), np.float32)
            _run(src, [image, sampler, coords, out], (64, 2))  # rows 0 and 1 read alike
            np.testing.assert_allclose(out, sample(image, "f", sampler.bits, coords), atol=2e-6)
