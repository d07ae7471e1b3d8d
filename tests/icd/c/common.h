/* What every host program here shares: the one platform the ICD loader lists (OCL_ICD_VENDORS
 * selects it), its first device, a program built with its log shown on failure, and CHECK, which
 * ends the program with a message naming the call, its error and the source line.
 *
 * Each program prints one line "NAME: PASS ..." and exits 0, or "NAME: FAIL ..." and exits 1.
 */
#ifndef LOOMCL_ICD_TEST_COMMON_H
#define LOOMCL_ICD_TEST_COMMON_H

#define CL_TARGET_OPENCL_VERSION 300
#define CL_USE_DEPRECATED_OPENCL_1_2_APIS /* clCreateCommandQueue, clCreateSampler: 1.2 programs */
#include <CL/cl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *program_name = "?";

static inline const char *error_name(cl_int status) {
    switch (status) {
#define NAME(code) case code: return #code;
    NAME(CL_SUCCESS) NAME(CL_DEVICE_NOT_FOUND) NAME(CL_OUT_OF_RESOURCES) NAME(CL_OUT_OF_HOST_MEMORY)
    NAME(CL_PROFILING_INFO_NOT_AVAILABLE) NAME(CL_MEM_OBJECT_ALLOCATION_FAILURE)
    NAME(CL_IMAGE_FORMAT_NOT_SUPPORTED) NAME(CL_BUILD_PROGRAM_FAILURE)
    NAME(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST) NAME(CL_INVALID_VALUE) NAME(CL_INVALID_DEVICE_TYPE)
    NAME(CL_INVALID_PLATFORM) NAME(CL_INVALID_DEVICE) NAME(CL_INVALID_CONTEXT)
    NAME(CL_INVALID_QUEUE_PROPERTIES) NAME(CL_INVALID_COMMAND_QUEUE) NAME(CL_INVALID_HOST_PTR)
    NAME(CL_INVALID_MEM_OBJECT) NAME(CL_INVALID_IMAGE_FORMAT_DESCRIPTOR) NAME(CL_INVALID_IMAGE_SIZE)
    NAME(CL_INVALID_SAMPLER) NAME(CL_INVALID_BINARY) NAME(CL_INVALID_BUILD_OPTIONS)
    NAME(CL_INVALID_PROGRAM) NAME(CL_INVALID_PROGRAM_EXECUTABLE) NAME(CL_INVALID_KERNEL_NAME)
    NAME(CL_INVALID_KERNEL_DEFINITION) NAME(CL_INVALID_KERNEL) NAME(CL_INVALID_ARG_INDEX)
    NAME(CL_INVALID_ARG_VALUE) NAME(CL_INVALID_ARG_SIZE) NAME(CL_INVALID_KERNEL_ARGS)
    NAME(CL_INVALID_WORK_DIMENSION) NAME(CL_INVALID_WORK_GROUP_SIZE) NAME(CL_INVALID_WORK_ITEM_SIZE)
    NAME(CL_INVALID_GLOBAL_OFFSET) NAME(CL_INVALID_EVENT_WAIT_LIST) NAME(CL_INVALID_EVENT)
    NAME(CL_INVALID_OPERATION) NAME(CL_INVALID_BUFFER_SIZE) NAME(CL_INVALID_GLOBAL_WORK_SIZE)
#undef NAME
    default: return "an unknown status";
    }
}

static inline void fail(const char *format, ...) {
    va_list args;
    va_start(args, format);
    printf("%s: FAIL: ", program_name);
    vprintf(format, args);
    printf("\n");
    va_end(args);
    exit(1);
}

#define CHECK(call) check_status((call), #call, __LINE__)

static inline void check_status(cl_int status, const char *call, int line) {
    if (status != CL_SUCCESS)
        fail("line %d: %s returned %s (%d)", line, call, error_name(status), status);
}

/* A call that must fail with `expected` (the error conventions of the API). */
#define EXPECT_STATUS(expected, call) expect_status((expected), (call), #call, __LINE__)

static inline void expect_status(cl_int expected, cl_int status, const char *call, int line) {
    if (status != expected)
        fail("line %d: %s returned %s (%d), expected %s", line, call, error_name(status), status,
             error_name(expected));
}

typedef struct {
    cl_platform_id platform;
    cl_device_id device;
    cl_context context;
    char platform_name[256];
} Setup;

/* The only platform the loader lists, its first device and a context on it. */
static inline Setup setup(const char *name) {
    Setup s;
    cl_uint platforms = 0;
    cl_int status;
    program_name = name;
    CHECK(clGetPlatformIDs(1, &s.platform, &platforms));
    if (platforms != 1)
        fail("the loader lists %u platforms; OCL_ICD_VENDORS should select one", platforms);
    CHECK(clGetPlatformInfo(s.platform, CL_PLATFORM_NAME, sizeof s.platform_name, s.platform_name, NULL));
    CHECK(clGetDeviceIDs(s.platform, CL_DEVICE_TYPE_ALL, 1, &s.device, NULL));
    s.context = clCreateContext(NULL, 1, &s.device, NULL, NULL, &status);
    CHECK(status);
    return s;
}

/* `source` built for the device; on failure the build log is printed before the program fails. */
static inline cl_program build(const Setup *s, const char *source, const char *options) {
    cl_int status;
    cl_program program = clCreateProgramWithSource(s->context, 1, &source, NULL, &status);
    CHECK(status);
    status = clBuildProgram(program, 1, &s->device, options, NULL, NULL);
    if (status != CL_SUCCESS) {
        size_t size = 0;
        clGetProgramBuildInfo(program, s->device, CL_PROGRAM_BUILD_LOG, 0, NULL, &size);
        char *log = calloc(size + 1, 1);
        clGetProgramBuildInfo(program, s->device, CL_PROGRAM_BUILD_LOG, size, log, NULL);
        printf("%s\n", log);
        fail("clBuildProgram returned %s", error_name(status));
    }
    return program;
}

static inline cl_kernel kernel(cl_program program, const char *name) {
    cl_int status;
    cl_kernel k = clCreateKernel(program, name, &status);
    CHECK(status);
    return k;
}

static inline cl_mem buffer(const Setup *s, cl_mem_flags flags, size_t size, void *host) {
    cl_int status;
    cl_mem mem = clCreateBuffer(s->context, flags, size, host, &status);
    CHECK(status);
    return mem;
}

static inline cl_command_queue queue(const Setup *s, cl_command_queue_properties properties) {
    cl_int status;
    cl_command_queue q = clCreateCommandQueue(s->context, s->device, properties, &status);
    CHECK(status);
    return q;
}

#endif
