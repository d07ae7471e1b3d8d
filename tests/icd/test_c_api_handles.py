"""Handles through the ICD loader: NULL, forged and released handles are INVALID_<KIND> (never a
crash), and clRetain*/clRelease* counts are the *_REFERENCE_COUNT queries' answers."""
from c_api_runner import run

INVALID = {"platform": -32, "device": -33, "context": -34, "queue": -36, "mem": -38, "program": -44,
           "kernel": -48, "event": -58}


def test_null_and_forged_handles_are_invalid_for_every_kind():
    out = run('''
    size = c_size_t()
    queries = {"platform": (cl.clGetPlatformInfo, 0x0902), "device": (cl.clGetDeviceInfo, 0x102B),
               "context": (cl.clGetContextInfo, 0x1080), "queue": (cl.clGetCommandQueueInfo, 0x1092),
               "mem": (cl.clGetMemObjectInfo, 0x1102), "program": (cl.clGetProgramInfo, 0x1160),
               "kernel": (cl.clGetKernelInfo, 0x1192), "event": (cl.clGetEventInfo, 0x11D2)}
    for kind, (function, param) in queries.items():
        out[kind] = [function(None, param, 0, None, byref(size)), function(FORGED, param, 0, None, byref(size))]
    releases = {"context": cl.clReleaseContext, "queue": cl.clReleaseCommandQueue, "mem": cl.clReleaseMemObject,
                "program": cl.clReleaseProgram, "kernel": cl.clReleaseKernel, "event": cl.clReleaseEvent}
    out["release_forged"] = {kind: function(FORGED) for kind, function in releases.items()}
    context = new_context()
    out["wrong_kind"] = cl.clGetCommandQueueInfo(context, 0x1092, 0, None, byref(size))  # a context as a queue
    ''')
    assert out["platform"] == [0, INVALID["platform"]]  # the loader answers a NULL platform with its default
    for kind, code in INVALID.items():
        if kind != "platform":
            assert out[kind] == [code, code], kind
    assert out["release_forged"] == {kind: INVALID[kind] for kind in out["release_forged"]}
    assert out["wrong_kind"] == INVALID["queue"]


def test_forged_handles_in_argument_positions():
    out = run('''
    context = new_context()
    queue = new_queue(context)
    buffer = new_buffer(context, 64)
    host = (ctypes.c_char * 64)()
    out["read_forged_buffer"] = cl.clEnqueueReadBuffer(queue, FORGED, 1, 0, 64, host, 0, None, None)
    out["copy_forged_dst"] = cl.clEnqueueCopyBuffer(queue, buffer, FORGED, 0, 0, 64, 0, None, None)
    out["queue_forged_device"] = make(cl.clCreateCommandQueue, context, FORGED, 0)
    out["context_forged_device"] = make(cl.clCreateContext, None, 1, ptrs(FORGED), None, None)
    out["buffer_forged_context"] = make(cl.clCreateBuffer, FORGED, 1, 64, None)
    program = new_program(context, "kernel void k(global int *a) { a[0] = 1; }")
    kernel, _ = make(cl.clCreateKernel, program, b"k")
    out["arg_forged_mem"] = set_mem_arg(kernel, 0, FORGED)
    out["build_info_forged_device"] = cl.clGetProgramBuildInfo(program, FORGED, 0x1181, 0, None, None)
    ''')
    assert out["read_forged_buffer"] == INVALID["mem"]
    assert out["copy_forged_dst"] == INVALID["mem"]
    assert out["queue_forged_device"] == [None, INVALID["device"]]
    assert out["context_forged_device"] == [None, INVALID["device"]]
    assert out["buffer_forged_context"] == [None, INVALID["context"]]
    assert out["arg_forged_mem"] == INVALID["mem"]
    assert out["build_info_forged_device"] == INVALID["device"]


def test_reference_counts_follow_retain_and_release():
    out = run('''
    def count(function, handle, param):
        return uint_info(function, handle, param)

    context = new_context()
    queue = new_queue(context)
    buffer = new_buffer(context, 64)
    program = new_program(context, "kernel void k(global int *a) { a[0] = 1; }")
    kernel, _ = make(cl.clCreateKernel, program, b"k")
    event = c_void_p()
    assert cl.clEnqueueMarkerWithWaitList(queue, 0, None, byref(event)) == 0
    objects = {"context": (context, cl.clRetainContext, cl.clReleaseContext, cl.clGetContextInfo, 0x1080),
               "queue": (queue, cl.clRetainCommandQueue, cl.clReleaseCommandQueue, cl.clGetCommandQueueInfo, 0x1092),
               "mem": (buffer, cl.clRetainMemObject, cl.clReleaseMemObject, cl.clGetMemObjectInfo, 0x1105),
               "program": (program, cl.clRetainProgram, cl.clReleaseProgram, cl.clGetProgramInfo, 0x1160),
               "kernel": (kernel, cl.clRetainKernel, cl.clReleaseKernel, cl.clGetKernelInfo, 0x1192),
               "event": (event.value, cl.clRetainEvent, cl.clReleaseEvent, cl.clGetEventInfo, 0x11D2)}
    for kind, (handle, retain, release, query, param) in objects.items():
        counts = [count(query, handle, param)]
        assert retain(handle) == 0 and retain(handle) == 0
        counts.append(count(query, handle, param))
        assert release(handle) == 0
        counts.append(count(query, handle, param))
        out[kind] = counts
    # a context's queries that hand out objects do not add references
    pointer_info(cl.clGetCommandQueueInfo, queue, 0x1090)
    out["context_after_query"] = count(cl.clGetContextInfo, context, 0x1080)
    out["device_count"] = count(cl.clGetDeviceInfo, DEVICE, 0x1047)
    out["retain_root_device"] = [cl.clRetainDevice(DEVICE), cl.clReleaseDevice(DEVICE)]
    ''')
    for kind in ("context", "queue", "mem", "program", "kernel", "event"):
        assert out[kind] == [1, 3, 2], kind
    assert out["context_after_query"] == 2
    assert out["device_count"] == 1 and out["retain_root_device"] == [0, 0]


def test_released_handles_are_invalid_afterwards():
    out = run('''
    size = c_size_t()
    context = new_context()
    queue = new_queue(context)
    buffer = new_buffer(context, 64)
    program = new_program(context, "kernel void k(global int *a) { a[0] = 1; }")
    kernel, _ = make(cl.clCreateKernel, program, b"k")
    event = c_void_p()
    assert cl.clEnqueueMarkerWithWaitList(queue, 0, None, byref(event)) == 0
    event = event.value
    out["releases"] = [cl.clReleaseEvent(event), cl.clReleaseKernel(kernel), cl.clReleaseMemObject(buffer),
                       cl.clReleaseCommandQueue(queue), cl.clReleaseProgram(program), cl.clReleaseContext(context)]
    out["after"] = {
        "event": [cl.clGetEventInfo(event, 0x11D2, 0, None, byref(size)), cl.clReleaseEvent(event),
                  cl.clWaitForEvents(1, ptrs(event))],
        "kernel": [cl.clGetKernelInfo(kernel, 0x1192, 0, None, byref(size)), cl.clReleaseKernel(kernel)],
        "mem": [cl.clGetMemObjectInfo(buffer, 0x1105, 0, None, byref(size)), cl.clRetainMemObject(buffer)],
        "queue": [cl.clFinish(queue), cl.clReleaseCommandQueue(queue)],
        "program": [cl.clGetProgramInfo(program, 0x1160, 0, None, byref(size)), cl.clRetainProgram(program)],
        "context": [cl.clGetContextInfo(context, 0x1080, 0, None, byref(size)), cl.clReleaseContext(context)],
    }
    ''')
    assert out["releases"] == [0] * 6
    for kind, codes in out["after"].items():
        assert codes == [INVALID[kind]] * len(codes), kind


def test_objects_outlive_their_handles_while_the_runtime_uses_them():
    """A queue whose context's last handle is released still works (the spec: the context lives
    until the objects attached to it are released)."""
    out = run('''
    context = new_context()
    queue = new_queue(context)
    buffer = new_buffer(context, 16, 1 | 32, (ctypes.c_float * 4)(1, 2, 3, 4))  # COPY_HOST_PTR
    out["release_context"] = cl.clReleaseContext(context)
    out["values"] = read_floats(queue, buffer, 4)
    ''')
    assert out["release_context"] == 0
    assert out["values"] == [1, 2, 3, 4]


def test_threads_making_and_releasing_handles_concurrently():
    """Several host threads enqueue through the loader at once, each making and releasing thousands
    of event and buffer handles: every handle is distinct while live and every count ends right."""
    out = run('''
    import threading
    context = new_context()
    program = new_program(context, "kernel void fill(global int *a, int v) { a[get_global_id(0)] = v; }")
    failures, totals = [], []

    def work(value):
        queue = new_queue(context)
        kernel, _ = make(cl.clCreateKernel, program, b"fill")
        seen = set()
        for i in range(300):
            buffer = new_buffer(context, 64)
            v = ctypes.c_int32(value * 1000 + i)
            set_mem_arg(kernel, 0, buffer)
            cl.clSetKernelArg(kernel, 1, 4, byref(v))
            event = c_void_p()
            if cl.clEnqueueNDRangeKernel(queue, kernel, 1, None, (c_size_t * 1)(16), None, 0, None, byref(event)):
                failures.append("launch")
            if event.value in seen:
                failures.append("a live handle handed out twice")
            seen.add(event.value)
            host = (ctypes.c_int32 * 16)()
            cl.clEnqueueReadBuffer(queue, buffer, 1, 0, 64, host, 1, ptrs(event.value), None)
            if list(host) != [value * 1000 + i] * 16:
                failures.append("wrong values")
            if cl.clReleaseEvent(event.value) or cl.clReleaseMemObject(buffer):
                failures.append("release")
        totals.append(len(seen))

    threads = [threading.Thread(target=work, args=(n,)) for n in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    out["failures"] = failures
    out["totals"] = totals
    out["context_count"] = uint_info(cl.clGetContextInfo, context, 0x1080)
    ''')
    assert out["failures"] == []
    assert out["totals"] == [300] * 4
    assert out["context_count"] == 1
