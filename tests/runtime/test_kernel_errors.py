"""Bad launches and bad arguments raise LogicError with the OpenCL status and the culprit named."""
import numpy as np
import pytest

import loomcl as cl

mf = cl.mem_flags


@pytest.fixture
def buffers(ctx):
    return [cl.Buffer(ctx, mf.READ_WRITE, 4 * 1024) for _ in range(3)]


def test_wrong_argument_count(queue, prg, buffers):
    with pytest.raises(cl.LogicError, match="INVALID_KERNEL_ARGS.*kernel 'vadd' takes 4 arguments, got 3") as info:
        prg.vadd(queue, (16,), (16,), *buffers)
    assert info.value.code == cl.status_code.INVALID_KERNEL_ARGS


def test_unset_argument(queue, prg):
    knl = cl.Kernel(prg, "vadd")
    with pytest.raises(cl.LogicError, match=r"INVALID_KERNEL_ARGS.*argument 0 \('a' of type __global float32 \*\) was not set"):
        cl.enqueue_nd_range_kernel(queue, knl, (16,), (16,))


def test_number_out_of_range(queue, prg, buffers):
    with pytest.raises(cl.LogicError, match=r"INVALID_ARG_VALUE.*argument 3 \('n' of type uint\).*\[0, 4294967295\].*-1"):
        prg.vadd(queue, (16,), (16,), *buffers, -1)
    with pytest.raises(cl.LogicError, match="INVALID_ARG_VALUE.*argument 1 \\('factor' of type float\\)"):
        prg.scale(queue, (16,), (16,), buffers[0], 1e300, 0)
    with pytest.raises(cl.LogicError, match="INVALID_ARG_VALUE.*'k' of type int"):
        prg.scale(queue, (16,), (16,), buffers[0], 1.0, 2.5)


def test_buffer_where_number_expected_and_back(queue, prg, buffers):
    with pytest.raises(cl.LogicError, match="INVALID_ARG_VALUE.*'n' of type uint.*expects an integer.*got Buffer"):
        prg.vadd(queue, (16,), (16,), *buffers, buffers[0])
    with pytest.raises(cl.LogicError, match="INVALID_ARG_VALUE.*'a' of type __global float32 \\*.*expects a Buffer.*got int"):
        prg.vadd(queue, (16,), (16,), 5, buffers[1], buffers[2], 16)
    with pytest.raises(cl.LogicError, match="INVALID_ARG_VALUE.*numpy array.*pass a Buffer"):
        prg.vadd(queue, (16,), (16,), np.zeros(16, np.float32), buffers[1], buffers[2], 16)
    with pytest.raises(cl.LogicError, match="INVALID_ARG_VALUE.*expects a LocalMemory"):
        prg.local_reverse(queue, (16,), (16,), buffers[0], buffers[1], buffers[2])
    with pytest.raises(cl.LogicError, match="INVALID_ARG_VALUE.*expects a Buffer.*LocalMemory"):
        prg.local_reverse(queue, (16,), (16,), cl.LocalMemory(64), buffers[1], cl.LocalMemory(64))


def test_none_is_a_null_pointer(queue, prg, buffers):
    prg.vadd(queue, (16,), (16,), *buffers, 0)  # n = 0: nothing is touched


def test_set_arg_index_out_of_range(prg):
    with pytest.raises(cl.LogicError, match="INVALID_ARG_INDEX"):
        prg.vadd.set_arg(4, 1)


def test_released_buffer_argument(ctx, queue, prg, buffers):
    gone = cl.Buffer(ctx, mf.READ_WRITE, 64)
    gone.release()
    with pytest.raises(cl.LogicError, match="INVALID_MEM_OBJECT"):
        prg.vadd(queue, (16,), (16,), gone, buffers[1], buffers[2], 16)


@pytest.mark.parametrize(
    "global_size, local_size, status, text",
    [
        ((0,), (1,), "INVALID_GLOBAL_WORK_SIZE", r"\(0,\)"),
        ((16, 0), None, "INVALID_GLOBAL_WORK_SIZE", r"\(16, 0\)"),
        ((-4,), None, "INVALID_GLOBAL_WORK_SIZE", "negative"),
        ((1, 1, 1, 1), None, "INVALID_WORK_DIMENSION", "1 to 3"),
        ((), None, "INVALID_WORK_DIMENSION", "1 to 3"),
        ((64,), (8, 8), "INVALID_WORK_DIMENSION", "2 dimensions"),
        ((8192,), (8192,), "INVALID_WORK_GROUP_SIZE", r"local size \(8192,\).*maximum is 4096"),
        ((64, 64), (128, 64), "INVALID_WORK_GROUP_SIZE", "8192 work-items"),
        ((64,), (0,), "INVALID_WORK_GROUP_SIZE", "below 1"),
        ((64,), (2.5,), "INVALID_WORK_GROUP_SIZE", "integers"),
    ],
)
def test_bad_sizes(queue, prg, buffers, global_size, local_size, status, text):
    with pytest.raises(cl.LogicError, match=f"clEnqueueNDRangeKernel failed: {status}.*{text}"):
        prg.vadd(queue, global_size, local_size, *buffers, 16)


def test_bad_global_offset(queue, prg, buffers):
    with pytest.raises(cl.LogicError, match="INVALID_GLOBAL_OFFSET"):
        prg.vadd(queue, (16,), (16,), *buffers, 16, global_offset=(1, 2))
    with pytest.raises(cl.LogicError, match="INVALID_GLOBAL_OFFSET"):
        prg.vadd(queue, (16,), (16,), *buffers, 16, global_offset=(-1,))


def test_reqd_work_group_size_mismatch(queue, prg, buffers):
    with pytest.raises(cl.LogicError, match=r"INVALID_WORK_GROUP_SIZE.*\(16,\).*reqd_work_group_size\(8, 1, 1\)"):
        prg.fixed(queue, (64,), (16,), buffers[0])


def test_wrong_queue_type(prg, buffers):
    with pytest.raises(cl.LogicError, match="INVALID_COMMAND_QUEUE"):
        prg.vadd("queue", (16,), (16,), *buffers, 16)


def test_by_value_size_mismatch(queue, prg, buffers):
    with pytest.raises(cl.LogicError, match="INVALID_ARG_SIZE.*'v' of type float4.*16 bytes, got 8"):
        prg.by_value(queue, (8,), (8,), buffers[0], [1.0, 2.0])


def test_error_after_good_launch_does_not_break_the_next(ctx, queue, prg):
    out = cl.Buffer(ctx, mf.READ_WRITE, 4 * 64)
    with pytest.raises(cl.LogicError):
        prg.store_gid(queue, (64,), (4096 * 2,), out)
    prg.store_gid(queue, (64,), (8,), out)
    got = np.empty(64, np.int32)
    cl.enqueue_copy(queue, got, out)
    assert np.array_equal(got, np.arange(64))
