"""The C API's answers that the Khronos CTS (conformance/cts.py) and piglit's API tests found wrong,
each as the OpenCL 3.0 API spec gives it, through the ICD loader."""
from c_api_runner import run

KERNEL = "__kernel void k(__global int *a) { a[get_global_id(0)] = 1; }\n"


def test_device_version_strings_and_alignment_follow_the_spec():
    out = run('''
    out["c_version"] = info(cl.clGetDeviceInfo, DEVICE, 0x103D).decode()  # OPENCL_C_VERSION
    out["align_bits"] = uint_info(cl.clGetDeviceInfo, DEVICE, 0x1019)      # MEM_BASE_ADDR_ALIGN
    ''')
    # "OpenCL<space>C<space><major.minor><space><vendor-specific information>" (4.2, CL_DEVICE_OPENCL_C_VERSION)
    assert out["c_version"] == "OpenCL C 1.2 loomcl\0"
    assert out["align_bits"] >= 1024  # the size of long16 in bits, the spec's minimum (FULL_PROFILE)


def test_rebuilding_a_program_with_kernels_attached_is_invalid_operation():
    out = run(f'''
    context = new_context()
    program = new_program(context, {KERNEL!r})
    kernel, code = make(cl.clCreateKernel, program, b"k")
    assert code == 0
    out["build"] = cl.clBuildProgram(program, 1, ptrs(DEVICE), b"", None, None)
    out["compile"] = cl.clCompileProgram(program, 1, ptrs(DEVICE), b"", 0, None, None, None, None)
    cl.clReleaseKernel(kernel)
    out["build_after_release"] = cl.clBuildProgram(program, 1, ptrs(DEVICE), b"", None, None)
    ''')
    assert out["build"] == -59 and out["compile"] == -59  # CL_INVALID_OPERATION
    assert out["build_after_release"] == 0


def test_user_data_without_pfn_notify_is_invalid_value():
    out = run(f'''
    context = new_context()
    data = ctypes.c_int(7)
    program = new_program(context, {KERNEL!r}, build=False)
    out["build"] = cl.clBuildProgram(program, 1, ptrs(DEVICE), b"", None, byref(data))
    out["compile"] = cl.clCompileProgram(program, 1, ptrs(DEVICE), b"", 0, None, None, None, byref(data))
    assert cl.clCompileProgram(program, 1, ptrs(DEVICE), b"", 0, None, None, None, None) == 0
    linked, out["link"] = make(cl.clLinkProgram, context, 1, ptrs(DEVICE), b"", 1, ptrs(program), None,
                               byref(data))
    out["linked"] = bool(linked)
    _, out["context"] = make(cl.clCreateContext, None, 1, ptrs(DEVICE), None, byref(data))
    ''')
    assert out["build"] == out["compile"] == out["link"] == out["context"] == -30  # CL_INVALID_VALUE
    assert not out["linked"]


def test_a_context_property_given_twice_is_invalid_property():
    out = run('''
    twice = (ctypes.c_int64 * 5)(0x1084, PLATFORM, 0x1084, PLATFORM, 0)  # CL_CONTEXT_PLATFORM twice
    context, out["twice"] = make(cl.clCreateContext, twice, 1, ptrs(DEVICE), None, None)
    out["null"] = not context
    once = (ctypes.c_int64 * 3)(0x1084, PLATFORM, 0)
    context, out["once"] = make(cl.clCreateContext, once, 1, ptrs(DEVICE), None, None)
    _, out["from_type_twice"] = make(cl.clCreateContextFromType, twice, 0xFFFFFFFF, None, None)
    ''')
    assert out["twice"] == -64 and out["null"]  # CL_INVALID_PROPERTY
    assert out["once"] == 0
    assert out["from_type_twice"] == -64


def test_migrating_another_contexts_buffer_is_invalid_context():
    out = run('''
    first, second = new_context(), new_context()
    queue = new_queue(first)
    mine, theirs = new_buffer(first, 64), new_buffer(second, 64)
    out["theirs"] = cl.clEnqueueMigrateMemObjects(queue, 1, ptrs(theirs), 0, 0, None, None)
    out["mine"] = cl.clEnqueueMigrateMemObjects(queue, 1, ptrs(mine), 0, 0, None, None)
    out["none"] = cl.clEnqueueMigrateMemObjects(queue, 0, None, 0, 0, None, None)
    ''')
    assert out["theirs"] == -34  # CL_INVALID_CONTEXT
    assert out["mine"] == 0
    assert out["none"] == -30


def test_absent_features_answer_as_the_spec_asks():
    """CTS test_api's consistency checks: no device queues, no pipes, no read_write image arguments."""
    out = run('''
    context = new_context()
    queue = new_queue(context)
    u = c_uint32(0)
    out["queue_size"] = cl.clGetCommandQueueInfo(queue, 0x1094, sizeof(u), byref(u), None)  # CL_QUEUE_SIZE
    out["queue_device_default"] = pointer_info(cl.clGetCommandQueueInfo, queue, 0x1095)
    cl.clGetPipeInfo.argtypes = [c_void_p, c_uint32, c_size_t, c_void_p, c_void_p]
    buffer = new_buffer(context, 4)
    out["pipe_info"] = cl.clGetPipeInfo(buffer, 0x1120, sizeof(u), byref(u), None)  # CL_PIPE_PACKET_SIZE
    out["rw_args"] = uint_info(cl.clGetDeviceInfo, DEVICE, 0x104C)  # MAX_READ_WRITE_IMAGE_ARGS
    cl.clGetSupportedImageFormats.argtypes = [c_void_p, c_uint64, c_uint32, c_uint32, c_void_p, c_void_p]
    count = c_uint32(99)
    for key, flags in (("rw_formats", 1 << 12), ("read_formats", 1 << 2)):  # KERNEL_READ_AND_WRITE, READ_ONLY
        assert cl.clGetSupportedImageFormats(context, flags, 0x10F1, 0, None, byref(count)) == 0  # IMAGE2D
        out[key] = count.value
    ''')
    assert out["queue_size"] == -36  # CL_INVALID_COMMAND_QUEUE: a host queue has no size
    assert out["queue_device_default"] == 0
    assert out["pipe_info"] == -38  # CL_INVALID_MEM_OBJECT: no object is a pipe
    assert out["rw_args"] == 0 and out["rw_formats"] == 0
    assert out["read_formats"] > 0


IMAGE_KERNELS = """
__kernel void writes(__write_only image2d_t img) { write_imageui(img, (int2)(0, 0), (uint4)(1)); }
__kernel void reads(__read_only image2d_t img, sampler_t s, __global uint4 *out) {
    out[0] = read_imageui(img, s, (int2)(0, 0));
}
"""


def test_kernel_argument_checks_of_images_and_samplers():
    out = run(f'''
    context = new_context()
    program = new_program(context, {IMAGE_KERNELS!r})
    writes, _ = make(cl.clCreateKernel, program, b"writes")
    reads, _ = make(cl.clCreateKernel, program, b"reads")
    cl.clCreateImage2D.restype = c_void_p
    cl.clCreateImage2D.argtypes = [c_void_p, c_uint64, c_void_p, c_size_t, c_size_t, c_size_t, c_void_p, c_void_p]
    fmt = (c_uint32 * 2)(0x10B5, 0x10DA)  # CL_RGBA, CL_UNSIGNED_INT8
    images = {{}}
    for name, flags in (("read_only", 1 << 2), ("write_only", 1 << 1), ("read_write", 1)):
        images[name], code = make(cl.clCreateImage2D, context, flags, fmt, 4, 4, 0, None)
        assert code == 0, code
    for name, image in images.items():
        out["writes " + name] = set_mem_arg(writes, 0, image)
        out["reads " + name] = set_mem_arg(reads, 0, image)
    out["null sampler"] = cl.clSetKernelArg(reads, 1, sizeof(c_void_p), None)
    nothing = c_void_p(0)
    out["sampler handle NULL"] = cl.clSetKernelArg(reads, 1, sizeof(c_void_p), byref(nothing))
    ''')
    # API spec 5.9.2 (clSetKernelArg): INVALID_ARG_VALUE for an image whose memory flags contradict
    # the argument's access qualifier; INVALID_SAMPLER for a sampler_t without a valid sampler
    assert out["writes read_only"] == -50 and out["reads write_only"] == -50
    assert out["writes write_only"] == out["writes read_write"] == 0
    assert out["reads read_only"] == out["reads read_write"] == 0
    assert out["null sampler"] == -41 and out["sampler handle NULL"] == -41


def test_context_interop_user_sync_must_be_a_cl_bool():
    out = run('''
    for key, value in (("minus_one", -1), ("two", 2), ("true", 1), ("false", 0)):
        props = (ctypes.c_int64 * 3)(0x1085, value, 0)  # CL_CONTEXT_INTEROP_USER_SYNC
        _, out[key] = make(cl.clCreateContext, props, 1, ptrs(DEVICE), None, None)
    ''')
    assert out["minus_one"] == out["two"] == -64  # CL_INVALID_PROPERTY
    assert out["true"] == out["false"] == 0


def test_a_2d_image_from_a_buffer_is_invalid_operation_when_absent():
    out = run('''
    context = new_context()
    out["pitch_alignment"] = uint_info(cl.clGetDeviceInfo, DEVICE, 0x104A)  # IMAGE_PITCH_ALIGNMENT
    buffer = new_buffer(context, 64 * 64 * 4)
    cl.clCreateImage.restype = c_void_p
    cl.clCreateImage.argtypes = [c_void_p, c_uint64, c_void_p, c_void_p, c_void_p, c_void_p]
    fmt = (c_uint32 * 2)(0x10B5, 0x10DA)
    # cl_image_desc as words: type, width, height, depth, array_size, row_pitch, slice_pitch, (mip levels,
    # samples: two cl_uint in one word), mem_object
    desc = (c_size_t * 9)(0x10F1, 64, 64, 0, 0, 0, 0, 0, buffer)
    image, out["code"] = make(cl.clCreateImage, context, 1 << 2, fmt, desc, None)
    out["null"] = not image
    ''')
    assert out["pitch_alignment"] == 0
    assert out["code"] == -59 and out["null"]  # CL_INVALID_OPERATION: API spec appendix H


def test_a_1d_image_array_is_written_with_the_callers_slice_pitch():
    """The layers of a 1D image array step by input_slice_pitch in host memory (API spec 5.3.3):
    the CTS writes them with a slice pitch larger than a row."""
    out = run('''
    context = new_context()
    queue = new_queue(context)
    cl.clCreateImage.restype = c_void_p
    cl.clCreateImage.argtypes = [c_void_p, c_uint64, c_void_p, c_void_p, c_void_p, c_void_p]
    for name in ("clEnqueueWriteImage", "clEnqueueReadImage"):
        getattr(cl, name).argtypes = [c_void_p, c_void_p, c_uint32, c_void_p, c_void_p, c_size_t, c_size_t,
                                      c_void_p, c_uint32, c_void_p, c_void_p]
    fmt = (c_uint32 * 2)(0x10B5, 0x10DA)  # RGBA, UNSIGNED_INT8: 4 bytes a pixel
    desc = (c_size_t * 9)(0x10F5, 4, 0, 0, 3, 0, 0, 0, 0)  # IMAGE1D_ARRAY, width 4, 3 layers
    image, code = make(cl.clCreateImage, context, 1, fmt, desc, None)
    assert code == 0, code
    pitched = (ctypes.c_uint8 * 80)(*range(80))  # layers at bytes 0, 32, 64; 16 bytes each
    origin, region = (c_size_t * 3)(0, 0, 0), (c_size_t * 3)(4, 3, 1)
    out["write"] = cl.clEnqueueWriteImage(queue, image, 1, origin, region, 16, 32, pitched, 0, None, None)
    packed = (ctypes.c_uint8 * 48)()
    out["read"] = cl.clEnqueueReadImage(queue, image, 1, origin, region, 0, 0, packed, 0, None, None)
    out["layers"] = list(packed)
    ''')
    assert out["write"] == 0 and out["read"] == 0
    assert out["layers"] == list(range(0, 16)) + list(range(32, 48)) + list(range(64, 80))


def test_a_failed_link_returns_a_program_with_its_log():
    """clLinkProgram whose link began and failed answers LINK_PROGRAM_FAILURE and a valid program,
    whose status is ERROR and whose log says why (the CTS's link_error_returns_program)."""
    out = run('''
    context = new_context()
    program = new_program(context, "int f(int);\\n__kernel void k(__global int *a) { a[0] = f(1); }", build=False)
    assert cl.clCompileProgram(program, 1, ptrs(DEVICE), b"", 0, None, None, None, None) == 0
    linked, out["code"] = make(cl.clLinkProgram, context, 1, ptrs(DEVICE), b"", 1, ptrs(program), None, None)
    out["linked"] = bool(linked)
    out["status"] = struct.unpack("i", info(cl.clGetProgramBuildInfo, linked, DEVICE, 0x1181))[0]
    out["log"] = info(cl.clGetProgramBuildInfo, linked, DEVICE, 0x1183).decode()
    out["release"] = cl.clReleaseProgram(linked)
    ''')
    assert out["code"] == -17 and out["linked"]  # CL_LINK_PROGRAM_FAILURE
    assert out["status"] == -2  # CL_BUILD_ERROR
    assert "'f'" in out["log"] and out["release"] == 0
