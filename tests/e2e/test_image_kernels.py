"""Image kernels beyond single reads: get_image_* on every image type, write-then-read round trips of
every image type (1D buffer and arrays too), writes outside an image, images and samplers passed to
helper functions, and the runtime's argument checks and argument info."""
from __future__ import annotations

import numpy as np
import pytest

import loomcl as cl
from loomcl.abi.image import ADDRESS_CLAMP, ADDRESS_CLAMP_TO_EDGE, FILTER_LINEAR, FILTER_NEAREST
from loomcl.devlib.images import channels as C

from image_fixtures import StandInImage, StandInSampler
from image_reference import sample, texels

# image type -> (sizes, the int coordinate type, the lanes that index it)
IMAGES = {
    "image1d_t": (dict(width=11), "int", 1), "image1d_buffer_t": (dict(width=13), "int", 1),
    "image1d_array_t": (dict(width=7, array_size=3), "int2", 2), "image2d_t": (dict(width=6, height=5), "int2", 2),
    "image2d_array_t": (dict(width=5, height=4, array_size=3), "int4", 3),
    "image3d_t": (dict(width=4, height=3, depth=5), "int4", 3),
}

QUERIES = """
__kernel void k(__read_only {image} img, __global long *out) {{
    out[0] = get_image_width(img);
    out[1] = {height};
    out[2] = {depth};
    out[3] = {array_size};
    out[4] = get_image_channel_order(img);
    out[5] = get_image_channel_data_type(img);
    {dim}
}}
"""


@pytest.mark.parametrize("image_type", list(IMAGES))
def test_queries(run_kernel, image_type):
    sizes, _, _ = IMAGES[image_type]
    image = StandInImage(image_type, "RA", "SNORM_INT16", **sizes)
    two_d = image_type in ("image2d_t", "image2d_array_t", "image3d_t")
    src = QUERIES.format(
        image=image_type, height="get_image_height(img)" if two_d else "-1",
        depth="get_image_depth(img)" if image_type == "image3d_t" else "-1",
        array_size="get_image_array_size(img)" if image_type.endswith("array_t") else "-1",
        dim=("int4 d = get_image_dim(img); out[6] = d.x; out[7] = d.y; out[8] = d.z; out[9] = d.w;"
             if image_type == "image3d_t" else
             "int2 d = get_image_dim(img); out[6] = d.x; out[7] = d.y;" if two_d else ""))
    (out,) = run_kernel(src, "k", (1,), None, image, np.full(10, -7, np.int64))
    d = image.descriptor
    expected = [d.width, d.height if two_d else -1, d.depth if image_type == "image3d_t" else -1,
                d.array_size if image_type.endswith("array_t") else -1, C.RA, C.SNORM_INT16]
    expected += [d.width, d.height, d.depth, 0] if image_type == "image3d_t" else \
        [d.width, d.height, -7, -7] if two_d else [-7] * 4
    assert out.tolist() == expected


ROUND_TRIP = """
__kernel void write(__write_only {image} img) {{
    {coord} p = ({coord})({lanes});
    write_imageui(img, p, (uint4)(get_global_id(0), get_global_id(1), get_global_id(2), 7u));
}}
__kernel void read(__read_only {image} img, __global uint4 *out) {{
    {coord} p = ({coord})({lanes});
    out[(get_global_id(2) * get_global_size(1) + get_global_id(1)) * get_global_size(0) + get_global_id(0)]
        = read_imageui(img, p);
}}
"""


@pytest.mark.parametrize("image_type", list(IMAGES))
def test_write_then_read_back(ctx, queue, run_kernel, image_type):
    sizes, coord, dims = IMAGES[image_type]
    image = StandInImage(image_type, "RGBA", "UNSIGNED_INT16", **sizes, row_padding=6)
    d = image.descriptor
    shape = {1: [d.width, 1, 1], 2: [d.width, d.array_size if "array" in image_type else d.height, 1],
             3: [d.width, d.height, d.array_size if "array" in image_type else d.depth]}[dims]
    lanes = ", ".join([f"get_global_id({k})" for k in range(dims)] + ["0"] * (int(coord[-1]) - dims
                                                                            if coord != "int" else 0))
    src = ROUND_TRIP.format(image=image_type, coord=coord, lanes=lanes)
    run_kernel(src, "write", tuple(shape), None, image)
    total = int(np.prod(shape))
    (out,) = run_kernel(src, "read", tuple(shape), None, image, np.zeros((total, 4), np.uint32))
    z, y, x = np.meshgrid(*[np.arange(n) for n in shape[::-1]], indexing="ij")
    expected = np.stack([x.ravel(), y.ravel(), z.ravel(), np.full(total, 7)], 1)
    np.testing.assert_array_equal(out, expected)
    stored = texels(image, "ui")
    if image_type == "image1d_array_t":
        np.testing.assert_array_equal(stored[0, y.ravel(), x.ravel()], expected)
    else:
        np.testing.assert_array_equal(stored[z.ravel(), y.ravel(), x.ravel()], expected)


def test_writes_outside_the_image_store_nothing(run_kernel):
    image = StandInImage("image2d_t", "R", "FLOAT", 4, 3)
    image.components[...] = 5.0
    before = image.raw.copy()
    src = """__kernel void k(__write_only image2d_t img) {
        int i = get_global_id(0) - 8;
        write_imagef(img, (int2)(i, 1), (float4)(1.0f)); write_imagef(img, (int2)(1, i), (float4)(2.0f));
        write_imagef(img, (int2)(4, 0), (float4)(3.0f)); write_imagef(img, (int2)(-1, 0), (float4)(3.0f));
    }"""
    run_kernel(src, "k", (8,), None, image)
    assert np.array_equal(image.raw, before)


HELPERS = """
__constant sampler_t edge = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP_TO_EDGE | CLK_FILTER_NEAREST;

float4 at(__read_only image2d_t img, sampler_t s, float2 p) { return read_imagef(img, s, p); }
float4 twice(__read_only image2d_t img, sampler_t s, float2 p) { return at(img, s, p) * 2.0f; }
void put(__write_only image2d_t img, int2 p, float4 c) { write_imagef(img, p, c); }

__kernel void k(__read_only image2d_t img, sampler_t smp, __write_only image2d_t out,
                __global const float2 *coords, __global float4 *got) {
    const sampler_t linear = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP | CLK_FILTER_LINEAR;
    size_t i = get_global_id(0);
    got[3 * i] = twice(img, edge, coords[i]);
    got[3 * i + 1] = at(img, smp, coords[i]);
    got[3 * i + 2] = at(img, linear, coords[i]);
    put(out, (int2)(i, 0), got[3 * i]);
}
"""


def test_images_and_samplers_flow_through_helper_functions(run_kernel, rng):
    image = StandInImage("image2d_t", "RGBA", "UNORM_INT16", 6, 5)
    image.fill_random(rng)
    out = StandInImage("image2d_t", "RGBA", "FLOAT", 40, 1)
    coords = rng.uniform(-2, 8, (40, 2)).astype(np.float32)
    argument = StandInSampler(False, ADDRESS_CLAMP, FILTER_NEAREST)
    _, got = run_kernel(HELPERS, "k", (40,), None, image, argument, out, coords, np.zeros((120, 4), np.float32))
    edge = StandInSampler(False, ADDRESS_CLAMP_TO_EDGE, FILTER_NEAREST).bits
    np.testing.assert_array_equal(got[0::3], 2 * sample(image, "f", edge, coords))
    np.testing.assert_array_equal(got[1::3], sample(image, "f", argument.bits, coords))
    linear = StandInSampler(False, ADDRESS_CLAMP, FILTER_LINEAR).bits
    np.testing.assert_allclose(got[2::3], sample(image, "f", linear, coords), atol=2e-6)
    np.testing.assert_array_equal(out.components[0, 0], got[0::3])


ARGUMENTS = "__kernel void k(__read_only image2d_t img, sampler_t s, __write_only image3d_t out) {}"


def test_arguments_are_checked(ctx):
    kernel = cl.Program(ctx, ARGUMENTS).build().k
    with pytest.raises(cl.LogicError, match="expects an image2d_t image, not an image3d_t one"):
        kernel.set_arg(0, StandInImage("image3d_t", "R", "FLOAT", 2, 2, 2))
    with pytest.raises(cl.LogicError, match=r"argument 0 \('img' of type __read_only image2d_t\) expects an Image"):
        kernel.set_arg(0, np.zeros(4, np.float32))
    with pytest.raises(cl.LogicError, match="expects a Sampler"):
        kernel.set_arg(1, 3)
    kernel.set_arg(0, StandInImage("image2d_t", "R", "FLOAT", 2, 2))
    kernel.set_arg(1, StandInSampler(True, ADDRESS_CLAMP, FILTER_LINEAR))
    kernel.set_arg(2, StandInImage("image3d_t", "R", "FLOAT", 2, 2, 2))


def test_argument_info(ctx):
    kernel = cl.Program(ctx, ARGUMENTS).build(options="-cl-kernel-arg-info").k
    info, A, Q = cl.kernel_arg_info, cl.kernel_arg_access_qualifier, cl.kernel_arg_address_qualifier
    got = [(kernel.get_arg_info(i, info.TYPE_NAME), kernel.get_arg_info(i, info.ACCESS_QUALIFIER),
            kernel.get_arg_info(i, info.ADDRESS_QUALIFIER)) for i in range(3)]
    assert got == [("image2d_t", A.READ_ONLY, Q.GLOBAL), ("sampler_t", A.NONE, Q.PRIVATE),
                   ("image3d_t", A.WRITE_ONLY, Q.GLOBAL)]
