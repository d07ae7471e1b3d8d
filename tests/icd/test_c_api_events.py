"""Events through the ICD loader: markers and barriers, user events, callbacks, profiling info and
clWaitForEvents' argument checks."""
import pytest
from c_api_runner import run


def test_markers_barriers_and_their_events():
    out = run('''
    context = new_context()
    queue = new_queue(context)
    first, marker, barrier, old_marker = c_void_p(), c_void_p(), c_void_p(), c_void_p()
    buffer = new_buffer(context, 16)
    data = (ctypes.c_int32 * 4)(1, 2, 3, 4)
    assert cl.clEnqueueWriteBuffer(queue, buffer, 0, 0, 16, data, 0, None, byref(first)) == 0
    out["marker"] = cl.clEnqueueMarkerWithWaitList(queue, 1, ptrs(first.value), byref(marker))
    out["barrier"] = cl.clEnqueueBarrierWithWaitList(queue, 0, None, byref(barrier))
    out["old_marker"] = cl.clEnqueueMarker(queue, byref(old_marker))
    out["old_marker_null"] = cl.clEnqueueMarker(queue, None)
    out["old_barrier"] = cl.clEnqueueBarrier(queue)
    out["wait_for_events"] = cl.clEnqueueWaitForEvents(queue, 1, ptrs(marker.value))
    out["wait_for_none"] = cl.clEnqueueWaitForEvents(queue, 0, None)
    out["types"] = [uint_info(cl.clGetEventInfo, e.value, 0x11D1) for e in (first, marker, barrier, old_marker)]
    out["queues"] = [pointer_info(cl.clGetEventInfo, e.value, 0x11D0) == queue for e in (marker, barrier)]
    out["contexts"] = [pointer_info(cl.clGetEventInfo, e.value, 0x11D4) == context for e in (marker, barrier)]
    out["wait"] = cl.clWaitForEvents(3, ptrs(first.value, marker.value, barrier.value))
    out["status"] = [struct.unpack("i", info(cl.clGetEventInfo, e.value, 0x11D3))[0] for e in (first, marker)]
    out["wait_none"] = cl.clWaitForEvents(0, None)
    out["wait_forged"] = cl.clWaitForEvents(2, ptrs(first.value, FORGED))
    out["flush_finish"] = [cl.clFlush(queue), cl.clFinish(queue)]
    other_context = new_context()
    foreign, _ = make(cl.clCreateUserEvent, other_context)
    assert cl.clSetUserEventStatus(foreign, 0) == 0
    out["foreign_wait_list"] = [cl.clEnqueueMarkerWithWaitList(queue, 1, ptrs(foreign), None),
                                cl.clEnqueueReadBuffer(queue, buffer, 1, 0, 16, data, 1, ptrs(foreign), None)]
    out["wait_across_contexts"] = cl.clWaitForEvents(2, ptrs(first.value, foreign))
    out["marker_mismatch"] = cl.clEnqueueMarkerWithWaitList(queue, 1, None, None)
    ''')
    assert out["marker"] == 0 and out["barrier"] == 0 and out["old_marker"] == 0
    assert out["old_marker_null"] == -30 and out["old_barrier"] == 0
    assert out["wait_for_events"] == 0 and out["wait_for_none"] == -30
    assert out["types"] == [0x11F4, 0x11FE, 0x1205, 0x11FE]  # WRITE_BUFFER, MARKER, BARRIER, MARKER
    assert out["queues"] == [True, True] and out["contexts"] == [True, True]
    assert out["wait"] == 0 and out["status"] == [0, 0]
    assert out["wait_none"] == -30 and out["wait_forged"] == -58
    assert out["flush_finish"] == [0, 0] and out["marker_mismatch"] == -57
    assert out["foreign_wait_list"] == [-34, -34] and out["wait_across_contexts"] == -34


def test_user_events():
    out = run('''
    context = new_context()
    queue = new_queue(context)
    user, code = make(cl.clCreateUserEvent, context)
    out["create"] = code
    out["forged_context"] = make(cl.clCreateUserEvent, FORGED)[1]
    out["initial"] = struct.unpack("i", info(cl.clGetEventInfo, user, 0x11D3))[0]
    out["type"] = uint_info(cl.clGetEventInfo, user, 0x11D1)
    out["queue"] = pointer_info(cl.clGetEventInfo, user, 0x11D0)
    out["context"] = pointer_info(cl.clGetEventInfo, user, 0x11D4) == context
    out["bad_status"] = cl.clSetUserEventStatus(user, 3)
    out["set"] = cl.clSetUserEventStatus(user, 0)
    out["set_again"] = cl.clSetUserEventStatus(user, 0)
    out["status"] = struct.unpack("i", info(cl.clGetEventInfo, user, 0x11D3))[0]
    out["wait"] = cl.clWaitForEvents(1, ptrs(user))
    out["profiling"] = cl.clGetEventProfilingInfo(user, 0x1280, 8, (c_uint64 * 1)(), None)
    marker = c_void_p()
    out["marker_after_user"] = cl.clEnqueueMarkerWithWaitList(queue, 1, ptrs(user), byref(marker))
    out["set_on_command_event"] = cl.clSetUserEventStatus(marker.value, 0)
    failed, _ = make(cl.clCreateUserEvent, context)
    out["set_error"] = cl.clSetUserEventStatus(failed, -5)
    out["error_status"] = struct.unpack("i", info(cl.clGetEventInfo, failed, 0x11D3))[0]
    out["wait_failed"] = cl.clWaitForEvents(1, ptrs(failed))
    ''')
    assert out["create"] == 0 and out["forged_context"] == -34
    assert out["initial"] == 2 and out["type"] == 0x1204 and out["queue"] == 0  # SUBMITTED, COMMAND_USER
    assert out["context"]
    assert out["bad_status"] == -30 and out["set"] == 0 and out["set_again"] == -59
    assert out["status"] == 0 and out["wait"] == 0
    assert out["profiling"] == -7  # PROFILING_INFO_NOT_AVAILABLE
    assert out["marker_after_user"] == 0 and out["set_on_command_event"] == -58
    assert out["set_error"] == 0 and out["error_status"] == -5
    assert out["wait_failed"] == -14  # EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST


def test_event_callbacks():
    from loomcl.runtime.event import Event

    if not hasattr(Event, "set_callback"):
        pytest.skip("event callbacks come with the asynchronous queues (runtime Event.set_callback)")
    out = run('''
    seen = []
    CALLBACK = ctypes.CFUNCTYPE(None, c_void_p, c_int32, c_void_p)
    record = CALLBACK(lambda event, status, data: seen.append([event, status, data]))
    context = new_context()
    queue = new_queue(context)
    user, code = make(cl.clCreateUserEvent, context)
    out["callback"] = cl.clSetEventCallback(user, 0, record, 7)
    out["callback_bad_type"] = cl.clSetEventCallback(user, 5, record, 7)
    out["callback_null"] = cl.clSetEventCallback(user, 0, None, None)
    out["before_set"] = list(seen)
    assert cl.clSetUserEventStatus(user, 0) == 0
    out["after_set"] = [[e == user, s, d] for e, s, d in seen]
    marker = c_void_p()
    assert cl.clEnqueueMarkerWithWaitList(queue, 1, ptrs(user), byref(marker)) == 0
    cl.clFinish(queue)
    del seen[:]
    out["on_complete_event"] = cl.clSetEventCallback(marker.value, 0, record, 9)
    out["complete_callback"] = [[e == marker.value, s, d] for e, s, d in seen]
    ''')
    assert out["callback"] == 0 and out["callback_bad_type"] == -30 and out["callback_null"] == -30
    assert out["before_set"] == []
    assert out["after_set"] == [[True, 0, 7]]
    assert out["on_complete_event"] == 0 and out["complete_callback"] == [[True, 0, 9]]


def test_profiling_info():
    out = run('''
    context = new_context()
    plain, profiled = new_queue(context), new_queue(context, 2)
    program = new_program(context, "kernel void k(global int *a) { a[get_global_id(0)] = 1; }")
    kernel, _ = make(cl.clCreateKernel, program, b"k")
    buffer = new_buffer(context, 4096)
    set_mem_arg(kernel, 0, buffer)
    events = []
    for queue in (plain, profiled):
        event = c_void_p()
        assert cl.clEnqueueNDRangeKernel(queue, kernel, 1, None, (c_size_t * 1)(1024), None, 0, None, byref(event)) == 0
        events.append(event.value)
    cl.clFinish(profiled)
    stamp = c_uint64()
    out["not_profiled"] = cl.clGetEventProfilingInfo(events[0], 0x1280, 8, byref(stamp), None)
    out["stamps"] = [struct.unpack("Q", info(cl.clGetEventProfilingInfo, events[1], p))[0]
                     for p in (0x1280, 0x1281, 0x1282, 0x1283)]
    out["complete"] = struct.unpack("Q", info(cl.clGetEventProfilingInfo, events[1], 0x1284))[0]
    out["short"] = cl.clGetEventProfilingInfo(events[1], 0x1280, 4, byref(stamp), None)
    out["unknown"] = cl.clGetEventProfilingInfo(events[1], 0x1290, 8, byref(stamp), None)
    device_time, host_time = c_uint64(), c_uint64()
    out["timers"] = cl.clGetDeviceAndHostTimer(DEVICE, byref(device_time), byref(host_time))
    out["timer_after_end"] = device_time.value >= out["stamps"][3]
    out["host_timer"] = cl.clGetHostTimer(DEVICE, byref(host_time))
    out["host_timer_null"] = cl.clGetHostTimer(DEVICE, None)
    ''')
    assert out["not_profiled"] == -7
    queued, submit, start, end = out["stamps"]
    assert 0 < queued <= submit <= start <= end <= out["complete"]
    assert out["short"] == -30 and out["unknown"] == -30
    assert out["timers"] == 0 and out["timer_after_end"]
    assert out["host_timer"] == 0 and out["host_timer_null"] == -30
