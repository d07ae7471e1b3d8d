/* The API's error conventions, as a careful C program relies on them: the size queries
 * (param_value_size_ret exact, a too small param_value_size is CL_INVALID_VALUE, an unknown param_name
 * too), NULL handles give the CL_INVALID_<object> of their kind, creation functions return NULL and
 * set *errcode_ret, and invalid arguments to valid objects give the error the specification names. */
#include "common.h"

static const char *SOURCE = "__kernel void copy(__global const int *in, __global int *out) {\n"
                            "    out[get_global_id(0)] = in[get_global_id(0)];\n"
                            "}\n";

static void size_queries(Setup *s) {
    char name[1024];
    size_t size = 0;
    CHECK(clGetDeviceInfo(s->device, CL_DEVICE_NAME, sizeof name, name, &size));
    if (size != strlen(name) + 1)
        fail("CL_DEVICE_NAME: param_value_size_ret %zu for a name of %zu characters", size, strlen(name));
    CHECK(clGetDeviceInfo(s->device, CL_DEVICE_NAME, 0, NULL, &size));
    if (size != strlen(name) + 1)
        fail("CL_DEVICE_NAME size query alone: %zu, expected %zu", size, strlen(name) + 1);
    EXPECT_STATUS(CL_INVALID_VALUE, clGetDeviceInfo(s->device, CL_DEVICE_NAME, 1, name, NULL));

    cl_uint units = 0;
    CHECK(clGetDeviceInfo(s->device, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof units, &units, &size));
    if (size != sizeof(cl_uint) || units == 0)
        fail("CL_DEVICE_MAX_COMPUTE_UNITS: size %zu (expected %zu), value %u", size, sizeof(cl_uint), units);
    EXPECT_STATUS(CL_INVALID_VALUE, clGetDeviceInfo(s->device, CL_DEVICE_MAX_COMPUTE_UNITS, 2, &units, NULL));

    cl_uint dimensions = 0;
    size_t sizes[16];
    CHECK(clGetDeviceInfo(s->device, CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS, sizeof dimensions, &dimensions, NULL));
    CHECK(clGetDeviceInfo(s->device, CL_DEVICE_MAX_WORK_ITEM_SIZES, sizeof sizes, sizes, &size));
    if (size != dimensions * sizeof(size_t))
        fail("CL_DEVICE_MAX_WORK_ITEM_SIZES: size %zu for %u dimensions", size, dimensions);

    cl_device_type type = 0;
    CHECK(clGetDeviceInfo(s->device, CL_DEVICE_TYPE, sizeof type, &type, &size));
    if (size != sizeof type || !(type & CL_DEVICE_TYPE_CPU))
        fail("CL_DEVICE_TYPE: size %zu, value %#llx (expected a CPU)", size, (unsigned long long)type);
    EXPECT_STATUS(CL_INVALID_VALUE, clGetDeviceInfo(s->device, 0x7fff, sizeof name, name, NULL));

    CHECK(clGetPlatformInfo(s->platform, CL_PLATFORM_VERSION, 0, NULL, &size));
    CHECK(clGetPlatformInfo(s->platform, CL_PLATFORM_VERSION, sizeof name, name, NULL));
    if (size != strlen(name) + 1 || strncmp(name, "OpenCL ", 7) != 0)
        fail("CL_PLATFORM_VERSION '%s' (size %zu): expected 'OpenCL <major>.<minor> ...' and its size", name, size);
    EXPECT_STATUS(CL_INVALID_VALUE, clGetPlatformInfo(s->platform, CL_PLATFORM_NAME, 1, name, NULL));

    cl_uint references = 0;
    CHECK(clGetContextInfo(s->context, CL_CONTEXT_REFERENCE_COUNT, sizeof references, &references, &size));
    if (size != sizeof(cl_uint) || references != 1)
        fail("CL_CONTEXT_REFERENCE_COUNT: size %zu, count %u (expected 1)", size, references);
}

static void null_handles(void) {
    char text[64];
    cl_int status = CL_SUCCESS;
    EXPECT_STATUS(CL_INVALID_DEVICE, clGetDeviceInfo(NULL, CL_DEVICE_NAME, sizeof text, text, NULL));
    EXPECT_STATUS(CL_INVALID_CONTEXT, clGetContextInfo(NULL, CL_CONTEXT_NUM_DEVICES, sizeof text, text, NULL));
    EXPECT_STATUS(CL_INVALID_COMMAND_QUEUE, clFinish(NULL));
    EXPECT_STATUS(CL_INVALID_MEM_OBJECT, clReleaseMemObject(NULL));
    EXPECT_STATUS(CL_INVALID_PROGRAM, clBuildProgram(NULL, 0, NULL, "", NULL, NULL));
    EXPECT_STATUS(CL_INVALID_KERNEL, clSetKernelArg(NULL, 0, sizeof(int), &status));
    EXPECT_STATUS(CL_INVALID_EVENT, clGetEventInfo(NULL, CL_EVENT_REFERENCE_COUNT, sizeof text, text, NULL));
    EXPECT_STATUS(CL_INVALID_SAMPLER, clReleaseSampler(NULL));
    cl_mem mem = clCreateBuffer(NULL, CL_MEM_READ_WRITE, 64, NULL, &status);
    if (mem != NULL || status != CL_INVALID_CONTEXT)
        fail("clCreateBuffer(NULL context) gave %p and %s, expected NULL and CL_INVALID_CONTEXT", (void *)mem,
             error_name(status));
    EXPECT_STATUS(CL_INVALID_VALUE, clGetPlatformIDs(0, NULL, NULL));
    EXPECT_STATUS(CL_INVALID_VALUE, clWaitForEvents(0, NULL));
}

static void expect_no_buffer(Setup *s, cl_int expected, cl_mem_flags flags, size_t size, void *host, const char *what) {
    cl_int status = CL_SUCCESS;
    cl_mem mem = clCreateBuffer(s->context, flags, size, host, &status);
    if (mem != NULL || status != expected)
        fail("clCreateBuffer with %s gave %p and %s, expected NULL and %s", what, (void *)mem,
             error_name(status), error_name(expected));
}

static void invalid_arguments(Setup *s) {
    int host[16] = {0};
    expect_no_buffer(s, CL_INVALID_BUFFER_SIZE, CL_MEM_READ_WRITE, 0, NULL, "size 0");
    expect_no_buffer(s, CL_INVALID_HOST_PTR, CL_MEM_USE_HOST_PTR, 64, NULL, "USE_HOST_PTR and no pointer");
    expect_no_buffer(s, CL_INVALID_HOST_PTR, CL_MEM_READ_WRITE, 64, host, "a pointer but no host flag");
    expect_no_buffer(s, CL_INVALID_VALUE, CL_MEM_READ_ONLY | CL_MEM_WRITE_ONLY, 64, NULL, "READ_ONLY | WRITE_ONLY");

    cl_int status;
    cl_program unbuilt = clCreateProgramWithSource(s->context, 1, &SOURCE, NULL, &status);
    CHECK(status);
    cl_kernel none = clCreateKernel(unbuilt, "copy", &status);
    if (none != NULL || status != CL_INVALID_PROGRAM_EXECUTABLE)
        fail("clCreateKernel before clBuildProgram gave %s, expected CL_INVALID_PROGRAM_EXECUTABLE", error_name(status));
    CHECK(clReleaseProgram(unbuilt));

    const char *broken = "__kernel void broken(__global int *out) { out[0] = undeclared_name; }\n";
    cl_program bad = clCreateProgramWithSource(s->context, 1, &broken, NULL, &status);
    CHECK(status);
    EXPECT_STATUS(CL_BUILD_PROGRAM_FAILURE, clBuildProgram(bad, 1, &s->device, "", NULL, NULL));
    char log[8192] = "";
    size_t log_size = 0;
    CHECK(clGetProgramBuildInfo(bad, s->device, CL_PROGRAM_BUILD_LOG, sizeof log, log, &log_size));
    if (!strstr(log, "undeclared_name") || log_size != strlen(log) + 1)
        fail("the build log (size %zu) does not name the undeclared identifier:\n%s", log_size, log);
    cl_build_status build_status;
    CHECK(clGetProgramBuildInfo(bad, s->device, CL_PROGRAM_BUILD_STATUS, sizeof build_status, &build_status, NULL));
    if (build_status != CL_BUILD_ERROR)
        fail("CL_PROGRAM_BUILD_STATUS after a failed build is %d, expected CL_BUILD_ERROR", build_status);
    CHECK(clReleaseProgram(bad));

    cl_program program = build(s, SOURCE, "");
    cl_kernel k = clCreateKernel(program, "no_such_kernel", &status);
    if (k != NULL || status != CL_INVALID_KERNEL_NAME)
        fail("clCreateKernel of an unknown name gave %s, expected CL_INVALID_KERNEL_NAME", error_name(status));
    k = kernel(program, "copy");
    cl_mem in = buffer(s, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof host, host);
    cl_command_queue q = queue(s, 0);
    size_t global = 16, too_large = 0;
    EXPECT_STATUS(CL_INVALID_KERNEL_ARGS, clEnqueueNDRangeKernel(q, k, 1, NULL, &global, NULL, 0, NULL, NULL));
    EXPECT_STATUS(CL_INVALID_ARG_INDEX, clSetKernelArg(k, 2, sizeof in, &in));
    EXPECT_STATUS(CL_INVALID_ARG_SIZE, clSetKernelArg(k, 0, 3, &in));
    CHECK(clSetKernelArg(k, 0, sizeof in, &in));
    CHECK(clSetKernelArg(k, 1, sizeof in, &in));
    EXPECT_STATUS(CL_INVALID_WORK_DIMENSION, clEnqueueNDRangeKernel(q, k, 0, NULL, &global, NULL, 0, NULL, NULL));
    CHECK(clGetDeviceInfo(s->device, CL_DEVICE_MAX_WORK_GROUP_SIZE, sizeof too_large, &too_large, NULL));
    too_large *= 2;
    size_t big_global = too_large;
    EXPECT_STATUS(CL_INVALID_WORK_GROUP_SIZE,
                  clEnqueueNDRangeKernel(q, k, 1, NULL, &big_global, &too_large, 0, NULL, NULL));
    EXPECT_STATUS(CL_INVALID_VALUE, clEnqueueReadBuffer(q, in, CL_TRUE, 8, sizeof host, host, 0, NULL, NULL));
    EXPECT_STATUS(CL_INVALID_EVENT_WAIT_LIST, clEnqueueReadBuffer(q, in, CL_TRUE, 0, 4, host, 1, NULL, NULL));
    CHECK(clFinish(q));
    CHECK(clReleaseCommandQueue(q));
    CHECK(clReleaseMemObject(in));
    CHECK(clReleaseKernel(k));
    CHECK(clReleaseProgram(program));
}

int main(void) {
    Setup s = setup("error_conventions");
    size_queries(&s);
    null_handles();
    invalid_arguments(&s);
    CHECK(clReleaseContext(s.context));
    printf("error_conventions: PASS: info sizes exact, too small sizes and unknown names CL_INVALID_VALUE, "
           "NULL handles CL_INVALID_<object>, invalid arguments their errors (platform '%s')\n", s.platform_name);
    return 0;
}
