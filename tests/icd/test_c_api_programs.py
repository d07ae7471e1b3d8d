"""Programs through the ICD loader: sources, build failures and their log, build info, binaries
round trip (BINARY_SIZES/BINARIES then clCreateProgramWithBinary), and what loomcl does not take."""
from c_api_runner import run


def test_build_failure_reports_the_log():
    out = run('''
    context = new_context()
    program = new_program(context, "kernel void broken(global int *a) {\\n  a[0] = undeclared;\\n}", build=False)
    out["build"] = cl.clBuildProgram(program, 1, ptrs(DEVICE), b"", None, None)
    out["status"] = struct.unpack("i", info(cl.clGetProgramBuildInfo, program, DEVICE, 0x1181))[0]
    out["log"] = info(cl.clGetProgramBuildInfo, program, DEVICE, 0x1183).decode()
    out["options"] = info(cl.clGetProgramBuildInfo, program, DEVICE, 0x1182).decode()
    out["kernel"] = make(cl.clCreateKernel, program, b"broken")
    good = new_program(context, "kernel void k(global int *a) { a[0] = 1; }", build=False)
    out["bad_option"] = cl.clBuildProgram(good, 1, ptrs(DEVICE), b"-fno-such-option", None, None)
    out["device_list_mismatch"] = cl.clBuildProgram(good, 1, None, b"", None, None)
    out["user_data_without_notify"] = cl.clBuildProgram(good, 0, None, b"", None, 1)
    out["options_kept"] = cl.clBuildProgram(good, 0, None, b"-DX=1", None, None)
    out["options_after"] = info(cl.clGetProgramBuildInfo, good, DEVICE, 0x1182).decode()
    ''')
    assert out["build"] == -11  # BUILD_PROGRAM_FAILURE
    assert out["status"] == -2  # CL_BUILD_ERROR
    assert "undeclared" in out["log"] and out["log"].endswith("\0")
    assert out["kernel"] == [None, -45]  # INVALID_PROGRAM_EXECUTABLE
    assert out["bad_option"] == -43  # INVALID_BUILD_OPTIONS
    assert out["device_list_mismatch"] == -30 and out["user_data_without_notify"] == -30
    assert out["options_kept"] == 0 and out["options_after"] == "-DX=1\0"


def test_source_strings_with_and_without_lengths():
    out = run('''
    context = new_context()
    queue = new_queue(context)
    parts = [b"kernel void k(global int *a) ", b"{ a[get_global_id(0)] = 7; }XXXX"]
    strings = (c_char_p * 2)(*parts)
    lengths = (c_size_t * 2)(len(parts[0]), len(parts[1]) - 4)  # the second without its tail
    program, code = make(cl.clCreateProgramWithSource, context, 2, strings, lengths)
    out["create"] = code
    out["build"] = cl.clBuildProgram(program, 0, None, None, None, None)
    out["source"] = info(cl.clGetProgramInfo, program, 0x1164).decode()
    out["count_zero"] = make(cl.clCreateProgramWithSource, context, 0, strings, None)[1]
    out["null_strings"] = make(cl.clCreateProgramWithSource, context, 1, None, None)[1]
    out["null_string"] = make(cl.clCreateProgramWithSource, context, 1, (c_char_p * 1)(None), None)[1]
    ''')
    assert out["create"] == 0 and out["build"] == 0
    assert out["source"] == "kernel void k(global int *a) { a[get_global_id(0)] = 7; }\0"
    assert out["count_zero"] == -30 and out["null_strings"] == -30 and out["null_string"] == -30


def test_binaries_round_trip():
    out = run('''
    context = new_context()
    queue = new_queue(context)
    program = new_program(context, "kernel void k(global int *a) { a[get_global_id(0)] = 3 * get_global_id(0); }")
    size = struct.unpack("N", info(cl.clGetProgramInfo, program, 0x1165))[0]  # BINARY_SIZES
    binary = ctypes.create_string_buffer(size)
    pointers = ptrs(ctypes.addressof(binary))
    written = c_size_t()
    out["short"] = cl.clGetProgramInfo(program, 0x1166, 4, pointers, None)
    out["binaries"] = cl.clGetProgramInfo(program, 0x1166, sizeof(c_void_p), pointers, byref(written))
    out["written"] = written.value
    lengths = (c_size_t * 1)(size)
    status = (c_int32 * 1)(12345)
    loaded, code = make(cl.clCreateProgramWithBinary, context, 1, ptrs(DEVICE), lengths, pointers, status)
    out["create"], out["binary_status"] = code, status[0]
    out["build"] = cl.clBuildProgram(loaded, 0, None, None, None, None)
    kernel, _ = make(cl.clCreateKernel, loaded, b"k")
    buffer = new_buffer(context, 32)
    set_mem_arg(kernel, 0, buffer)
    assert cl.clEnqueueNDRangeKernel(queue, kernel, 1, None, (c_size_t * 1)(8), None, 0, None, None) == 0
    values = (c_int32 * 8)()
    assert cl.clEnqueueReadBuffer(queue, buffer, 1, 0, 32, values, 0, None, None) == 0
    out["values"] = list(values)
    out["binary_type"] = uint_info(cl.clGetProgramBuildInfo, loaded, DEVICE, 0x1184)
    garbage = ctypes.create_string_buffer(b"not a loomcl binary", 19)
    status[0] = 12345
    out["garbage"] = make(cl.clCreateProgramWithBinary, context, 1, ptrs(DEVICE), (c_size_t * 1)(19),
                          ptrs(ctypes.addressof(garbage)), status)
    out["garbage_status"] = status[0]
    out["no_lengths"] = make(cl.clCreateProgramWithBinary, context, 1, ptrs(DEVICE), None, pointers, None)[1]
    out["no_devices"] = make(cl.clCreateProgramWithBinary, context, 0, None, lengths, pointers, None)[1]
    ''')
    assert out["short"] == -30
    assert out["binaries"] == 0 and out["written"] == 8
    assert out["create"] == 0 and out["binary_status"] == 0 and out["build"] == 0
    assert out["values"] == [3 * i for i in range(8)]
    assert out["binary_type"] == 4  # CL_PROGRAM_BINARY_TYPE_EXECUTABLE
    assert out["garbage"] == [None, -42] and out["garbage_status"] == -42  # INVALID_BINARY
    assert out["no_lengths"] == -30 and out["no_devices"] == -30


def test_what_loomcl_does_not_take():
    out = run('''
    context = new_context()
    out["il"] = make(cl.clCreateProgramWithIL, context, b"\\x03\\x02\\x23\\x07", 4)
    ''')
    assert out["il"] == [None, -59]  # INVALID_OPERATION: CL_DEVICE_IL_VERSION is empty


def test_build_notify_and_states_before_a_build():
    out = run('''
    seen = []
    CALLBACK = ctypes.CFUNCTYPE(None, c_void_p, c_void_p)
    notify = CALLBACK(lambda program, data: seen.append([program, data]))
    context = new_context()
    program = new_program(context, "kernel void k(global int *a) { a[0] = 1; }", build=False)
    size = c_size_t()
    out["status_before"] = struct.unpack("i", info(cl.clGetProgramBuildInfo, program, DEVICE, 0x1181))[0]
    out["num_kernels_before"] = cl.clGetProgramInfo(program, 0x1167, 0, None, byref(size))
    out["kernel_names_before"] = cl.clGetProgramInfo(program, 0x1168, 0, None, byref(size))
    out["build"] = cl.clBuildProgram(program, 0, None, None, notify, 42)
    out["notified"] = [[p == program, d] for p, d in seen]
    out["num_kernels_after"] = struct.unpack("N", info(cl.clGetProgramInfo, program, 0x1167))[0]
    ''')
    assert out["status_before"] == -1  # CL_BUILD_NONE
    assert out["num_kernels_before"] == -45 and out["kernel_names_before"] == -45
    assert out["build"] == 0 and out["notified"] == [[True, 42]]
    assert out["num_kernels_after"] == 1
