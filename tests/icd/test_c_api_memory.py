"""Memory objects through the ICD loader: creators' errcode_ret (NULL allowed), host pointers,
sub-buffers, and the buffer info queries."""
from c_api_runner import run


def test_create_buffer_errcodes():
    out = run('''
    context = new_context()
    host = (ctypes.c_float * 4)(1, 2, 3, 4)
    out["size_zero"] = make(cl.clCreateBuffer, context, 1, 0, None)
    out["host_ptr_without_flag"] = make(cl.clCreateBuffer, context, 1, 16, host)
    out["flag_without_host_ptr"] = make(cl.clCreateBuffer, context, 1 | 32, 16, None)  # COPY_HOST_PTR
    out["use_and_alloc"] = make(cl.clCreateBuffer, context, 1 | 8 | 16, 16, host)  # USE | ALLOC_HOST_PTR
    out["read_only_and_write_only"] = make(cl.clCreateBuffer, context, 2 | 4, 16, None)
    out["unknown_flag"] = make(cl.clCreateBuffer, context, 1 << 40, 16, None)
    out["too_big"] = make(cl.clCreateBuffer, context, 1, 1 << 60, None)
    buffer = cl.clCreateBuffer(context, 1, 16, None, None)  # errcode_ret NULL
    out["null_errcode_ok"] = bool(buffer)
    out["null_errcode_failure"] = cl.clCreateBuffer(context, 1, 0, None, None)
    ''')
    assert out["size_zero"] == [None, -61]  # INVALID_BUFFER_SIZE
    assert out["host_ptr_without_flag"] == [None, -37]  # INVALID_HOST_PTR
    assert out["flag_without_host_ptr"] == [None, -37]
    assert out["use_and_alloc"] == [None, -30]
    assert out["read_only_and_write_only"] == [None, -30]
    assert out["unknown_flag"] == [None, -30]
    assert out["too_big"] == [None, -61]
    assert out["null_errcode_ok"] and out["null_errcode_failure"] is None


def test_use_host_ptr_shares_the_callers_memory():
    out = run('''
    context = new_context()
    queue = new_queue(context)
    host = (ctypes.c_float * 4)(1, 2, 3, 4)
    buffer = new_buffer(context, 16, 1 | 8, host)  # USE_HOST_PTR
    out["host_ptr"] = pointer_info(cl.clGetMemObjectInfo, buffer, 0x1103) == ctypes.addressof(host)
    program = new_program(context, "kernel void twice(global float *a) { a[get_global_id(0)] *= 2; }")
    kernel, _ = make(cl.clCreateKernel, program, b"twice")
    assert set_mem_arg(kernel, 0, buffer) == 0
    size = (c_size_t * 1)(4)
    assert cl.clEnqueueNDRangeKernel(queue, kernel, 1, None, size, None, 0, None, None) == 0
    assert cl.clFinish(queue) == 0
    mapped, code = make(cl.clEnqueueMapBuffer, queue, buffer, 1, 1, 0, 16, 0, None, None)
    out["map"] = code
    out["values"] = list((ctypes.c_float * 4).from_address(mapped))
    assert cl.clEnqueueUnmapMemObject(queue, buffer, mapped, 0, None, None) == 0
    out["host_after"] = list(host)
    ''')
    assert out["host_ptr"] and out["map"] == 0
    assert out["values"] == [2, 4, 6, 8] and out["host_after"] == [2, 4, 6, 8]


def test_sub_buffers():
    out = run('''
    context = new_context()
    queue = new_queue(context)
    data = (ctypes.c_int32 * 64)(*range(64))
    parent = new_buffer(context, 256, 1 | 32, data)
    align = uint_info(cl.clGetDeviceInfo, DEVICE, 0x1019) // 8  # MEM_BASE_ADDR_ALIGN, bits
    out["align"] = align
    region = (c_size_t * 2)(align, 64)
    sub, code = make(cl.clCreateSubBuffer, parent, 1, 0x1220, region)
    out["create"] = code
    host = (ctypes.c_int32 * 16)()
    assert cl.clEnqueueReadBuffer(queue, sub, 1, 0, 64, host, 0, None, None) == 0
    out["values"] = list(host)
    out["offset"] = struct.unpack("N", info(cl.clGetMemObjectInfo, sub, 0x1108))[0]
    out["parent"] = pointer_info(cl.clGetMemObjectInfo, sub, 0x1107) == parent
    out["size"] = struct.unpack("N", info(cl.clGetMemObjectInfo, sub, 0x1102))[0]
    out["misaligned"] = make(cl.clCreateSubBuffer, parent, 1, 0x1220, (c_size_t * 2)(4, 16))[1]
    out["out_of_bounds"] = make(cl.clCreateSubBuffer, parent, 1, 0x1220, (c_size_t * 2)(align, 256))[1]
    out["zero_size"] = make(cl.clCreateSubBuffer, parent, 1, 0x1220, (c_size_t * 2)(0, 0))[1]
    out["bad_type"] = make(cl.clCreateSubBuffer, parent, 1, 0x1221, region)[1]
    out["of_sub"] = make(cl.clCreateSubBuffer, sub, 1, 0x1220, (c_size_t * 2)(0, 16))[1]
    # writes through the sub-buffer land in the parent
    seven = (ctypes.c_int32 * 1)(7)
    assert cl.clEnqueueWriteBuffer(queue, sub, 1, 4, 4, seven, 0, None, None) == 0
    whole = (ctypes.c_int32 * 64)()
    assert cl.clEnqueueReadBuffer(queue, parent, 1, 0, 256, whole, 0, None, None) == 0
    out["parent_value"] = whole[align // 4 + 1]
    out["release_parent_first"] = [cl.clReleaseMemObject(parent),
                                   cl.clEnqueueReadBuffer(queue, sub, 1, 0, 64, host, 0, None, None)]
    ''')
    align = out["align"]
    assert out["create"] == 0
    assert out["values"] == list(range(align // 4, align // 4 + 16))
    assert out["offset"] == align and out["parent"] and out["size"] == 64
    assert out["misaligned"] == -13  # MISALIGNED_SUB_BUFFER_OFFSET
    assert out["out_of_bounds"] == -30 and out["zero_size"] == -61 and out["bad_type"] == -30
    assert out["of_sub"] == -38
    assert out["parent_value"] == 7
    assert out["release_parent_first"] == [0, 0]


def test_destructor_callbacks_run_last_registered_first():
    out = run('''
    order = []
    CALLBACK = ctypes.CFUNCTYPE(None, c_void_p, c_void_p)
    first = CALLBACK(lambda memory, data: order.append(("first", data)))
    second = CALLBACK(lambda memory, data: order.append(("second", data)))
    context = new_context()
    buffer = new_buffer(context, 16)
    assert cl.clSetMemObjectDestructorCallback(buffer, first, 1) == 0
    assert cl.clSetMemObjectDestructorCallback(buffer, second, 2) == 0
    out["null_callback"] = cl.clSetMemObjectDestructorCallback(buffer, None, None)
    cl.clRetainMemObject(buffer)
    cl.clReleaseMemObject(buffer)
    out["before"] = list(order)
    cl.clReleaseMemObject(buffer)
    out["after"] = order
    ''')
    assert out["null_callback"] == -30
    assert out["before"] == []
    assert out["after"] == [["second", 2], ["first", 1]]


def test_migrate_orders_like_a_marker():
    out = run('''
    context = new_context()
    queue = new_queue(context)
    buffer = new_buffer(context, 64)
    event = c_void_p()
    out["migrate"] = cl.clEnqueueMigrateMemObjects(queue, 1, ptrs(buffer), 1, 0, None, byref(event))
    assert cl.clFinish(queue) == 0
    out["status"] = struct.unpack("i", info(cl.clGetEventInfo, event.value, 0x11D3))[0]
    out["bad_flags"] = cl.clEnqueueMigrateMemObjects(queue, 1, ptrs(buffer), 1 << 10, 0, None, None)
    out["none"] = cl.clEnqueueMigrateMemObjects(queue, 0, None, 1, 0, None, None)
    out["forged"] = cl.clEnqueueMigrateMemObjects(queue, 1, ptrs(FORGED), 1, 0, None, None)
    ''')
    assert out["migrate"] == 0 and out["status"] == 0
    assert out["bad_flags"] == -30 and out["none"] == -30 and out["forged"] == -38


def test_sub_buffer_flags_and_host_access():
    out = run('''
    context = new_context()
    queue = new_queue(context)
    region = (c_size_t * 2)(0, 64)
    write_only = new_buffer(context, 256, 2 | (1 << 7))  # WRITE_ONLY | HOST_WRITE_ONLY
    out["wider_access"] = make(cl.clCreateSubBuffer, write_only, 1, 0x1220, region)[1]  # READ_WRITE
    out["wider_host_access"] = make(cl.clCreateSubBuffer, write_only, 1 << 8, 0x1220, region)[1]  # HOST_READ_ONLY
    out["host_pointer_flag"] = make(cl.clCreateSubBuffer, write_only, 8, 0x1220, region)[1]  # USE_HOST_PTR
    inherited, code = make(cl.clCreateSubBuffer, write_only, 0, 0x1220, region)
    out["inherited"] = [code, struct.unpack("Q", info(cl.clGetMemObjectInfo, inherited, 0x1101))[0]]
    host = (ctypes.c_uint8 * 16)(*range(16))
    out["read_host_write_only"] = cl.clEnqueueReadBuffer(queue, inherited, 1, 0, 16, host, 0, None, None)
    out["write_host_write_only"] = cl.clEnqueueWriteBuffer(queue, inherited, 1, 0, 16, host, 0, None, None)
    no_access = new_buffer(context, 256, 1 | (1 << 9))  # HOST_NO_ACCESS
    origin = (c_size_t * 3)(0, 0, 0)
    box = (c_size_t * 3)(4, 1, 1)
    out["no_access"] = [cl.clEnqueueReadBuffer(queue, no_access, 1, 0, 16, host, 0, None, None),
                        cl.clEnqueueWriteBuffer(queue, no_access, 1, 0, 16, host, 0, None, None),
                        cl.clEnqueueReadBufferRect(queue, no_access, 1, origin, origin, box, 0, 0, 0, 0, host,
                                                   0, None, None)]
    read_only = new_buffer(context, 256, 1 | (1 << 8))  # HOST_READ_ONLY
    out["write_host_read_only"] = cl.clEnqueueWriteBufferRect(queue, read_only, 1, origin, origin, box, 0, 0, 0, 0,
                                                              host, 0, None, None)
    out["two_host_modes"] = make(cl.clCreateBuffer, context, (1 << 7) | (1 << 8), 64, None)[1]
    ''')
    assert out["wider_access"] == -30 and out["wider_host_access"] == -30 and out["host_pointer_flag"] == -30
    assert out["inherited"] == [0, 2 | (1 << 7)]
    assert out["read_host_write_only"] == -59 and out["write_host_write_only"] == 0  # INVALID_OPERATION
    assert out["no_access"] == [-59, -59, -59]
    assert out["write_host_read_only"] == -59
    assert out["two_host_modes"] == -30
