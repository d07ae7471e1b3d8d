"""enqueue_map_buffer: zero-copy views of a buffer's bytes, MemoryMap release, and the checks."""
import gc

import numpy as np
import pytest

import loomcl as cl

mf = cl.mem_flags
mapf = cl.map_flags


def filled(ctx, values, flags=mf.READ_WRITE):
    return cl.Buffer(ctx, flags | mf.COPY_HOST_PTR, hostbuf=values)


def test_map_reads_the_buffer_and_writes_reach_it(ctx, queue):
    values = np.arange(24, dtype=np.int32)
    buf = filled(ctx, values)
    array, event = cl.enqueue_map_buffer(queue, buf, mapf.READ | mapf.WRITE, 8, (5, 4), np.int32)
    assert array.shape == (5, 4) and array.dtype == np.int32
    np.testing.assert_array_equal(array, values[2:22].reshape(5, 4))
    assert event.command_type == cl.command_type.MAP_BUFFER
    assert event.command_execution_status == cl.command_execution_status.COMPLETE
    array[1, :] = -1
    out = np.empty(24, np.int32)
    cl.enqueue_copy(queue, out, buf)
    expected = values.copy()
    expected[6:10] = -1
    np.testing.assert_array_equal(out, expected)


def test_map_is_zero_copy_and_sees_later_writes(ctx, queue):
    buf = filled(ctx, np.zeros(16, np.float64))
    array, _ = cl.enqueue_map_buffer(queue, buf, mapf.READ, 0, 16, np.float64)
    assert array.ctypes.data == buf.int_ptr
    cl.enqueue_copy(queue, buf, np.linspace(0, 1, 16))
    np.testing.assert_array_equal(array, np.linspace(0, 1, 16))


def test_memory_map_release_and_map_count(ctx, queue):
    buf = filled(ctx, np.arange(8, dtype=np.uint8))
    first, _ = cl.enqueue_map_buffer(queue, buf, mapf.WRITE, 0, 8, np.uint8)
    second, _ = cl.enqueue_map_buffer(queue, buf, mapf.READ, 4, 4, np.uint8)
    assert isinstance(first.base, cl.MemoryMap)
    assert buf.map_count == 2 and buf.get_info(cl.mem_info.MAP_COUNT) == 2
    event = first.base.release()
    assert event.command_type == cl.command_type.UNMAP_MEM_OBJECT and event.command_queue is queue
    assert buf.map_count == 1
    with pytest.raises(cl.LogicError, match="INVALID_VALUE.*already released"):
        first.base.release(queue)
    with second.base:
        np.testing.assert_array_equal(second, [4, 5, 6, 7])
    assert buf.map_count == 0


def test_a_dropped_map_unmaps(ctx, queue):
    buf = filled(ctx, np.arange(8, dtype=np.uint8))
    array, _ = cl.enqueue_map_buffer(queue, buf, mapf.READ, 0, 8, np.uint8)
    assert buf.map_count == 1
    del array
    gc.collect()
    assert buf.map_count == 0


def test_read_map_is_read_only(ctx, queue):
    buf = filled(ctx, np.arange(4, dtype=np.float32))
    array, _ = cl.enqueue_map_buffer(queue, buf, mapf.READ, 0, 4, np.float32)
    with pytest.raises(ValueError, match="read-only"):
        array[0] = 1
    writable, _ = cl.enqueue_map_buffer(queue, buf, mapf.WRITE_INVALIDATE_REGION, 0, 4, np.float32)
    writable[:] = 7
    np.testing.assert_array_equal(array, [7, 7, 7, 7])


def test_fortran_order_and_strides(ctx, queue):
    values = np.arange(12, dtype=np.int16)
    buf = filled(ctx, values)
    fortran, _ = cl.enqueue_map_buffer(queue, buf, mapf.READ, 0, (3, 4), np.int16, order="F")
    np.testing.assert_array_equal(fortran, values.reshape((3, 4), order="F"))
    # every other row of a 6x2 int16 matrix: a pitched view of the same bytes
    pitched, _ = cl.enqueue_map_buffer(queue, buf, mapf.READ, 0, (3, 2), np.int16, strides=(8, 2))
    np.testing.assert_array_equal(pitched, values.reshape(6, 2)[::2])


def test_array_outlives_a_released_buffer(ctx, queue):
    buf = filled(ctx, np.arange(1000, dtype=np.int64))
    array, _ = cl.enqueue_map_buffer(queue, buf, mapf.READ, 0, 1000, np.int64)
    buf.release()
    gc.collect()
    np.testing.assert_array_equal(array, np.arange(1000))
    with pytest.raises(cl.LogicError, match="INVALID_MEM_OBJECT"):
        cl.enqueue_map_buffer(queue, buf, mapf.READ, 0, 1, np.int64)


@pytest.mark.parametrize(("flags", "offset", "shape", "message"), [
    (mapf.READ, 4, 4, r"INVALID_VALUE.*bytes \[4, 20\) exceed the buffer's 16 bytes"),
    (mapf.READ, 0, (2, 3), r"INVALID_VALUE.*bytes \[0, 24\) exceed"),
    (mapf.READ, -4, 1, "INVALID_VALUE.*offset must be a non-negative int"),
    (mapf.READ, 0, 0, r"INVALID_VALUE.*shape \(0,\) maps no bytes"),
    (1 << 5, 0, 1, "INVALID_VALUE.*unknown map_flags bits 0x20"),
    (mapf.READ | mapf.WRITE_INVALIDATE_REGION, 0, 1, "INVALID_VALUE.*WRITE_INVALIDATE_REGION excludes"),
    (mapf.READ, 0, (2, -1), "INVALID_VALUE.*shape must hold non-negative ints"),
])
def test_bad_maps(ctx, queue, flags, offset, shape, message):
    buf = cl.Buffer(ctx, mf.READ_WRITE, 16)
    with pytest.raises(cl.LogicError, match=message):
        cl.enqueue_map_buffer(queue, buf, flags, offset, shape, np.int32)
    assert buf.map_count == 0


def test_bad_strides_and_host_access(ctx, queue):
    buf = cl.Buffer(ctx, mf.READ_WRITE, 16)
    with pytest.raises(cl.LogicError, match="strides .* must be 2 non-negative ints"):
        cl.enqueue_map_buffer(queue, buf, mapf.READ, 0, (2, 2), np.int32, strides=(8,))
    with pytest.raises(cl.LogicError, match=r"bytes \[0, 32\) exceed"):
        cl.enqueue_map_buffer(queue, buf, mapf.READ, 0, (2, 2), np.int32, strides=(24, 4))
    for host, flags, what in ((mf.HOST_NO_ACCESS, mapf.READ, "HOST_NO_ACCESS"),
                              (mf.HOST_READ_ONLY, mapf.WRITE, "HOST_READ_ONLY"),
                              (mf.HOST_WRITE_ONLY, mapf.READ, "HOST_WRITE_ONLY")):
        limited = cl.Buffer(ctx, mf.READ_WRITE | host, 16)
        with pytest.raises(cl.LogicError, match=f"INVALID_OPERATION.*{what}"):
            cl.enqueue_map_buffer(queue, limited, flags, 0, 4, np.int32)
    with pytest.raises(cl.LogicError, match="INVALID_EVENT_WAIT_LIST"):
        cl.enqueue_map_buffer(queue, buf, mapf.READ, 0, 4, np.int32, wait_for=[object()])
    with pytest.raises(cl.LogicError, match="INVALID_COMMAND_QUEUE"):
        cl.enqueue_map_buffer(ctx, buf, mapf.READ, 0, 4, np.int32)
    with pytest.raises(cl.LogicError, match="INVALID_MEM_OBJECT"):
        cl.enqueue_map_buffer(queue, np.zeros(4), mapf.READ, 0, 4, np.int32)
    other = cl.Context(ctx.devices)
    with pytest.raises(cl.LogicError, match="INVALID_CONTEXT"):
        cl.enqueue_map_buffer(cl.CommandQueue(other), buf, mapf.READ, 0, 4, np.int32)


def test_sub_buffer_map(ctx, queue):
    buf = filled(ctx, np.arange(32, dtype=np.uint8))
    sub = buf.get_sub_region(16, 16)
    array, _ = cl.enqueue_map_buffer(queue, sub, mapf.READ, 4, 4, np.uint8)
    np.testing.assert_array_equal(array, [20, 21, 22, 23])
    assert sub.map_count == 1 and buf.map_count == 0
