"""Kernels through the ICD loader: clSetKernelArg's checks (sizes, indices, __local, NULL buffers),
clEnqueueNDRangeKernel's errors, and launches whose results are checked."""
from c_api_runner import run

SOURCE = """
kernel void axpy(global float *y, global const float *x, float a, local float *scratch) {
    size_t i = get_global_id(0);
    scratch[get_local_id(0)] = x[i];
    barrier(CLK_LOCAL_MEM_FENCE);
    y[i] += a * scratch[get_local_id(0)];
}
kernel void maybe(global int *out, global int *optional) {
    out[get_global_id(0)] = optional ? optional[get_global_id(0)] : -1;
}
typedef struct { int a; float b; char c; } record;
kernel void take(global float *out, record r, int4 v) {
    out[0] = r.a + r.b + r.c + v.x + v.y + v.z + v.w;
}
kernel void fixed(global int *out) __attribute__((reqd_work_group_size(4, 1, 1))) { out[get_global_id(0)] = 1; }
"""


def test_set_kernel_arg_checks():
    out = run(f'''
    context = new_context()
    program = new_program(context, {SOURCE!r})
    kernel, _ = make(cl.clCreateKernel, program, b"axpy")
    buffer = new_buffer(context, 64)
    handle = c_void_p(buffer)
    a = ctypes.c_float(2)
    out["index"] = cl.clSetKernelArg(kernel, 4, 4, byref(a))
    out["mem_size"] = cl.clSetKernelArg(kernel, 0, 4, byref(handle))
    out["scalar_size"] = cl.clSetKernelArg(kernel, 2, 8, byref(a))
    out["scalar_null"] = cl.clSetKernelArg(kernel, 2, 4, None)
    out["scalar_ok"] = cl.clSetKernelArg(kernel, 2, 4, byref(a))
    out["local_with_value"] = cl.clSetKernelArg(kernel, 3, 16, byref(a))
    out["local_zero"] = cl.clSetKernelArg(kernel, 3, 0, None)
    out["local_ok"] = cl.clSetKernelArg(kernel, 3, 64, None)
    out["mem_ok"] = cl.clSetKernelArg(kernel, 0, sizeof(c_void_p), byref(handle))
    out["mem_null_value"] = cl.clSetKernelArg(kernel, 1, sizeof(c_void_p), None)
    null = c_void_p(None)
    out["mem_null_handle"] = cl.clSetKernelArg(kernel, 1, sizeof(c_void_p), byref(null))
    out["forged_kernel"] = cl.clSetKernelArg(FORGED, 0, 4, byref(a))
    take, _ = make(cl.clCreateKernel, program, b"take")
    out["struct_size_wrong"] = cl.clSetKernelArg(take, 1, 4, byref(a))
    out["int4_size_wrong"] = cl.clSetKernelArg(take, 2, 4, byref(a))
    out["unknown_kernel"] = make(cl.clCreateKernel, program, b"nope")
    out["null_name"] = make(cl.clCreateKernel, program, None)
    ''')
    assert out["index"] == -49  # INVALID_ARG_INDEX
    assert out["mem_size"] == -51 and out["scalar_size"] == -51  # INVALID_ARG_SIZE
    assert out["scalar_null"] == -50  # INVALID_ARG_VALUE
    assert out["scalar_ok"] == 0
    assert out["local_with_value"] == -50 and out["local_zero"] == -51 and out["local_ok"] == 0
    assert out["mem_ok"] == 0 and out["mem_null_value"] == 0 and out["mem_null_handle"] == 0
    assert out["forged_kernel"] == -48
    assert out["struct_size_wrong"] == -51 and out["int4_size_wrong"] == -51
    assert out["unknown_kernel"] == [None, -46] and out["null_name"] == [None, -30]


def test_launches_compute_the_right_values():
    out = run(f'''
    context = new_context()
    queue = new_queue(context)
    program = new_program(context, {SOURCE!r})
    n = 64
    x = (ctypes.c_float * n)(*range(n))
    y = (ctypes.c_float * n)(*[1.0] * n)
    bx, by = new_buffer(context, 4 * n, 1 | 32, x), new_buffer(context, 4 * n, 1 | 32, y)
    kernel, _ = make(cl.clCreateKernel, program, b"axpy")
    a = ctypes.c_float(0.5)
    assert set_mem_arg(kernel, 0, by) == 0 and set_mem_arg(kernel, 1, bx) == 0
    assert cl.clSetKernelArg(kernel, 2, 4, byref(a)) == 0
    assert cl.clSetKernelArg(kernel, 3, 4 * 16, None) == 0
    event = c_void_p()
    global_size, local_size = (c_size_t * 1)(n), (c_size_t * 1)(16)
    out["launch"] = cl.clEnqueueNDRangeKernel(queue, kernel, 1, None, global_size, local_size, 0, None, byref(event))
    out["wait"] = cl.clWaitForEvents(1, ptrs(event.value))
    out["y"] = read_floats(queue, by, n)
    out["command_type"] = uint_info(cl.clGetEventInfo, event.value, 0x11D1)
    out["status"] = struct.unpack("i", info(cl.clGetEventInfo, event.value, 0x11D3))[0]

    maybe, _ = make(cl.clCreateKernel, program, b"maybe")
    result = new_buffer(context, 16)
    null = c_void_p(None)
    assert set_mem_arg(maybe, 0, result) == 0
    assert cl.clSetKernelArg(maybe, 1, sizeof(c_void_p), byref(null)) == 0
    assert cl.clEnqueueNDRangeKernel(queue, maybe, 1, None, (c_size_t * 1)(4), None, 0, None, None) == 0
    values = (ctypes.c_int32 * 4)()
    assert cl.clEnqueueReadBuffer(queue, result, 1, 0, 16, values, 0, None, None) == 0
    out["null_buffer_arg"] = list(values)

    class Record(ctypes.Structure):
        _fields_ = [("a", ctypes.c_int32), ("b", ctypes.c_float), ("c", ctypes.c_char)]
    take, _ = make(cl.clCreateKernel, program, b"take")
    record = Record(1, 2.5, b"\\x03")
    vector = (ctypes.c_int32 * 4)(10, 20, 30, 40)
    assert set_mem_arg(take, 0, result) == 0
    out["struct_arg"] = cl.clSetKernelArg(take, 1, sizeof(Record), byref(record))
    out["vector_arg"] = cl.clSetKernelArg(take, 2, 16, vector)
    assert cl.clEnqueueTask(queue, take, 0, None, None) == 0
    out["struct_result"] = read_floats(queue, result, 1)[0]
    ''')
    assert out["launch"] == 0 and out["wait"] == 0
    assert out["y"] == [1 + 0.5 * i for i in range(64)]
    assert out["command_type"] == 0x11F0 and out["status"] == 0
    assert out["null_buffer_arg"] == [-1] * 4
    assert out["struct_arg"] == 0 and out["vector_arg"] == 0
    assert out["struct_result"] == 1 + 2.5 + 3 + 100


def test_ndrange_errors():
    out = run(f'''
    context = new_context()
    queue = new_queue(context)
    program = new_program(context, {SOURCE!r})
    kernel, _ = make(cl.clCreateKernel, program, b"maybe")
    g = (c_size_t * 3)(8, 1, 1)
    out["unset_args"] = cl.clEnqueueNDRangeKernel(queue, kernel, 1, None, g, None, 0, None, None)
    buffer = new_buffer(context, 64)
    set_mem_arg(kernel, 0, buffer)
    set_mem_arg(kernel, 1, buffer)
    out["dims_0"] = cl.clEnqueueNDRangeKernel(queue, kernel, 0, None, g, None, 0, None, None)
    out["dims_4"] = cl.clEnqueueNDRangeKernel(queue, kernel, 4, None, g, None, 0, None, None)
    out["null_global"] = cl.clEnqueueNDRangeKernel(queue, kernel, 1, None, None, None, 0, None, None)
    out["not_dividing"] = cl.clEnqueueNDRangeKernel(queue, kernel, 1, None, g, (c_size_t * 1)(3), 0, None, None)
    out["too_large_local"] = cl.clEnqueueNDRangeKernel(queue, kernel, 1, None, (c_size_t * 1)(1 << 20),
                                                       (c_size_t * 1)(1 << 20), 0, None, None)
    out["zero_local"] = cl.clEnqueueNDRangeKernel(queue, kernel, 1, None, g, (c_size_t * 1)(0), 0, None, None)
    out["wait_list_mismatch"] = [
        cl.clEnqueueNDRangeKernel(queue, kernel, 1, None, g, None, 1, None, None),
        cl.clEnqueueNDRangeKernel(queue, kernel, 1, None, g, None, 0, ptrs(FORGED), None),
        cl.clEnqueueNDRangeKernel(queue, kernel, 1, None, g, None, 1, ptrs(FORGED), None)]
    fixed, _ = make(cl.clCreateKernel, program, b"fixed")
    set_mem_arg(fixed, 0, buffer)
    out["reqd_mismatch"] = cl.clEnqueueNDRangeKernel(queue, fixed, 1, None, g, (c_size_t * 1)(2), 0, None, None)
    out["reqd_ok"] = cl.clEnqueueNDRangeKernel(queue, fixed, 1, None, g, (c_size_t * 1)(4), 0, None, None)
    out["forged_queue"] = cl.clEnqueueNDRangeKernel(FORGED, kernel, 1, None, g, None, 0, None, None)
    out["zero_global"] = cl.clEnqueueNDRangeKernel(queue, kernel, 1, None, (c_size_t * 1)(0), None, 0, None, None)
    ''')
    assert out["unset_args"] == -52  # INVALID_KERNEL_ARGS
    assert out["dims_0"] == -53 and out["dims_4"] == -53  # INVALID_WORK_DIMENSION
    assert out["null_global"] == -63  # INVALID_GLOBAL_WORK_SIZE (OpenCL 2.1+; was INVALID_VALUE)
    assert out["not_dividing"] == 0  # non-uniform work-groups are supported (OpenCL 2.0+)
    assert out["too_large_local"] == -54  # INVALID_WORK_GROUP_SIZE
    assert out["zero_local"] == -54
    assert out["wait_list_mismatch"] == [-57, -57, -57]  # INVALID_EVENT_WAIT_LIST
    assert out["reqd_mismatch"] == -54 and out["reqd_ok"] == 0
    assert out["forged_queue"] == -36
    assert out["zero_global"] == 0  # an empty NDRange is allowed since OpenCL 2.1 (nothing runs)


def test_kernel_objects():
    out = run(f'''
    context = new_context()
    program = new_program(context, {SOURCE!r})
    count = c_uint32()
    out["count_only"] = cl.clCreateKernelsInProgram(program, 0, None, byref(count))
    out["count"] = count.value
    kernels = (c_void_p * count.value)()
    out["too_few"] = cl.clCreateKernelsInProgram(program, 1, kernels, None)
    out["all"] = cl.clCreateKernelsInProgram(program, count.value, kernels, None)
    out["names"] = sorted(info(cl.clGetKernelInfo, k, 0x1190).decode().rstrip("\\0") for k in kernels)
    axpy = [k for k in kernels if info(cl.clGetKernelInfo, k, 0x1190) == b"axpy\\0"][0]
    a = ctypes.c_float(3)
    assert cl.clSetKernelArg(axpy, 2, 4, byref(a)) == 0
    queue = new_queue(context)
    x = (ctypes.c_float * 16)(*range(16))
    bx, by = new_buffer(context, 64, 1 | 32, x), new_buffer(context, 64, 1 | 32, (ctypes.c_float * 16)())
    assert set_mem_arg(axpy, 0, by) == 0 and set_mem_arg(axpy, 1, bx) == 0
    assert cl.clSetKernelArg(axpy, 3, 64, None) == 0
    clone, code = make(cl.clCloneKernel, axpy)
    out["clone"] = code
    out["clone_name"] = info(cl.clGetKernelInfo, clone, 0x1190).decode()
    out["clone_count"] = uint_info(cl.clGetKernelInfo, clone, 0x1192)
    a = ctypes.c_float(100)  # changes the original's argument, not the clone's
    assert cl.clSetKernelArg(axpy, 2, 4, byref(a)) == 0
    assert cl.clEnqueueNDRangeKernel(queue, clone, 1, None, (c_size_t * 1)(16), None, 0, None, None) == 0
    out["clone_result"] = read_floats(queue, by, 16)
    unbuilt = new_program(context, {SOURCE!r}, build=False)
    out["unbuilt"] = make(cl.clCreateKernel, unbuilt, b"axpy")
    out["unbuilt_all"] = cl.clCreateKernelsInProgram(unbuilt, 0, None, byref(count))
    out["release_program_first"] = cl.clReleaseProgram(program)
    out["kernel_program_still"] = pointer_info(cl.clGetKernelInfo, clone, 0x1194) != 0
    ''')
    assert out["count_only"] == 0 and out["count"] == 4
    assert out["too_few"] == -30 and out["all"] == 0
    assert out["names"] == ["axpy", "fixed", "maybe", "take"]
    assert out["clone"] == 0 and out["clone_name"] == "axpy\0" and out["clone_count"] == 1
    assert out["clone_result"] == [3.0 * i for i in range(16)]
    assert out["unbuilt"] == [None, -45] and out["unbuilt_all"] == -45  # INVALID_PROGRAM_EXECUTABLE
    assert out["release_program_first"] == 0 and out["kernel_program_still"]


def test_kernel_argument_info():
    out = run('''
    context = new_context()
    source = "kernel void k(global const float *restrict a, local int *l, constant char *c, uint n) { }"
    plain = new_program(context, source)
    kernel, _ = make(cl.clCreateKernel, plain, b"k")
    size = c_size_t()
    out["without_option"] = cl.clGetKernelArgInfo(kernel, 0, 0x119A, 0, None, byref(size))
    program = new_program(context, source, b"-cl-kernel-arg-info")
    kernel, _ = make(cl.clCreateKernel, program, b"k")
    out["names"] = [info(cl.clGetKernelArgInfo, kernel, i, 0x119A).decode() for i in range(4)]
    out["types"] = [info(cl.clGetKernelArgInfo, kernel, i, 0x1198).decode() for i in range(4)]
    out["address"] = [uint_info(cl.clGetKernelArgInfo, kernel, i, 0x1196) for i in range(4)]
    out["access"] = [uint_info(cl.clGetKernelArgInfo, kernel, i, 0x1197) for i in range(4)]
    out["pointer_qualifiers"] = struct.unpack("Q", info(cl.clGetKernelArgInfo, kernel, 0, 0x1199))[0]
    out["bad_index"] = cl.clGetKernelArgInfo(kernel, 4, 0x119A, 0, None, byref(size))
    out["bad_param"] = cl.clGetKernelArgInfo(kernel, 0, 0x1190, 0, None, byref(size))
    ''')
    assert out["without_option"] == -19  # KERNEL_ARG_INFO_NOT_AVAILABLE
    assert out["names"] == ["a\0", "l\0", "c\0", "n\0"]
    assert out["types"] == ["float*\0", "int*\0", "char*\0", "uint\0"]
    assert out["address"] == [0x119B, 0x119C, 0x119D, 0x119E]  # GLOBAL, LOCAL, CONSTANT, PRIVATE
    assert out["access"] == [0x11A3] * 4  # NONE
    assert out["pointer_qualifiers"] == 1 | 2  # CONST | RESTRICT
    assert out["bad_index"] == -49 and out["bad_param"] == -30


def test_scalar_arguments_of_every_width_arrive_exactly():
    out = run('''
    context = new_context()
    queue = new_queue(context)
    source = """kernel void take(global long *ints, global double *reals, char c, uchar uc, short s, ushort us,
                                 int i, uint ui, long l, ulong ul, float f, double d) {
        ints[0] = c; ints[1] = uc; ints[2] = s; ints[3] = us; ints[4] = i; ints[5] = ui; ints[6] = l;
        ints[7] = (long)(ul >> 1); reals[0] = f; reals[1] = d;
    }"""
    program = new_program(context, source)
    kernel, _ = make(cl.clCreateKernel, program, b"take")
    ints, reals = new_buffer(context, 64), new_buffer(context, 16)
    set_mem_arg(kernel, 0, ints)
    set_mem_arg(kernel, 1, reals)
    values = [ctypes.c_int8(-128), ctypes.c_uint8(255), ctypes.c_int16(-32768), ctypes.c_uint16(65535),
              ctypes.c_int32(-2**31), ctypes.c_uint32(2**32 - 1), ctypes.c_int64(-2**63), ctypes.c_uint64(2**64 - 2),
              ctypes.c_float(-1.5e-3), ctypes.c_double(2.0**-1000)]
    out["set"] = [cl.clSetKernelArg(kernel, 2 + i, sizeof(v), byref(v)) for i, v in enumerate(values)]
    assert cl.clEnqueueTask(queue, kernel, 0, None, None) == 0
    got = (ctypes.c_int64 * 8)()
    cl.clEnqueueReadBuffer(queue, ints, 1, 0, 64, got, 0, None, None)
    out["ints"] = list(got)
    got_reals = (ctypes.c_double * 2)()
    cl.clEnqueueReadBuffer(queue, reals, 1, 0, 16, got_reals, 0, None, None)
    out["reals"] = list(got_reals)
    out["float_exact"] = got_reals[0] == ctypes.c_float(-1.5e-3).value
    ''')
    assert out["set"] == [0] * 10
    assert out["ints"] == [-128, 255, -32768, 65535, -2**31, 2**32 - 1, -2**63, (2**64 - 2) >> 1]
    assert out["float_exact"] and out["reals"][1] == 2.0**-1000


def test_the_same_buffer_set_again_and_a_new_buffer_at_a_released_handle():
    """clSetKernelArg skips a buffer that is already the argument (pyopencl sets every argument before
    every launch); a buffer released and a new one made (its handle may be the old one's) is a
    different argument, and the launch writes the new one."""
    out = run(f'''
    context = new_context()
    queue = new_queue(context)
    program = new_program(context, {SOURCE!r})
    maybe, _ = make(cl.clCreateKernel, program, b"maybe")
    null = c_void_p(None)
    assert cl.clSetKernelArg(maybe, 1, sizeof(c_void_p), byref(null)) == 0
    first = new_buffer(context, 16)
    assert set_mem_arg(maybe, 0, first) == 0 and set_mem_arg(maybe, 0, first) == 0
    assert cl.clEnqueueNDRangeKernel(queue, maybe, 1, None, (c_size_t * 1)(4), None, 0, None, None) == 0
    values = (ctypes.c_int32 * 4)()
    assert cl.clEnqueueReadBuffer(queue, first, 1, 0, 16, values, 0, None, None) == 0
    out["first"] = list(values)
    out["handles"] = [first]
    for _ in range(4):
        assert cl.clReleaseMemObject(c_void_p(out["handles"][-1])) == 0
        fresh = new_buffer(context, 16)
        out["handles"].append(fresh)
        assert set_mem_arg(maybe, 0, fresh) == 0
        assert cl.clEnqueueNDRangeKernel(queue, maybe, 1, None, (c_size_t * 1)(4), None, 0, None, None) == 0
        values = (ctypes.c_int32 * 4)()
        assert cl.clEnqueueReadBuffer(queue, fresh, 1, 0, 16, values, 0, None, None) == 0
        out.setdefault("fresh", []).append(list(values))
    ''')
    assert out["first"] == [-1] * 4
    assert out["fresh"] == [[-1] * 4] * 4
