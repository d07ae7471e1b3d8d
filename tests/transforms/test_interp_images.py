"""Image code in the test interpreter: the work-item form (the differential tests' reference) and the
work-group form of the pipeline give what native code gives, for reads through constant and
argument samplers, writes, queries and an image passed to a helper, across a barrier (the
descriptor pointer is a uniform value the work-group transforms keep in one scalar)."""
import os
import sys

import numpy as np

import loomcl as cl
from loomcl.abi.image import ADDRESS_CLAMP, FILTER_LINEAR
from loomcl.driver.compiler import build
from loomcl.ir import instructions as ins

from . import interp

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "e2e"))
from image_fixtures import StandInImage, StandInSampler  # noqa: E402

SOURCE = """
__constant sampler_t nearest = CLK_NORMALIZED_COORDS_TRUE | CLK_ADDRESS_REPEAT | CLK_FILTER_NEAREST;

float4 fetch(__read_only image2d_t img, sampler_t s, float2 at) { return read_imagef(img, s, at); }

__kernel void k(__read_only image2d_t img, sampler_t smp, __write_only image2d_t out,
                __global float4 *colors, __global int *sizes, __local float4 *scratch) {
    int x = get_global_id(0), y = get_global_id(1);
    float2 at = (float2)((x + 0.3f) / 5.0f, (y - 0.6f) / 3.0f);
    float4 c = fetch(img, nearest, at) + read_imagef(img, smp, at * 2.0f);
    int l = get_local_id(1) * get_local_size(0) + get_local_id(0);
    scratch[l] = c;
    barrier(CLK_LOCAL_MEM_FENCE);
    c = scratch[get_local_size(0) * get_local_size(1) - 1 - l];
    colors[y * 8 + x] = c;
    write_imagef(out, (int2)(x - 1, y), c * 0.5f);
    if (x == 0 && y == 0) {
        sizes[0] = get_image_width(img); sizes[1] = get_image_height(out);
        sizes[2] = get_image_channel_order(img); sizes[3] = get_image_channel_data_type(out);
    }
}
"""


def _inputs():
    rng = np.random.default_rng(5)
    image = StandInImage("image2d_t", "RGBA", "UNORM_INT8", 5, 3, row_padding=2)
    image.fill_random(rng)
    out = StandInImage("image2d_t", "BGRA", "UNORM_INT8", 8, 4)
    sampler = StandInSampler(False, ADDRESS_CLAMP, FILTER_LINEAR)
    return image, sampler, out, np.zeros((32, 4), np.float32), np.zeros(4, np.int32)


def _native():
    image, sampler, out, colors, sizes = _inputs()
    ctx = cl.create_some_context()
    queue = cl.CommandQueue(ctx)
    mf = cl.mem_flags
    c_buf = cl.Buffer(ctx, mf.READ_WRITE | mf.COPY_HOST_PTR, hostbuf=colors)
    s_buf = cl.Buffer(ctx, mf.READ_WRITE | mf.COPY_HOST_PTR, hostbuf=sizes)
    cl.Program(ctx, SOURCE).build().k(queue, (8, 4), (4, 2), image, sampler, out, c_buf, s_buf,
                                      cl.LocalMemory(8 * 16))
    cl.enqueue_copy(queue, colors, c_buf)
    cl.enqueue_copy(queue, sizes, s_buf)
    queue.finish()
    return out.components.copy(), colors, sizes


def _check(result, native):
    out, colors, sizes = result
    np.testing.assert_array_equal(sizes, native[2])
    np.testing.assert_allclose(colors, native[1], atol=2e-6)
    assert np.abs(out.astype(int) - native[0].astype(int)).max() <= 1  # a linear sum's last bit may round


def test_the_work_item_interpreter_runs_image_code():
    program = build(SOURCE)
    image, sampler, out, colors, sizes = _inputs()
    scratch = np.zeros(8 * 4, np.float32)
    interp.run_work_items(program.module.functions["k"], [image, sampler.bits, out, colors, sizes, scratch],
                          (2, 2), (4, 2), checked=True)
    _check((out.components, colors, sizes), _native())


def test_the_work_group_form_runs_image_code():
    program = build(SOURCE)
    f = program.work_group_ir("k", (4, 2, 1))
    in_loops = {b for loop in f.work_item_loops for b in loop.blocks}
    queries = [i for i in f.instructions() if isinstance(i, ins.ImageQuery)]
    assert queries and all(i.block not in in_loops for i in queries)  # uniform: once per group
    image, sampler, out, colors, sizes = _inputs()
    scratch = np.zeros(8 * 4, np.float32)
    interp.run_work_groups(f, [image, sampler.bits, out, colors, sizes, scratch], (2, 2))
    _check((out.components, colors, sizes), _native())
