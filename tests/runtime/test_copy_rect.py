"""Rectangular enqueue_copy (Read/Write/CopyBufferRect) against a byte-loop reference of the spec."""
import numpy as np
import pytest

import loomcl as cl

mf = cl.mem_flags


def reference(dst: bytearray, src: bytes, src_origin, dst_origin, region, src_pitches, dst_pitches) -> None:
    """OpenCL's definition, row by row: offset = z * slice_pitch + y * row_pitch + x."""
    region = tuple(region) + (1,) * (3 - len(region))

    def packed(pitches):
        row = pitches[0] if pitches and pitches[0] else region[0]
        slice_ = pitches[1] if pitches and len(pitches) > 1 and pitches[1] else region[1] * row
        return row, slice_

    (srow, sslice), (drow, dslice) = packed(src_pitches), packed(dst_pitches)
    so = tuple(src_origin) + (0,) * (3 - len(src_origin))
    do = tuple(dst_origin) + (0,) * (3 - len(dst_origin))
    for z in range(region[2]):
        for y in range(region[1]):
            s = (so[2] + z) * sslice + (so[1] + y) * srow + so[0]
            d = (do[2] + z) * dslice + (do[1] + y) * drow + do[0]
            dst[d:d + region[0]] = src[s:s + region[0]]


CASES = [  # (buffer origin, host origin, region, buffer pitches, host pitches)
    ((0, 0, 0), (0, 0, 0), (16, 4, 2), None, None),
    ((4, 1, 0), (8, 2, 1), (12, 3, 2), (32, 160), (24, 120)),
    ((3, 2), (1, 0), (5, 2), (20,), (7,)),
    ((7,), (2,), (9,), None, None),
    ((0, 0, 1), (0, 1, 0), (8, 2, 2), (0, 0), (10, 0)),
]


@pytest.mark.parametrize(("buffer_origin", "host_origin", "region", "buffer_pitches", "host_pitches"), CASES)
def test_read_and_write_rect_match_the_spec(ctx, queue, buffer_origin, host_origin, region, buffer_pitches,
                                            host_pitches):
    rng = np.random.default_rng(7)
    device = rng.integers(0, 256, 1024, dtype=np.uint8)
    host = rng.integers(0, 256, 512, dtype=np.uint8)
    buf = cl.Buffer(ctx, mf.READ_WRITE | mf.COPY_HOST_PTR, hostbuf=device)
    kwargs = dict(buffer_origin=buffer_origin, host_origin=host_origin, region=region,
                  buffer_pitches=buffer_pitches, host_pitches=host_pitches)

    read = host.copy()
    event = cl.enqueue_copy(queue, read, buf, **kwargs)
    assert event.command_type == cl.command_type.READ_BUFFER_RECT
    expected = bytearray(host.tobytes())
    reference(expected, device.tobytes(), buffer_origin, host_origin, region, buffer_pitches, host_pitches)
    np.testing.assert_array_equal(read, np.frombuffer(expected, np.uint8))

    event = cl.enqueue_copy(queue, buf, host, **kwargs)
    assert event.command_type == cl.command_type.WRITE_BUFFER_RECT
    expected = bytearray(device.tobytes())
    reference(expected, host.tobytes(), host_origin, buffer_origin, region, host_pitches, buffer_pitches)
    written = np.empty_like(device)
    cl.enqueue_copy(queue, written, buf)
    np.testing.assert_array_equal(written, np.frombuffer(expected, np.uint8))


def test_read_rect_of_a_float_matrix_block(ctx, queue):
    matrix = np.arange(20 * 30, dtype=np.float32).reshape(20, 30)
    buf = cl.Buffer(ctx, mf.READ_ONLY | mf.COPY_HOST_PTR, hostbuf=matrix)
    block = np.zeros((5, 7), np.float32)
    cl.enqueue_copy(queue, block, buf, buffer_origin=(3 * 4, 10), host_origin=(0, 0), region=(7 * 4, 5),
                    buffer_pitches=(30 * 4,), host_pitches=(7 * 4,))
    np.testing.assert_array_equal(block, matrix[10:15, 3:10])


def test_copy_buffer_rect(ctx, queue):
    rng = np.random.default_rng(11)
    a_bytes = rng.integers(0, 256, 600, dtype=np.uint8)
    b_bytes = rng.integers(0, 256, 700, dtype=np.uint8)
    a = cl.Buffer(ctx, mf.READ_WRITE | mf.COPY_HOST_PTR, hostbuf=a_bytes)
    b = cl.Buffer(ctx, mf.READ_WRITE | mf.COPY_HOST_PTR, hostbuf=b_bytes)
    args = dict(src_origin=(2, 1, 1), dst_origin=(5, 0, 2), region=(10, 4, 3), src_pitches=(16, 96),
                dst_pitches=(20, 100))
    event = cl.enqueue_copy(queue, b, a, **args)
    assert event.command_type == cl.command_type.COPY_BUFFER_RECT
    expected = bytearray(b_bytes.tobytes())
    reference(expected, a_bytes.tobytes(), (2, 1, 1), (5, 0, 2), (10, 4, 3), (16, 96), (20, 100))
    out = np.empty(700, np.uint8)
    cl.enqueue_copy(queue, out, b)
    np.testing.assert_array_equal(out, np.frombuffer(expected, np.uint8))


def test_copy_rect_within_one_buffer(ctx, queue):
    data = np.arange(64, dtype=np.uint8)
    buf = cl.Buffer(ctx, mf.READ_WRITE | mf.COPY_HOST_PTR, hostbuf=data)
    # left half of each 8-byte row to the right half: interleaved ranges, disjoint bytes
    cl.enqueue_copy(queue, buf, buf, src_origin=(0, 0), dst_origin=(4, 0), region=(4, 8), src_pitches=(8,),
                    dst_pitches=(8,))
    out = np.empty(64, np.uint8)
    cl.enqueue_copy(queue, out, buf)
    rows = data.reshape(8, 8)
    np.testing.assert_array_equal(out.reshape(8, 8), np.hstack([rows[:, :4], rows[:, :4]]))
    with pytest.raises(cl.Error, match="MEM_COPY_OVERLAP"):
        cl.enqueue_copy(queue, buf, buf, src_origin=(0, 0), dst_origin=(2, 0), region=(4, 8), src_pitches=(8,),
                        dst_pitches=(8,))
    with pytest.raises(cl.Error, match="MEM_COPY_OVERLAP"):  # the last byte of one box is the first of the other
        cl.enqueue_copy(queue, buf, buf, src_origin=(0, 0), dst_origin=(3, 0), region=(4, 1), src_pitches=(8,),
                        dst_pitches=(8,))
    # boxes 8 bytes apart in a buffer of 16-byte rows: their byte ranges intersect, their bytes do not
    cl.enqueue_copy(queue, buf, buf, src_origin=(0, 0), dst_origin=(8, 0), region=(8, 4), src_pitches=(16,),
                    dst_pitches=(16,))
    cl.enqueue_copy(queue, out, buf)
    rows = out.reshape(4, 16)
    np.testing.assert_array_equal(rows[:, 8:], rows[:, :8])


@pytest.mark.parametrize(("kwargs", "message"), [
    (dict(buffer_origin=(0, 0), host_origin=(0, 0), region=(8, 0)), r"region \(8, 0, 1\) has an empty dimension"),
    (dict(buffer_origin=(0, 0), host_origin=(0, 0), region=(8, 2), buffer_pitches=(4,)),
     "source row pitch 4 is less than the region's 8 bytes"),
    (dict(buffer_origin=(0, 0, 0), host_origin=(0, 0), region=(4, 2, 2), buffer_pitches=(4, 6)),
     "source slice pitch 6 must be a multiple of the row pitch 4"),
    (dict(buffer_origin=(0, 4), host_origin=(0, 0), region=(8, 2), buffer_pitches=(16,)),
     "the source box reaches byte 88, past the 64 bytes"),
    (dict(buffer_origin=(0, 0), host_origin=(0, 2), region=(8, 2)),
     "the destination box reaches byte 32, past the 16 bytes"),
    (dict(buffer_origin=(0, -1), host_origin=(0, 0), region=(8, 2)), "source origin must be 1 to 3 non-negative"),
    (dict(buffer_origin=(0, 0), region=(8, 2)), r"needs \['host_origin'\]"),
    (dict(buffer_origin=(0, 0), host_origin=(0, 0), region=(8, 2), src_pitches=(8,)),
     r"unexpected keyword arguments \['src_pitches'\]"),
])
def test_bad_read_rects(ctx, queue, kwargs, message):
    buf = cl.Buffer(ctx, mf.READ_WRITE, 64)
    host = np.zeros(16, np.uint8)
    with pytest.raises(cl.LogicError, match=f"clEnqueueReadBufferRect failed: INVALID_VALUE - .*{message}"):
        cl.enqueue_copy(queue, host, buf, **kwargs)
    np.testing.assert_array_equal(host, 0)


def test_write_rect_needs_a_contiguous_host_array(ctx, queue):
    buf = cl.Buffer(ctx, mf.READ_WRITE, 64)
    with pytest.raises(cl.LogicError, match="INVALID_HOST_PTR.*not C-contiguous"):
        cl.enqueue_copy(queue, buf, np.zeros((8, 8), np.uint8)[:, ::2], buffer_origin=(0,), host_origin=(0,),
                        region=(4,))
