"""The C API's info-query conventions through the ICD loader: sizes asked first, exact
param_value_size_ret, too small a buffer (INVALID_VALUE, nothing written), NULL out pointers,
unknown params, and each answer's C type and width."""
from c_api_runner import run


def test_size_too_small_writes_nothing_and_size_ret_is_exact():
    out = run('''
    name = info(cl.clGetPlatformInfo, PLATFORM, 0x0902)
    out["name"] = name.decode("latin-1")
    size = c_size_t(999)
    buffer = ctypes.create_string_buffer(b"\\xAA" * 64, 64)
    out["short"] = cl.clGetPlatformInfo(PLATFORM, 0x0902, len(name) - 1, buffer, byref(size))
    out["untouched"] = buffer.raw[:len(name)] == b"\\xAA" * len(name)
    out["size_after_short"] = size.value
    out["exact"] = cl.clGetPlatformInfo(PLATFORM, 0x0902, len(name), buffer, byref(size))
    out["exact_size"] = size.value
    out["bigger"] = cl.clGetPlatformInfo(PLATFORM, 0x0902, 64, buffer, None)
    out["value"] = buffer.raw[:len(name)].decode("latin-1")
    out["both_null"] = cl.clGetPlatformInfo(PLATFORM, 0x0902, 0, None, None)
    word = c_uint32(0x55555555)
    out["uint_short"] = cl.clGetDeviceInfo(DEVICE, 0x1002, 2, byref(word), None)  # MAX_COMPUTE_UNITS
    out["uint_untouched"] = word.value
    out["unknown_platform_param"] = cl.clGetPlatformInfo(PLATFORM, 0x0999, 0, None, byref(size))
    out["unknown_device_param"] = cl.clGetDeviceInfo(DEVICE, 0x10FF0, 0, None, byref(size))
    ''')
    assert out["name"] == "loomcl\0"
    assert out["short"] == -30 and out["untouched"]
    assert out["exact"] == 0 and out["exact_size"] == len("loomcl") + 1
    assert out["bigger"] == 0 and out["value"] == "loomcl\0"
    assert out["both_null"] == 0
    assert out["uint_short"] == -30 and out["uint_untouched"] == 0x55555555
    assert out["unknown_platform_param"] == -30
    assert out["unknown_device_param"] == -30


def test_platform_answers():
    out = run('''
    for key, param in [("profile", 0x0900), ("version", 0x0901), ("vendor", 0x0903), ("extensions", 0x0904),
                       ("suffix", 0x0920)]:
        out[key] = info(cl.clGetPlatformInfo, PLATFORM, param).decode()
    out["timer_resolution_bytes"] = len(info(cl.clGetPlatformInfo, PLATFORM, 0x0905))
    ''')
    assert out["profile"] == "FULL_PROFILE\0"
    assert out["version"].startswith("OpenCL 3.0") and out["version"].endswith("\0")
    assert out["suffix"] == "LOOM\0"
    assert "cl_khr_icd" in out["extensions"].rstrip("\0").split()
    assert out["timer_resolution_bytes"] == 8


def test_device_answers_have_their_c_widths():
    out = run('''
    out["type"] = list(struct.unpack("Q", info(cl.clGetDeviceInfo, DEVICE, 0x1000)))
    out["max_wg"] = len(info(cl.clGetDeviceInfo, DEVICE, 0x1004))
    dims = uint_info(cl.clGetDeviceInfo, DEVICE, 0x1003)
    out["dims"] = dims
    out["item_sizes"] = len(info(cl.clGetDeviceInfo, DEVICE, 0x1005))
    out["global_mem"] = len(info(cl.clGetDeviceInfo, DEVICE, 0x101F))
    out["platform_is_ours"] = pointer_info(cl.clGetDeviceInfo, DEVICE, 0x1031) == PLATFORM
    out["available"] = uint_info(cl.clGetDeviceInfo, DEVICE, 0x1027)
    out["name_terminated"] = info(cl.clGetDeviceInfo, DEVICE, 0x102B).endswith(b"\\0")
    out["c_version"] = info(cl.clGetDeviceInfo, DEVICE, 0x103D).decode()
    out["svm"] = struct.unpack("Q", info(cl.clGetDeviceInfo, DEVICE, 0x1053))[0]  # SVM_CAPABILITIES
    out["il_version"] = info(cl.clGetDeviceInfo, DEVICE, 0x105B).decode()  # IL_VERSION
    ''')
    assert out["type"] == [2]  # CPU
    assert out["max_wg"] == 8 and out["global_mem"] == 8
    assert out["dims"] == 3 and out["item_sizes"] == 3 * 8
    assert out["platform_is_ours"] and out["available"] == 1 and out["name_terminated"]
    assert out["c_version"].startswith("OpenCL C 1.2")
    assert out["svm"] == 0 and out["il_version"] == "\0"  # no SVM, no IL (OpenCL 3.0 optional features)


def test_object_info_answers_handles_and_sizes():
    out = run('''
    context = new_context()
    queue = new_queue(context, 2)  # PROFILING_ENABLE
    buffer = new_buffer(context, 256)
    out["context_devices"] = pointer_info(cl.clGetContextInfo, context, 0x1081) == DEVICE
    out["context_num_devices"] = uint_info(cl.clGetContextInfo, context, 0x1083)
    out["queue_context"] = pointer_info(cl.clGetCommandQueueInfo, queue, 0x1090) == context
    out["queue_device"] = pointer_info(cl.clGetCommandQueueInfo, queue, 0x1091) == DEVICE
    out["queue_properties"] = struct.unpack("Q", info(cl.clGetCommandQueueInfo, queue, 0x1093))[0]
    out["mem_size"] = struct.unpack("N", info(cl.clGetMemObjectInfo, buffer, 0x1102))[0]
    out["mem_flags"] = struct.unpack("Q", info(cl.clGetMemObjectInfo, buffer, 0x1101))[0]
    out["mem_type"] = uint_info(cl.clGetMemObjectInfo, buffer, 0x1100)
    out["mem_context"] = pointer_info(cl.clGetMemObjectInfo, buffer, 0x1106) == context
    out["mem_host_ptr"] = pointer_info(cl.clGetMemObjectInfo, buffer, 0x1103)
    program = new_program(context, "kernel void k(global int *a, int b) { a[0] = b; }")
    kernel, code = make(cl.clCreateKernel, program, b"k")
    out["kernel_name"] = info(cl.clGetKernelInfo, kernel, 0x1190).decode()
    out["kernel_num_args"] = uint_info(cl.clGetKernelInfo, kernel, 0x1191)
    out["kernel_program"] = pointer_info(cl.clGetKernelInfo, kernel, 0x1194) == program
    out["kernel_context"] = pointer_info(cl.clGetKernelInfo, kernel, 0x1193) == context
    out["program_devices"] = pointer_info(cl.clGetProgramInfo, program, 0x1163) == DEVICE
    out["program_kernel_names"] = info(cl.clGetProgramInfo, program, 0x1168).decode()
    out["program_num_kernels"] = len(info(cl.clGetProgramInfo, program, 0x1167))
    out["wg_size_bytes"] = len(info(cl.clGetKernelWorkGroupInfo, kernel, DEVICE, 0x11B0))
    out["compile_wg_bytes"] = len(info(cl.clGetKernelWorkGroupInfo, kernel, DEVICE, 0x11B1))
    out["build_status"] = struct.unpack("i", info(cl.clGetProgramBuildInfo, program, DEVICE, 0x1181))[0]
    ''')
    assert out["context_devices"] and out["context_num_devices"] == 1
    assert out["queue_context"] and out["queue_device"] and out["queue_properties"] == 2
    assert out["mem_size"] == 256 and out["mem_flags"] == 1 and out["mem_type"] == 0x10F0
    assert out["mem_context"] and out["mem_host_ptr"] == 0
    assert out["kernel_name"] == "k\0" and out["kernel_num_args"] == 2
    assert out["kernel_program"] and out["kernel_context"]
    assert out["program_devices"] and out["program_kernel_names"] == "k\0" and out["program_num_kernels"] == 8
    assert out["wg_size_bytes"] == 8 and out["compile_wg_bytes"] == 24
    assert out["build_status"] == 0  # CL_BUILD_SUCCESS
