"""The host API around real kernels: mapped buffers, rectangular copies, user events, program binaries."""
from __future__ import annotations

import numpy as np
import pytest

import loomcl as cl

mf = cl.mem_flags

SCALE = """
__kernel void scale(__global float *x, float factor) {
    size_t i = get_global_id(0);
    x[i] *= factor;
}
"""


def test_kernel_sees_mapped_writes_and_map_sees_kernel_writes(ctx, queue, rng):
    values = rng.random(256, dtype=np.float32)
    buf = cl.Buffer(ctx, mf.READ_WRITE, values.nbytes)
    array, _ = cl.enqueue_map_buffer(queue, buf, cl.map_flags.WRITE_INVALIDATE_REGION, 0, values.shape, np.float32)
    array[:] = values
    array.base.release(queue)
    prg = cl.Program(ctx, SCALE).build()
    prg.scale(queue, values.shape, None, buf, np.float32(3.0))
    result, _ = cl.enqueue_map_buffer(queue, buf, cl.map_flags.READ, 0, (16, 16), np.float32)
    with result.base:
        np.testing.assert_array_equal(result, (values * np.float32(3.0)).reshape(16, 16))


def test_program_from_binaries_builds_and_runs(ctx, queue, rng):
    source = """
    __kernel void affine(__global const float *x, __global float *y) {
        size_t i = get_global_id(0);
        y[i] = SCALE * x[i] + 1.0f;
    }
    """
    built = cl.Program(ctx, source).build(options="-D SCALE=2.5f")
    binaries = built.binaries
    assert built.binary_sizes == [len(binaries[0])]
    prg = cl.Program(ctx, ctx.devices, binaries).build()
    x = rng.random(300, dtype=np.float32)
    x_buf = cl.Buffer(ctx, mf.READ_ONLY | mf.COPY_HOST_PTR, hostbuf=x)
    y_buf = cl.Buffer(ctx, mf.WRITE_ONLY, x.nbytes)
    prg.affine(queue, x.shape, None, x_buf, y_buf)
    y = np.empty_like(x)
    cl.enqueue_copy(queue, y, y_buf)
    np.testing.assert_array_equal(y, np.float32(2.5) * x + np.float32(1.0))


def test_kernel_waits_for_a_completed_user_event(ctx, queue):
    event = cl.UserEvent(ctx)
    event.set_status(cl.command_execution_status.COMPLETE)
    values = np.arange(64, dtype=np.float32)
    buf = cl.Buffer(ctx, mf.READ_WRITE | mf.COPY_HOST_PTR, hostbuf=values)
    prg = cl.Program(ctx, SCALE).build()
    done = prg.scale(queue, values.shape, None, buf, np.float32(-2.0), wait_for=[event])
    out = np.empty_like(values)
    cl.enqueue_copy(queue, out, buf, wait_for=[done])
    np.testing.assert_array_equal(out, values * np.float32(-2.0))
    pending = cl.UserEvent(ctx)
    held = prg.scale(queue, values.shape, None, buf, np.float32(-2.0), wait_for=[pending])
    queue.flush()
    assert held.command_execution_status == cl.command_execution_status.QUEUED
    pending.set_status(cl.command_execution_status.COMPLETE)
    cl.enqueue_copy(queue, out, buf)  # in order: after the released launch
    np.testing.assert_array_equal(out, values * np.float32(4.0))


def test_rect_copies_around_a_2d_kernel(ctx, queue, rng):
    """Write a tile into a pitched buffer, square it in place with a 2-D kernel, read a block back."""
    width, height, pitch = 40, 24, 48  # floats per row; 8 floats of padding per row
    tile = rng.random((height, width), dtype=np.float32)
    buf = cl.Buffer(ctx, mf.READ_WRITE, pitch * height * 4)
    cl.enqueue_fill_buffer(queue, buf, np.float32(-1.0), 0, buf.size)
    cl.enqueue_copy(queue, buf, tile, buffer_origin=(0, 0), host_origin=(0, 0), region=(width * 4, height),
                    buffer_pitches=(pitch * 4,))
    prg = cl.Program(ctx, """
    __kernel void square(__global float *m, int pitch) {
        m[get_global_id(1) * pitch + get_global_id(0)] *= m[get_global_id(1) * pitch + get_global_id(0)];
    }""").build()
    prg.square(queue, (pitch, height), None, buf, np.int32(pitch))
    block = np.zeros((10, 12), np.float32)
    cl.enqueue_copy(queue, block, buf, buffer_origin=(5 * 4, 7), host_origin=(0, 0), region=(12 * 4, 10),
                    buffer_pitches=(pitch * 4,))
    np.testing.assert_array_equal(block, tile[7:17, 5:17] ** 2)
    padding = np.zeros((height, 8), np.float32)
    cl.enqueue_copy(queue, padding, buf, buffer_origin=(width * 4, 0), host_origin=(0, 0), region=(8 * 4, height),
                    buffer_pitches=(pitch * 4,))
    np.testing.assert_array_equal(padding, 1.0)  # (-1)^2: the tile's write left the padding alone
