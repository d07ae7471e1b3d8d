"""Buffers, host pointers and transfers against numpy."""
import numpy as np
import pytest

import loomcl as cl

mf = cl.mem_flags


def read(queue, buf, dtype, count):
    out = np.empty(count, dtype)
    cl.enqueue_copy(queue, out, buf)
    return out


def test_alloc_is_aligned_and_sized(ctx):
    for size in (1, 3, 64, 1000):
        buf = cl.Buffer(ctx, mf.READ_WRITE, size)
        assert buf.size == size and buf.int_ptr % 64 == 0 and buf.flags == mf.READ_WRITE


def test_a_buffer_owns_the_bytes_up_to_the_next_alignment_boundary(ctx, queue):
    """piglit's bswap.cl runs 24 work-items on an 8-element ushort2 buffer (its own bug): those 64 bytes
    past the end land in loomcl's padding (with malloc's 16-byte slack they corrupted the host's heap;
    tests/e2e/test_client_kernels.py runs such a kernel)."""
    from loomcl.runtime.buffer import BUFFER_ALIGN, address_of
    for size in (1, 32, 128, 1000):
        buf = cl.Buffer(ctx, mf.READ_WRITE, size)
        owner = buf._memory.base
        assert address_of(owner) + owner.nbytes >= buf.int_ptr + -(-size // BUFFER_ALIGN) * BUFFER_ALIGN


def test_copy_host_ptr_copies(ctx, queue):
    a = np.arange(100, dtype=np.float32)
    buf = cl.Buffer(ctx, mf.READ_ONLY | mf.COPY_HOST_PTR, hostbuf=a)
    assert buf.size == a.nbytes
    a[:] = 0
    assert np.array_equal(read(queue, buf, np.float32, 100), np.arange(100, dtype=np.float32))


def test_hostbuf_larger_than_size_is_rejected(ctx):
    a = np.arange(10, dtype=np.int32)
    with pytest.raises(cl.LogicError, match="INVALID_BUFFER_SIZE.*size 16 is smaller than the hostbuf's 40 bytes"):
        cl.Buffer(ctx, mf.READ_ONLY | mf.COPY_HOST_PTR, size=16, hostbuf=a)


def test_use_host_ptr_is_zero_copy(ctx, queue):
    a = np.zeros(8, dtype=np.int64)
    buf = cl.Buffer(ctx, mf.READ_WRITE | mf.USE_HOST_PTR, hostbuf=a)
    assert buf.int_ptr == a.ctypes.data and buf.hostbuf is a
    cl.enqueue_copy(queue, buf, np.arange(8, dtype=np.int64))
    assert np.array_equal(a, np.arange(8))
    view = buf.get_host_array((2, 4), np.int64)
    view[0, 0] = 42
    assert a[0] == 42


def test_use_host_ptr_requirements(ctx):
    with pytest.raises(cl.LogicError, match="INVALID_HOST_PTR.*C-contiguous"):
        cl.Buffer(ctx, mf.USE_HOST_PTR, hostbuf=np.zeros((4, 4))[:, 0])
    readonly = np.zeros(4)
    readonly.flags.writeable = False
    with pytest.raises(cl.LogicError, match="INVALID_HOST_PTR.*read-only"):
        cl.Buffer(ctx, mf.USE_HOST_PTR, hostbuf=readonly)


@pytest.mark.parametrize(
    "flags, size, hostbuf, status",
    [
        (mf.READ_WRITE, 0, None, "INVALID_BUFFER_SIZE"),
        (mf.READ_WRITE, -1, None, "INVALID_BUFFER_SIZE"),
        (mf.COPY_HOST_PTR, 64, np.zeros(4, np.float32), "INVALID_BUFFER_SIZE"),
        (mf.COPY_HOST_PTR, 0, None, "INVALID_HOST_PTR"),
        (mf.READ_WRITE, 16, np.zeros(4, np.float32), "INVALID_HOST_PTR"),
        (mf.READ_ONLY | mf.WRITE_ONLY, 16, None, "INVALID_VALUE"),
        (mf.USE_HOST_PTR | mf.COPY_HOST_PTR, 0, np.zeros(4), "INVALID_VALUE"),
        (1 << 20, 16, None, "INVALID_VALUE"),
    ],
)
def test_bad_buffers(ctx, flags, size, hostbuf, status):
    with pytest.raises(cl.LogicError, match=status):
        cl.Buffer(ctx, flags, size, hostbuf)


def test_size_above_max_alloc(ctx):
    too_big = ctx.devices[0].max_mem_alloc_size + 1
    with pytest.raises(cl.LogicError, match="INVALID_BUFFER_SIZE.*max_mem_alloc_size"):
        cl.Buffer(ctx, mf.READ_WRITE, too_big)


def test_host_buffer_round_trip_with_offsets(ctx, queue):
    buf = cl.Buffer(ctx, mf.READ_WRITE, 40)
    cl.enqueue_copy(queue, buf, np.arange(10, dtype=np.int32))
    cl.enqueue_copy(queue, buf, np.array([-1, -2], dtype=np.int32), dst_offset=8)
    out = np.empty(3, np.int32)
    cl.enqueue_copy(queue, out, buf, src_offset=4)
    assert out.tolist() == [1, -1, -2]
    cl.enqueue_copy(queue, out, buf, device_offset=28)  # pyopencl's older keyword
    assert out.tolist() == [7, 8, 9]


def test_buffer_to_buffer(ctx, queue):
    src = cl.Buffer(ctx, mf.COPY_HOST_PTR, hostbuf=np.arange(16, dtype=np.uint8))
    dst = cl.Buffer(ctx, mf.READ_WRITE, 16)
    cl.enqueue_copy(queue, dst, src)
    assert np.array_equal(read(queue, dst, np.uint8, 16), np.arange(16))
    cl.enqueue_copy(queue, dst, src, byte_count=4, src_offset=12, dst_offset=0)
    assert read(queue, dst, np.uint8, 5).tolist() == [12, 13, 14, 15, 4]


def test_copy_range_errors(ctx, queue):
    buf = cl.Buffer(ctx, mf.READ_WRITE, 16)
    with pytest.raises(cl.LogicError, match=r"INVALID_VALUE.*\[0, 32\).*16 bytes"):
        cl.enqueue_copy(queue, buf, np.zeros(8, np.float32))
    with pytest.raises(cl.LogicError, match="INVALID_VALUE"):
        cl.enqueue_copy(queue, np.zeros(4, np.float32), buf, src_offset=8)
    with pytest.raises(cl.LogicError, match="INVALID_VALUE"):
        cl.enqueue_copy(queue, np.zeros(4), np.zeros(4))
    other = cl.Buffer(ctx, mf.READ_WRITE, 8)
    with pytest.raises(cl.LogicError, match="INVALID_VALUE"):
        cl.enqueue_copy(queue, other, buf, byte_count=16)
    with pytest.raises(cl.LogicError, match="MEM_COPY_OVERLAP"):
        cl.enqueue_copy(queue, buf, buf, byte_count=8, src_offset=0, dst_offset=4)


def test_read_into_readonly_host_array_fails(ctx, queue):
    buf = cl.Buffer(ctx, mf.READ_WRITE, 16)
    target = np.zeros(4, np.float32)
    target.flags.writeable = False
    with pytest.raises(cl.LogicError, match="read-only"):
        cl.enqueue_copy(queue, target, buf)


def test_fill_buffer(ctx, queue):
    buf = cl.Buffer(ctx, mf.READ_WRITE, 32)
    cl.enqueue_fill_buffer(queue, buf, np.float32(2.5), 0, 32)
    assert np.all(read(queue, buf, np.float32, 8) == 2.5)
    cl.enqueue_fill_buffer(queue, buf, np.int32(7), 8, 8)
    assert read(queue, buf, np.int32, 8)[2:4].tolist() == [7, 7]
    with pytest.raises(cl.LogicError, match="multiples"):
        cl.enqueue_fill_buffer(queue, buf, np.float32(1), 0, 6)


def test_released_buffer(ctx, queue):
    buf = cl.Buffer(ctx, mf.READ_WRITE, 16)
    buf.release()
    with pytest.raises(cl.LogicError, match="INVALID_MEM_OBJECT"):
        cl.enqueue_copy(queue, buf, np.zeros(4, np.float32))


def test_local_memory():
    assert cl.LocalMemory(256).size == 256
    with pytest.raises(cl.LogicError, match="INVALID_ARG_SIZE"):
        cl.LocalMemory(0)


def test_transfers_check_their_queue_and_context(ctx):
    other = cl.create_some_context(interactive=False)
    queue = cl.CommandQueue(ctx)
    foreign = cl.Buffer(other, cl.mem_flags.READ_WRITE, 16)
    host = np.zeros(4, np.float32)
    with pytest.raises(cl.LogicError) as error:
        cl.enqueue_copy(queue, host, foreign)
    assert error.value.code == cl.status_code.INVALID_CONTEXT
    for call in (lambda: cl.enqueue_copy("queue", host, foreign), lambda: cl.enqueue_marker(None),
                 lambda: cl.enqueue_barrier(ctx), lambda: cl.enqueue_fill_buffer(42, foreign, np.float32(1), 0, 16)):
        with pytest.raises(cl.LogicError) as error:
            call()
        assert error.value.code == cl.status_code.INVALID_COMMAND_QUEUE
    with pytest.raises(cl.LogicError) as error:
        cl.enqueue_fill_buffer(queue, foreign, np.float32(1), 0, 16)
    assert error.value.code == cl.status_code.INVALID_CONTEXT
