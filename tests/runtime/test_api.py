"""The pyopencl-shaped surface: names, enums, info properties, queues, events, error classes."""
import pickle

import pytest

import loomcl as cl
from loomcl.errors import error_for


def test_public_names_exist():
    for name in ["Buffer", "CommandQueue", "Context", "Device", "Event", "Kernel", "LocalMemory", "Platform",
                 "Program", "get_platforms", "create_some_context", "enqueue_copy", "enqueue_fill_buffer",
                 "enqueue_nd_range_kernel", "wait_for_events", "mem_flags", "device_type", "status_code",
                 "command_queue_properties", "Error", "LogicError", "RuntimeError", "MemoryError"]:
        assert hasattr(cl, name), name


def test_mem_flags_values_match_opencl():
    mf = cl.mem_flags
    assert (mf.READ_WRITE, mf.WRITE_ONLY, mf.READ_ONLY) == (1, 2, 4)
    assert (mf.USE_HOST_PTR, mf.ALLOC_HOST_PTR, mf.COPY_HOST_PTR) == (8, 16, 32)
    assert mf.READ_ONLY | mf.COPY_HOST_PTR == 36
    assert mf.to_string(4) == "READ_ONLY"


def test_status_codes():
    sc = cl.status_code
    assert sc.INVALID_KERNEL_ARGS == -52 and sc.INVALID_WORK_GROUP_SIZE == -54
    assert sc.INVALID_BUFFER_SIZE == -61 and sc.INVALID_GLOBAL_WORK_SIZE == -63
    assert sc.to_string(-46) == "INVALID_KERNEL_NAME"


def test_platform_and_device_info():
    platforms = cl.get_platforms()
    assert len(platforms) == 1
    platform = platforms[0]
    assert platform.name and platform.vendor and platform.version.startswith("OpenCL")
    devices = platform.get_devices(device_type=cl.device_type.CPU)
    assert devices == platform.get_devices()
    device = devices[0]
    assert device.type == cl.device_type.CPU
    assert device.max_compute_units >= 1
    assert device.max_work_group_size == 4096
    assert list(device.max_work_item_sizes) == [4096, 4096, 4096]
    assert device.local_mem_size >= 32 * 1024
    assert device.global_mem_size > device.max_mem_alloc_size > 0
    assert device.address_bits == 64
    assert device.preferred_vector_width_float in (4, 8, 16)
    assert "cl_khr_fp64" in device.extensions
    assert device.platform is platform
    assert device.get_info(cl.device_info.NAME) == device.name
    assert device.get_info(cl.device_info.MAX_WORK_GROUP_SIZE) == 4096
    assert platform.get_info(cl.platform_info.NAME) == platform.name


def test_get_info_of_unknown_param_is_invalid_value():
    device = cl.get_platforms()[0].get_devices()[0]
    with pytest.raises(cl.LogicError, match="INVALID_VALUE"):
        device.get_info(0x9999)


def test_gpu_devices_are_not_found():
    with pytest.raises(cl.RuntimeError, match="DEVICE_NOT_FOUND") as info:
        cl.get_platforms()[0].get_devices(cl.device_type.GPU)
    assert info.value.code == cl.status_code.DEVICE_NOT_FOUND


def test_context_and_queue(ctx):
    assert len(ctx.devices) == 1 and ctx.num_devices == 1
    queue = cl.CommandQueue(ctx)
    assert queue.context is ctx and queue.device is ctx.devices[0]
    queue.flush()
    queue.finish()
    with cl.CommandQueue(ctx, ctx.devices[0], cl.command_queue_properties.PROFILING_ENABLE) as q2:
        assert q2.properties == cl.command_queue_properties.PROFILING_ENABLE
    assert cl.Context(devices=ctx.devices).devices == ctx.devices


def test_queue_rejects_unsupported_properties(ctx):
    with pytest.raises(cl.LogicError, match="INVALID_QUEUE_PROPERTIES"):
        cl.CommandQueue(ctx, properties=cl.command_queue_properties.ON_DEVICE)


def test_error_classes_follow_pyopencl():
    assert issubclass(cl.LogicError, cl.Error) and issubclass(cl.Error, Exception)
    assert cl.RuntimeError is not RuntimeError and cl.MemoryError is not MemoryError
    err = error_for("clFoo", cl.status_code.INVALID_VALUE, "bad thing")
    assert isinstance(err, cl.LogicError)
    assert str(err) == "clFoo failed: INVALID_VALUE - bad thing"
    assert err.code == -30 and err.routine == "clFoo" and err.what.what() == "bad thing"
    assert isinstance(error_for("x", cl.status_code.MEM_OBJECT_ALLOCATION_FAILURE), cl.MemoryError)
    assert isinstance(error_for("x", cl.status_code.BUILD_PROGRAM_FAILURE), cl.RuntimeError)
    copy = pickle.loads(pickle.dumps(err))
    assert type(copy) is cl.LogicError and str(copy) == str(err)


def test_event_without_profiling(queue, ctx):
    buf = cl.Buffer(ctx, cl.mem_flags.READ_WRITE, 16)
    event = cl.enqueue_fill_buffer(queue, buf, b"\x01", 0, 16)
    event.wait()
    assert event.command_execution_status == cl.command_execution_status.COMPLETE
    assert event.command_queue is queue
    with pytest.raises(cl.RuntimeError, match="PROFILING_INFO_NOT_AVAILABLE"):
        event.profile.start
    cl.wait_for_events([event])


def test_event_profiling(profiling_queue, ctx):
    buf = cl.Buffer(ctx, cl.mem_flags.READ_WRITE, 1 << 20)
    event = cl.enqueue_fill_buffer(profiling_queue, buf, b"\x07", 0, 1 << 20)
    event.wait()
    profile = event.profile
    assert profile.queued <= profile.submit <= profile.start <= profile.end
    assert event.get_profiling_info(cl.profiling_info.END) == profile.end


def test_wait_list_must_hold_events(queue, ctx):
    buf = cl.Buffer(ctx, cl.mem_flags.READ_WRITE, 16)
    with pytest.raises(cl.LogicError, match="INVALID_EVENT_WAIT_LIST"):
        cl.enqueue_fill_buffer(queue, buf, b"\x01", 0, 16, wait_for=["nope"])
