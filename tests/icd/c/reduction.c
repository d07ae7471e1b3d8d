/* A tree reduction in __local memory with barriers: each work-group sums its slice (a __local
 * buffer given as a kernel argument, one stage per halving, a barrier between stages), the host
 * adds the groups' sums. Integers, so the device's sum and the host's must be equal, not close.
 * Run for several work-group sizes, and a second kernel with a statically sized __local array. */
#include "common.h"

#define N (1 << 20)

static const char *SOURCE =
    "__kernel void group_sums(__global const uint *in, __global ulong *out, __local ulong *scratch) {\n"
    "    size_t lid = get_local_id(0), size = get_local_size(0);\n"
    "    scratch[lid] = in[get_global_id(0)];\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    for (size_t stride = size / 2; stride > 0; stride /= 2) {\n"
    "        if (lid < stride) scratch[lid] += scratch[lid + stride];\n"
    "        barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    }\n"
    "    if (lid == 0) out[get_group_id(0)] = scratch[0];\n"
    "}\n"
    "__kernel __attribute__((reqd_work_group_size(128, 1, 1)))\n"
    "void group_sums_128(__global const uint *in, __global ulong *out) {\n"
    "    __local ulong scratch[128];\n"
    "    size_t lid = get_local_id(0);\n"
    "    scratch[lid] = in[get_global_id(0)];\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    for (size_t stride = 64; stride > 0; stride /= 2) {\n"
    "        if (lid < stride) scratch[lid] += scratch[lid + stride];\n"
    "        barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    }\n"
    "    if (lid == 0) out[get_group_id(0)] = scratch[0];\n"
    "}\n";

static cl_ulong device_sum(Setup *s, cl_command_queue q, cl_kernel k, cl_mem in, size_t local,
                           int local_argument) {
    size_t groups = N / local, global = N;
    cl_ulong *partial = malloc(groups * sizeof *partial), sum = 0;
    cl_mem out = buffer(s, CL_MEM_WRITE_ONLY, groups * sizeof *partial, NULL);
    CHECK(clSetKernelArg(k, 0, sizeof in, &in));
    CHECK(clSetKernelArg(k, 1, sizeof out, &out));
    if (local_argument)
        CHECK(clSetKernelArg(k, 2, local * sizeof(cl_ulong), NULL));
    CHECK(clEnqueueNDRangeKernel(q, k, 1, NULL, &global, &local, 0, NULL, NULL));
    CHECK(clEnqueueReadBuffer(q, out, CL_TRUE, 0, groups * sizeof *partial, partial, 0, NULL, NULL));
    for (size_t g = 0; g < groups; g++)
        sum += partial[g];
    CHECK(clReleaseMemObject(out));
    free(partial);
    return sum;
}

int main(void) {
    Setup s = setup("reduction");
    cl_command_queue q = queue(&s, 0);
    cl_uint *values = malloc(N * sizeof *values);
    cl_ulong host_sum = 0;
    srand(7);
    for (size_t i = 0; i < N; i++)
        host_sum += values[i] = (cl_uint)rand();   /* up to 2^31: a 32-bit sum would overflow */
    cl_mem in = buffer(&s, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, N * sizeof *values, values);
    cl_program program = build(&s, SOURCE, "");
    cl_kernel k = kernel(program, "group_sums"), k128 = kernel(program, "group_sums_128");

    size_t max_group = 0;
    CHECK(clGetKernelWorkGroupInfo(k, s.device, CL_KERNEL_WORK_GROUP_SIZE, sizeof max_group, &max_group, NULL));
    size_t sizes[] = {1, 2, 16, 64, 256, 1024};
    int runs = 0;
    for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++) {
        if (sizes[i] > max_group)
            continue;
        cl_ulong got = device_sum(&s, q, k, in, sizes[i], 1);
        if (got != host_sum)
            fail("local size %zu: device sum %llu, host sum %llu", sizes[i], (unsigned long long)got,
                 (unsigned long long)host_sum);
        runs++;
    }
    size_t required[3] = {0};
    CHECK(clGetKernelWorkGroupInfo(k128, s.device, CL_KERNEL_COMPILE_WORK_GROUP_SIZE, sizeof required, required, NULL));
    if (required[0] != 128 || required[1] != 1 || required[2] != 1)
        fail("CL_KERNEL_COMPILE_WORK_GROUP_SIZE is (%zu, %zu, %zu), expected (128, 1, 1)", required[0],
             required[1], required[2]);
    cl_ulong local_bytes = 0;
    CHECK(clGetKernelWorkGroupInfo(k128, s.device, CL_KERNEL_LOCAL_MEM_SIZE, sizeof local_bytes, &local_bytes, NULL));
    if (local_bytes < 128 * sizeof(cl_ulong))
        fail("CL_KERNEL_LOCAL_MEM_SIZE of a kernel with a 1 KiB __local array is %llu bytes",
             (unsigned long long)local_bytes);
    cl_ulong got = device_sum(&s, q, k128, in, 128, 0);
    if (got != host_sum)
        fail("__local array kernel: device sum %llu, host sum %llu", (unsigned long long)got,
             (unsigned long long)host_sum);
    CHECK(clReleaseKernel(k));
    CHECK(clReleaseKernel(k128));
    CHECK(clReleaseProgram(program));
    CHECK(clReleaseMemObject(in));
    CHECK(clReleaseCommandQueue(q));
    CHECK(clReleaseContext(s.context));
    printf("reduction: PASS: sum of %d uints = %llu for %d local sizes up to %zu and a __local array "
           "(platform '%s')\n", N, (unsigned long long)host_sum, runs, max_group, s.platform_name);
    return 0;
}
