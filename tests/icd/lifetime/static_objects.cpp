// A C++ library that keeps OpenCL objects in static storage, as imaging and BLAS libraries do: they
// are created on the first call and released by a static destructor, when the host process exits.
// In a Python host that is after the interpreter has finalized. Built as a shared library (loaded
// with ctypes) and linked into a C++ host by tests/icd/test_host_lifetime.py.
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <cstdio>

namespace {

const char *SOURCE = "kernel void twice(global int *data) { data[get_global_id(0)] *= 2; }";
const size_t COUNT = 64;

struct Resources {
    cl_context context = nullptr;
    cl_command_queue queue = nullptr;
    cl_program program = nullptr;
    cl_kernel kernel = nullptr;
    cl_mem buffer = nullptr;

    ~Resources() {  // runs at exit; each release must return, whatever state the implementation is in
        if (buffer) clReleaseMemObject(buffer);
        if (kernel) clReleaseKernel(kernel);
        if (program) clReleaseProgram(program);
        if (queue) { clFinish(queue); clReleaseCommandQueue(queue); }
        if (context) clReleaseContext(context);
        std::fprintf(stderr, "static_objects: released at exit\n");
    }
};

Resources resources;

int fail(const char *what, cl_int status) {
    std::fprintf(stderr, "static_objects: %s failed: %d\n", what, status);
    return 1;
}

}  // namespace

// Doubles 0..COUNT-1 on the first platform's device; 0 when the answers are right.
extern "C" int static_objects_run(void) {
    cl_platform_id platform;
    cl_device_id device;
    cl_int status = clGetPlatformIDs(1, &platform, nullptr);
    if (status != CL_SUCCESS) return fail("clGetPlatformIDs", status);
    status = clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &device, nullptr);
    if (status != CL_SUCCESS) return fail("clGetDeviceIDs", status);
    resources.context = clCreateContext(nullptr, 1, &device, nullptr, nullptr, &status);
    if (status != CL_SUCCESS) return fail("clCreateContext", status);
    resources.queue = clCreateCommandQueue(resources.context, device, 0, &status);
    if (status != CL_SUCCESS) return fail("clCreateCommandQueue", status);
    resources.program = clCreateProgramWithSource(resources.context, 1, &SOURCE, nullptr, &status);
    if (status != CL_SUCCESS) return fail("clCreateProgramWithSource", status);
    status = clBuildProgram(resources.program, 1, &device, "", nullptr, nullptr);
    if (status != CL_SUCCESS) return fail("clBuildProgram", status);
    resources.kernel = clCreateKernel(resources.program, "twice", &status);
    if (status != CL_SUCCESS) return fail("clCreateKernel", status);
    int data[COUNT];
    for (size_t i = 0; i < COUNT; i++) data[i] = (int)i;
    resources.buffer = clCreateBuffer(resources.context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof data,
                                      data, &status);
    if (status != CL_SUCCESS) return fail("clCreateBuffer", status);
    clSetKernelArg(resources.kernel, 0, sizeof(cl_mem), &resources.buffer);
    size_t global = COUNT;
    status = clEnqueueNDRangeKernel(resources.queue, resources.kernel, 1, nullptr, &global, nullptr, 0, nullptr,
                                    nullptr);
    if (status != CL_SUCCESS) return fail("clEnqueueNDRangeKernel", status);
    status = clEnqueueReadBuffer(resources.queue, resources.buffer, CL_TRUE, 0, sizeof data, data, 0, nullptr,
                                 nullptr);
    if (status != CL_SUCCESS) return fail("clEnqueueReadBuffer", status);
    for (size_t i = 0; i < COUNT; i++)
        if (data[i] != 2 * (int)i) return fail("the answer", data[i]);
    return 0;
}
