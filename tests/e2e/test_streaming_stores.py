"""Streaming (non-temporal) stores to large write-only buffers (engine/streaming.py,
codegen/streaming_stores.py): every path against numpy, with the size threshold lowered so that
small buffers stream -- sizes that are not multiples of the vector width, the remainder group of a
ragged launch, offsets, sub-buffers at aligned and unaligned origins, small launches, several
element types, and the switch that turns it off."""
from __future__ import annotations

import numpy as np
import pytest

import loomcl as cl
from loomcl.engine import streaming

COPY = """kernel void copy(global const TYPE *in, global TYPE *out, int n)
{
    int i = get_global_id(0);
    if (i < n)
        out[i] = in[i] * (TYPE)3;
}"""
SCALE2D = """kernel void scale2d(global const float *in, global float *out, int width)
{
    int i = get_global_id(1) * width + get_global_id(0);
    out[i] = 2.0f * in[i];
}"""
THRESHOLD = 4096


@pytest.fixture(autouse=True)
def small_threshold(monkeypatch):
    monkeypatch.setattr(streaming, "min_bytes", lambda: THRESHOLD)


def copy_kernel(ctx, ctype="float", options=""):
    return cl.Program(ctx, COPY.replace("TYPE", ctype)).build(options=options).copy


def run_copy(ctx, queue, kernel, a, out_buffer, global_size, local_size, global_offset=None):
    in_buffer = cl.Buffer(ctx, cl.mem_flags.READ_ONLY | cl.mem_flags.COPY_HOST_PTR, hostbuf=a)
    kernel(queue, global_size, local_size, in_buffer, out_buffer, np.int32(a.size), global_offset=global_offset)
    queue.finish()


def read(queue, buffer, like):
    host = np.empty_like(like)
    cl.enqueue_copy(queue, host, buffer)
    queue.finish()
    return host


def streamed_launches(kernel) -> set:
    """The streamed-parameter tuples the kernel's work-group functions were specialized for."""
    return {key[-1] for key in kernel._functions}


@pytest.mark.parametrize("n, local", [(4096, 64), (4099, 64), (5000, 256), (1 << 16, None), (70000, 128)])
def test_copy_streams_and_is_exact(ctx, queue, rng, n, local):
    a = rng.random(n, dtype=np.float32)
    kernel = copy_kernel(ctx)
    out = cl.Buffer(ctx, cl.mem_flags.READ_WRITE, 4 * n)
    global_size = -(-n // 256) * 256 if local is None else n
    run_copy(ctx, queue, kernel, a, out, (global_size,), None if local is None else (local,))
    np.testing.assert_array_equal(read(queue, out, a), a * np.float32(3))
    if local is not None:
        assert streamed_launches(kernel) == {(1,)}


@pytest.mark.parametrize("ctype, dtype", [("double", np.float64), ("uchar", np.uint8), ("short", np.int16),
                                          ("int", np.int32), ("long", np.int64)])
def test_element_types(ctx, queue, rng, ctype, dtype):
    n = 12345
    a = (rng.random(n) * 40).astype(dtype)
    kernel = copy_kernel(ctx, ctype)
    out = cl.Buffer(ctx, cl.mem_flags.READ_WRITE, a.nbytes)
    run_copy(ctx, queue, kernel, a, out, (n,), (64,))
    np.testing.assert_array_equal(read(queue, out, a), (a * 3).astype(dtype))
    assert streamed_launches(kernel) == {(1,)}


def test_vector_stores(ctx, queue, rng):
    src = "kernel void v(global const float4 *in, global float4 *out) { size_t i = get_global_id(0); out[i] = in[i].wzyx + 1.0f; }"
    a = rng.random((3000, 4), dtype=np.float32)
    kernel = cl.Program(ctx, src).build().v
    in_buffer = cl.Buffer(ctx, cl.mem_flags.READ_ONLY | cl.mem_flags.COPY_HOST_PTR, hostbuf=a)
    out = cl.Buffer(ctx, cl.mem_flags.READ_WRITE, a.nbytes)
    kernel(queue, (3000,), (64,), in_buffer, out)
    np.testing.assert_array_equal(read(queue, out, a), a[:, ::-1] + np.float32(1))
    assert streamed_launches(kernel) == {(1,)}


@pytest.mark.parametrize("origin, streams", [(0, True), (64, True), (4, False), (4096 + 192, True)])
def test_sub_buffers(ctx, queue, rng, origin, streams):
    n = 3000
    a = rng.random(n, dtype=np.float32)
    whole = np.full(n + 2048, -1.0, np.float32)
    parent = cl.Buffer(ctx, cl.mem_flags.READ_WRITE | cl.mem_flags.COPY_HOST_PTR, hostbuf=whole)
    sub = parent.get_sub_region(origin, 4 * n + 2048) if origin else parent
    kernel = copy_kernel(ctx)
    run_copy(ctx, queue, kernel, a, sub, (n,), (64,))
    expected = whole.copy()
    expected[origin // 4:origin // 4 + n] = a * np.float32(3)
    np.testing.assert_array_equal(read(queue, parent, whole), expected)
    assert streamed_launches(kernel) == ({(1,)} if streams else {()})


@pytest.mark.parametrize("offset, streams", [(64, True), (128, True), (3, False), (100, False)])
def test_global_offsets(ctx, queue, rng, offset, streams):
    n = 4000
    a = rng.random(n, dtype=np.float32)
    kernel = copy_kernel(ctx)
    out = cl.Buffer(ctx, cl.mem_flags.READ_WRITE | cl.mem_flags.COPY_HOST_PTR, hostbuf=np.zeros(n, np.float32))
    run_copy(ctx, queue, kernel, a, out, (n - offset,), (64,), global_offset=(offset,))
    expected = np.zeros(n, np.float32)
    expected[offset:] = a[offset:] * np.float32(3)
    np.testing.assert_array_equal(read(queue, out, a), expected)
    assert streamed_launches(kernel) == ({(1,)} if streams else {()})


@pytest.mark.parametrize("n, local", [(1, 1), (16, 16), (64, 64), (100, 32)])
def test_small_launches_into_a_large_buffer(ctx, queue, rng, n, local):
    a = rng.random(n, dtype=np.float32)
    kernel = copy_kernel(ctx)
    out = cl.Buffer(ctx, cl.mem_flags.READ_WRITE | cl.mem_flags.COPY_HOST_PTR, hostbuf=np.zeros(2048, np.float32))
    run_copy(ctx, queue, kernel, a, out, (n,), (local,))
    np.testing.assert_array_equal(read(queue, out, np.zeros(2048, np.float32))[:n], a * np.float32(3))
    assert streamed_launches(kernel) == ({(1,)} if local % 64 == 0 else {()})


def test_small_buffers_do_not_stream(ctx, queue, rng):
    a = rng.random(512, dtype=np.float32)       # 2 KiB, under the threshold
    kernel = copy_kernel(ctx)
    out = cl.Buffer(ctx, cl.mem_flags.READ_WRITE, a.nbytes)
    run_copy(ctx, queue, kernel, a, out, (512,), (64,))
    np.testing.assert_array_equal(read(queue, out, a), a * np.float32(3))
    assert streamed_launches(kernel) == {()}


def test_arguments_changed_between_launches(ctx, queue, rng):
    """A small buffer after a large one: the launch must drop the streaming specialization."""
    kernel = copy_kernel(ctx)
    for n in (4096, 512, 8192):
        a = rng.random(n, dtype=np.float32)
        out = cl.Buffer(ctx, cl.mem_flags.READ_WRITE, a.nbytes)
        run_copy(ctx, queue, kernel, a, out, (n,), (64,))
        np.testing.assert_array_equal(read(queue, out, a), a * np.float32(3))
    assert streamed_launches(kernel) == {(1,), ()}


@pytest.mark.parametrize("width", [64, 100])
def test_two_dimensional(ctx, queue, rng, width):
    a = rng.random((40, width), dtype=np.float32)
    kernel = cl.Program(ctx, SCALE2D).build().scale2d
    in_buffer = cl.Buffer(ctx, cl.mem_flags.READ_ONLY | cl.mem_flags.COPY_HOST_PTR, hostbuf=a)
    out = cl.Buffer(ctx, cl.mem_flags.READ_WRITE, a.nbytes)
    local = (64, 1) if width % 64 == 0 else (4, 4)
    kernel(queue, (width, 40), local, in_buffer, out, np.int32(width))
    np.testing.assert_array_equal(read(queue, out, a), 2 * a)


def test_switched_off(ctx, queue, rng):
    a = rng.random(5000, dtype=np.float32)
    kernel = copy_kernel(ctx, options="-loomcl-no-streaming-stores")
    out = cl.Buffer(ctx, cl.mem_flags.READ_WRITE, a.nbytes)
    run_copy(ctx, queue, kernel, a, out, (5000,), (64,))
    np.testing.assert_array_equal(read(queue, out, a), a * np.float32(3))
    assert streamed_launches(kernel) == {()}


def test_read_back_buffers_never_stream(ctx, queue, rng):
    src = "kernel void axpy(global const float *x, global float *y) { int i = get_global_id(0); y[i] += 2.0f * x[i]; }"
    x, y = rng.random(5000, dtype=np.float32), rng.random(5000, dtype=np.float32)
    kernel = cl.Program(ctx, src).build().axpy
    mf = cl.mem_flags
    xb, yb = (cl.Buffer(ctx, mf.READ_WRITE | mf.COPY_HOST_PTR, hostbuf=h) for h in (x, y))
    kernel(queue, (5000,), (64,), xb, yb)
    np.testing.assert_allclose(read(queue, yb, y), y + 2 * x, rtol=1e-6)
    assert streamed_launches(kernel) == {()}
