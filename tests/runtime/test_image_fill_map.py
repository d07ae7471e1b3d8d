"""enqueue_fill_image (the color converted as write_image converts it; expected bytes computed here
with Python's own rounding and struct packing) and enqueue_map_image (zero-copy, pitched, unmapped
through the array's base)."""
import math
import struct

import numpy as np
import pytest

import loomcl as cl

mf = cl.mem_flags
mapf = cl.map_flags
co, ct = cl.channel_order, cl.channel_type


def sat_round(value, scale, low, high):
    """convert_<type>_sat_rte(value * scale) with Python's round (ties to even)."""
    if math.isnan(value):
        return 0
    scaled = float(np.float32(value) * np.float32(scale))
    return max(low, min(high, round(scaled)))


unorm8 = lambda v: sat_round(v, 255, 0, 255)  # noqa: E731
snorm8 = lambda v: sat_round(v, 127, -128, 127)  # noqa: E731
unorm16 = lambda v: sat_round(v, 65535, 0, 65535)  # noqa: E731
snorm16 = lambda v: sat_round(v, 32767, -32768, 32767)  # noqa: E731
FLOATS = [0.5, 1.2, -0.1, 0.2509804]
SIGNED = [300, -300, 5, -5]
R, G, B, A = FLOATS

FILLS = [  # (order, type, color, expected bytes of one pixel)
    (co.RGBA, ct.UNORM_INT8, FLOATS, bytes([128, 255, 0, 64])),
    (co.BGRA, ct.UNORM_INT8, FLOATS, bytes([unorm8(B), unorm8(G), unorm8(R), unorm8(A)])),
    (co.ARGB, ct.UNORM_INT8, FLOATS, bytes([unorm8(A), unorm8(R), unorm8(G), unorm8(B)])),
    (co.RGBA, ct.SNORM_INT8, [-1.0, 0.5, 2.0, -0.3], struct.pack("4b", -127, 64, 127, -38)),
    (co.RG, ct.UNORM_INT16, [0.25, float("nan"), 0, 0], struct.pack("<2H", 16384, 0)),
    (co.RA, ct.SNORM_INT16, [-2.0, 9, 9, 0.5], struct.pack("<2h", -32768, snorm16(0.5))),
    (co.R, ct.FLOAT, [3.25, 1, 2, 3], struct.pack("<f", 3.25)),
    (co.A, ct.UNORM_INT8, FLOATS, bytes([64])),
    (co.INTENSITY, ct.HALF_FLOAT, [1.0 / 3, 0, 0, 0], struct.pack("<e", 1.0 / 3)),
    (co.LUMINANCE, ct.UNORM_INT16, [0.75, 0, 0, 0], struct.pack("<H", unorm16(0.75))),
    (co.RGBA, ct.HALF_FLOAT, [1.0, -2.5, 65504.0, 1e-8], struct.pack("<4e", 1.0, -2.5, 65504.0, 1e-8)),
    (co.RGBA, ct.FLOAT, [1.5, -0.0, float("inf"), 7], struct.pack("<4f", 1.5, -0.0, float("inf"), 7)),
    (co.RGBA, ct.SIGNED_INT8, SIGNED, struct.pack("4b", 127, -128, 5, -5)),
    (co.RGBA, ct.SIGNED_INT16, [70000, -70000, 1, -1], struct.pack("<4h", 32767, -32768, 1, -1)),
    (co.RG, ct.SIGNED_INT32, [-(1 << 31), (1 << 31) - 1, 0, 0], struct.pack("<2i", -(1 << 31), (1 << 31) - 1)),
    (co.RGBA, ct.UNSIGNED_INT8, np.array([256, 3, 0, 255], np.uint32), bytes([255, 3, 0, 255])),
    (co.RGBA, ct.UNSIGNED_INT16, [70000, 3, 0, 65535], struct.pack("<4H", 65535, 3, 0, 65535)),
    (co.R, ct.UNSIGNED_INT32, [(1 << 32) - 1, 0, 0, 0], struct.pack("<I", (1 << 32) - 1)),
    (co.RGB, ct.UNORM_SHORT_565, [1.0, 0.5, 0.0, 0.3], struct.pack("<H", 31 << 11 | 32 << 5 | 0)),
    (co.RGBx, ct.UNORM_SHORT_555, [0.1, 0.9, 1.5, 0], struct.pack("<H", 3 << 10 | 28 << 5 | 31)),
    (co.RGB, ct.UNORM_INT_101010, [1.0, -1.0, 0.5, 0], struct.pack("<I", 1023 << 20 | 0 << 10 | 512)),
    (co.Rx, ct.SNORM_INT8, [0.5, 0, 0, 0], struct.pack("b", 64)),
    (co.RGx, ct.UNORM_INT8, cl.cltypes.make_float4(0.2, 0.4, 0, 0), bytes([unorm8(0.2), unorm8(0.4)])),
]


@pytest.mark.parametrize(("order", "data_type", "color", "pixel"), FILLS,
                         ids=[f"{co.to_string(o)}-{ct.to_string(t)}" for o, t, _, _ in FILLS])
def test_fill_image_converts_the_color(ctx, queue, order, data_type, color, pixel):
    fmt = cl.ImageFormat(order, data_type)
    assert len(pixel) == fmt.itemsize
    img = cl.Image(ctx, mf.READ_WRITE, fmt, shape=(6, 4))
    event = cl.enqueue_fill_image(queue, img, color, (1, 2), (4, 2))
    assert event.command_type == cl.command_type.FILL_IMAGE
    out = np.zeros((4, 6 * fmt.itemsize), np.uint8)
    cl.enqueue_copy(queue, out, img, origin=(0, 0), region=(6, 4))
    expected = np.zeros_like(out)
    expected[2:4, fmt.itemsize:5 * fmt.itemsize] = np.tile(np.frombuffer(pixel, np.uint8), 4)
    np.testing.assert_array_equal(out, expected)


def test_fill_3d_and_array_regions(ctx, queue):
    fmt = cl.ImageFormat(co.R, ct.UNSIGNED_INT16)
    img = cl.Image(ctx, mf.READ_WRITE, fmt, shape=(5, 4, 3))
    cl.enqueue_fill_image(queue, img, [9, 0, 0, 0], (1, 1, 1), (3, 2, 2))
    out = np.zeros((3, 4, 5), np.uint16)
    cl.enqueue_copy(queue, out, img, origin=(0, 0, 0), region=(5, 4, 3))
    expected = np.zeros_like(out)
    expected[1:3, 1:3, 1:4] = 9
    np.testing.assert_array_equal(out, expected)
    layers = cl.Image(ctx, mf.READ_WRITE, fmt, shape=(5, 4), is_array=True)  # 4 layers of 5
    cl.enqueue_fill_image(queue, layers, [7, 0, 0, 0], (2, 1), (2, 2))
    out = np.zeros((4, 5), np.uint16)
    cl.enqueue_copy(queue, out, layers, origin=(0, 0), region=(5, 4))
    expected = np.zeros_like(out)
    expected[1:3, 2:4] = 7
    np.testing.assert_array_equal(out, expected)


def test_fill_with_raw_color_bytes(ctx, queue):
    """The C API's fill_color: 16 bytes of a float4, int4 or uint4, as the format takes."""
    for fmt, color, pixel in ((cl.ImageFormat(co.RG, ct.UNORM_INT8), struct.pack("<4f", 0.2, 1, 0, 0),
                               bytes([unorm8(0.2), 255])),
                              (cl.ImageFormat(co.R, ct.SIGNED_INT16), struct.pack("<4i", -40000, 0, 0, 0),
                               struct.pack("<h", -32768)),
                              (cl.ImageFormat(co.RA, ct.UNSIGNED_INT32), struct.pack("<4I", 1 << 31, 0, 0, 9),
                               struct.pack("<2I", 1 << 31, 9))):
        img = cl.Image(ctx, mf.READ_WRITE, fmt, shape=(3,))
        cl.enqueue_fill_image(queue, img, memoryview(color), (1,), (2,))
        out = np.zeros(3 * fmt.itemsize, np.uint8)
        cl.enqueue_copy(queue, out, img, origin=(0,), region=(3,))
        assert out.tobytes() == bytes(fmt.itemsize) + pixel * 2


def test_fill_errors(ctx, queue):
    img = cl.Image(ctx, mf.READ_WRITE, cl.ImageFormat(co.RGBA, ct.SIGNED_INT32), shape=(4, 4))
    with pytest.raises(cl.LogicError, match="color must hold 4 values"):
        cl.enqueue_fill_image(queue, img, [1, 2, 3], (0, 0), (1, 1))
    with pytest.raises(cl.LogicError, match=r"color for a SIGNED_INT32 image must be 4 integers of a int4, got \[0.5"):
        cl.enqueue_fill_image(queue, img, [0.5, 0, 0, 0], (0, 0), (1, 1))
    with pytest.raises(cl.LogicError, match="must be 4 integers of a int4"):
        cl.enqueue_fill_image(queue, img, [1 << 31, 0, 0, 0], (0, 0), (1, 1))
    with pytest.raises(cl.LogicError, match="leaves the image along y: 3 \\+ 2 > 4"):
        cl.enqueue_fill_image(queue, img, [1, 2, 3, 4], (0, 3), (1, 2))


def test_map_image_round_trip(ctx, queue):
    fmt = cl.ImageFormat(co.RGBA, ct.UNSIGNED_INT8)
    pixels = np.arange(4 * 6 * 4, dtype=np.uint8).reshape(4, 6, 4)  # (y, x, channel)
    img = cl.Image(ctx, mf.READ_WRITE | mf.COPY_HOST_PTR, fmt, shape=(6, 4), hostbuf=pixels)
    array, event, row_pitch, slice_pitch = cl.enqueue_map_image(
        queue, img, mapf.READ | mapf.WRITE, (1, 2), (3, 2), (2, 3, 4), np.uint8, strides=(img.row_pitch, 4, 1))
    assert event.command_type == cl.command_type.MAP_IMAGE
    assert (row_pitch, slice_pitch, img.map_count) == (24, 0, 1)
    np.testing.assert_array_equal(array, pixels[2:4, 1:4])
    array[...] = 200  # writes land in the image
    assert isinstance(array.base, cl.MemoryMap)
    array.base.release()
    assert img.map_count == 0
    out = np.zeros_like(pixels)
    cl.enqueue_copy(queue, out, img, origin=(0, 0), region=(6, 4))
    pixels[2:4, 1:4] = 200
    np.testing.assert_array_equal(out, pixels)
    with pytest.raises(cl.LogicError, match="already released"):
        array.base.release()


def test_map_image_3d_read_only(ctx, queue):
    fmt = cl.ImageFormat(co.R, ct.FLOAT)
    values = np.arange(3 * 4 * 5, dtype=np.float32).reshape(3, 4, 5)
    img = cl.Image(ctx, mf.READ_ONLY | mf.COPY_HOST_PTR, fmt, shape=(5, 4, 3), hostbuf=values)
    array, _, row_pitch, slice_pitch = cl.enqueue_map_image(
        queue, img, mapf.READ, (1, 1, 1), (4, 3, 2), (2, 3, 4), np.float32, strides=(80, 20, 4))
    assert (row_pitch, slice_pitch) == (20, 80)
    np.testing.assert_array_equal(array, values[1:3, 1:4, 1:5])
    assert not array.flags.writeable
    with array.base:
        pass
    assert img.map_count == 0


def test_map_image_errors(ctx, queue):
    img = cl.Image(ctx, mf.READ_WRITE, cl.ImageFormat(co.RGBA, ct.UNSIGNED_INT8), shape=(6, 4))
    array, *_ = cl.enqueue_map_image(queue, img, mapf.READ, (3, 2), (3, 2), (2, 3, 4), np.uint8)  # 24 of 36 bytes
    array.base.release()
    with pytest.raises(cl.LogicError, match=r"shape \(2, 6, 4\) of uint8 with strides \(24, 4, 1\) spans 48 bytes; "
                                            r"region \(3, 2, 1\) from origin \(3, 2\) covers 36 \(row pitch 24\)"):
        cl.enqueue_map_image(queue, img, mapf.READ, (3, 2), (3, 2), (2, 6, 4), np.uint8)
    with pytest.raises(cl.LogicError, match="leaves the image along x"):
        cl.enqueue_map_image(queue, img, mapf.READ, (4, 0), (3, 1), (12,), np.uint8)
    no_host = cl.Image(ctx, mf.READ_WRITE | mf.HOST_NO_ACCESS, cl.ImageFormat(co.R, ct.FLOAT), shape=(2, 2))
    with pytest.raises(cl.LogicError, match="clEnqueueMapImage failed: INVALID_OPERATION"):
        cl.enqueue_map_image(queue, no_host, mapf.READ, (0, 0), (1, 1), (1,), np.float32)
