"""Platform, device, context and queue entry points through the ICD loader: device lookup, context
properties, queue properties, extension function addresses, and the optional features loomcl
reports as absent (SVM, pipes, native kernels, sub-devices, device queues)."""
from c_api_runner import run


def test_device_lookup():
    out = run('''
    count = c_uint32()
    out["all"] = [cl.clGetDeviceIDs(PLATFORM, 0xFFFFFFFF, 0, None, byref(count)), count.value]
    out["cpu"] = cl.clGetDeviceIDs(PLATFORM, 2, 0, None, byref(count))
    out["default"] = cl.clGetDeviceIDs(PLATFORM, 1, 0, None, byref(count))
    out["gpu"] = cl.clGetDeviceIDs(PLATFORM, 4, 0, None, byref(count))
    out["bad_type"] = cl.clGetDeviceIDs(PLATFORM, 1 << 40, 0, None, byref(count))
    out["no_output"] = cl.clGetDeviceIDs(PLATFORM, 2, 0, None, None)
    out["zero_entries"] = cl.clGetDeviceIDs(PLATFORM, 2, 0, (c_void_p * 1)(), None)
    devices = (c_void_p * 4)()
    out["more_room"] = [cl.clGetDeviceIDs(PLATFORM, 2, 4, devices, byref(count)), count.value,
                        devices[0] == DEVICE, devices[1]]
    out["forged_platform"] = cl.clGetDeviceIDs(FORGED, 2, 0, None, byref(count))
    platforms = (c_void_p * 1)()
    out["platforms"] = [cl.clGetPlatformIDs(0, platforms, None), cl.clGetPlatformIDs(0, None, None)]
    ''')
    assert out["all"] == [0, 1]
    assert out["cpu"] == 0 and out["default"] == 0
    assert out["gpu"] == -1  # DEVICE_NOT_FOUND
    assert out["bad_type"] == -31  # INVALID_DEVICE_TYPE
    assert out["no_output"] == -30 and out["zero_entries"] == -30
    assert out["more_room"] == [0, 1, True, None]
    assert out["forged_platform"] == -32
    assert out["platforms"] == [-30, -30]


def test_contexts():
    out = run('''
    CONTEXT_PLATFORM = 0x1084
    props = (ctypes.c_int64 * 3)(CONTEXT_PLATFORM, PLATFORM, 0)
    context, code = make(cl.clCreateContext, props, 1, ptrs(DEVICE), None, None)
    out["with_platform"] = code
    words = info(cl.clGetContextInfo, context, 0x1082)
    out["properties"] = list(struct.unpack("3q", words)) == [CONTEXT_PLATFORM, PLATFORM, 0]
    plain = new_context()
    out["no_properties"] = len(info(cl.clGetContextInfo, plain, 0x1082))
    forged, unknown = (ctypes.c_int64 * 3)(CONTEXT_PLATFORM, FORGED, 0), (ctypes.c_int64 * 3)(0x9999, 1, 0)
    out["forged_platform"] = make(cl.clCreateContext, forged, 1, ptrs(DEVICE), None, None)[1]
    out["unknown_property"] = make(cl.clCreateContext, unknown, 1, ptrs(DEVICE), None, None)[1]
    out["no_devices"] = make(cl.clCreateContext, None, 0, None, None, None)[1]
    out["user_data_alone"] = make(cl.clCreateContext, None, 1, ptrs(DEVICE), None, 5)[1]
    from_type, code = make(cl.clCreateContextFromType, props, 2, None, None)
    out["from_type"] = [code, uint_info(cl.clGetContextInfo, from_type, 0x1083)]
    out["from_type_gpu"] = make(cl.clCreateContextFromType, props, 4, None, None)[1]
    out["from_type_bad"] = make(cl.clCreateContextFromType, props, 1 << 40, None, None)[1]
    seen = []
    CALLBACK = ctypes.CFUNCTYPE(None, c_void_p, c_void_p)
    destructor = CALLBACK(lambda context, data: seen.append(data))
    assert cl.clSetContextDestructorCallback(plain, destructor, 11) == 0
    cl.clReleaseContext(plain)
    out["destructor"] = seen
    ''')
    assert out["with_platform"] == 0 and out["properties"]
    assert out["no_properties"] == 0
    assert out["forged_platform"] == -32 and out["unknown_property"] == -64  # INVALID_PROPERTY
    assert out["no_devices"] == -30 and out["user_data_alone"] == -30
    assert out["from_type"] == [0, 1]
    assert out["from_type_gpu"] == -1 and out["from_type_bad"] == -31
    assert out["destructor"] == [11]


def test_queues():
    out = run('''
    context = new_context()
    props = (c_uint64 * 3)(0x1093, 2, 0)  # QUEUE_PROPERTIES: PROFILING_ENABLE
    queue, code = make(cl.clCreateCommandQueueWithProperties, context, DEVICE, props)
    out["with_properties"] = code
    out["bits"] = struct.unpack("Q", info(cl.clGetCommandQueueInfo, queue, 0x1093))[0]
    out["array"] = list(struct.unpack("3Q", info(cl.clGetCommandQueueInfo, queue, 0x1098)))
    out["no_properties"] = make(cl.clCreateCommandQueueWithProperties, context, DEVICE, None)[1]
    on_device = (c_uint64 * 3)(0x1093, 4 | 8, 0)
    out["device_queue"] = make(cl.clCreateCommandQueueWithProperties, context, DEVICE, on_device)[1]
    out["queue_size"] = make(cl.clCreateCommandQueueWithProperties, context, DEVICE, (c_uint64 * 3)(0x1094, 16, 0))[1]
    out["unknown_bits"] = make(cl.clCreateCommandQueue, context, DEVICE, 1 << 10)[1]
    out["out_of_order"] = make(cl.clCreateCommandQueue, context, DEVICE, 1)[1]
    ''')
    assert out["with_properties"] == 0 and out["bits"] == 2
    assert out["array"] == [0x1093, 2, 0]
    assert out["no_properties"] == 0
    assert out["device_queue"] == -35  # INVALID_QUEUE_PROPERTIES
    assert out["queue_size"] == -30
    assert out["unknown_bits"] == -30
    assert out["out_of_order"] == 0


def test_extension_function_addresses():
    out = run('''
    lookup = cl.clGetExtensionFunctionAddressForPlatform
    out["icd_query"] = bool(lookup(PLATFORM, b"clIcdGetPlatformIDsKHR"))
    out["unknown"] = lookup(PLATFORM, b"clNoSuchFunctionKHR")
    # the address found is callable: clIcdGetPlatformIDsKHR answers our platform
    function = ctypes.CFUNCTYPE(c_int32, c_uint32, c_void_p, c_void_p)(lookup(PLATFORM, b"clIcdGetPlatformIDsKHR"))
    found, count = (c_void_p * 1)(), c_uint32()
    out["call"] = [function(1, found, byref(count)), count.value, found[0] == PLATFORM]
    ''')
    assert out["icd_query"]
    assert out["unknown"] is None
    assert out["call"] == [0, 1, True]


def test_unsupported_features_answer_by_the_spec():
    out = run('''
    context = new_context()
    queue = new_queue(context)
    out["svm_alloc"] = cl.clSVMAlloc(context, 1, 1024, 0)
    cl.clSVMFree(context, None)
    out["pipe"] = make(cl.clCreatePipe, context, 1, 16, 16, None)[1]
    NATIVE = ctypes.CFUNCTYPE(None, c_void_p)
    function = NATIVE(lambda args: None)
    out["native_kernel"] = cl.clEnqueueNativeKernel(queue, function, None, 0, 0, None, None, 0, None, None)
    program = new_program(context, "kernel void k(global int *a) { a[0] = 1; }")
    kernel, _ = make(cl.clCreateKernel, program, b"k")
    out["svm_arg"] = cl.clSetKernelArgSVMPointer(kernel, 0, None)
    ''')
    assert out["svm_alloc"] is None
    assert out["pipe"] == -59 and out["native_kernel"] == -59 and out["svm_arg"] == -59
