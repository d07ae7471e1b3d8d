/* c = a + b over 2^20 + 3 floats (a size no work-group size divides), checked element by element;
 * also a second launch with a global offset, which must leave the elements before it alone. */
#include "common.h"

#define N ((1 << 20) + 3)

static const char *SOURCE =
    "__kernel void vector_add(__global const float *a, __global const float *b,\n"
    "                         __global float *c, uint n) {\n"
    "    size_t i = get_global_id(0);\n"
    "    if (i < n) c[i] = a[i] + b[i];\n"
    "}\n";

int main(void) {
    Setup s = setup("vector_add");
    cl_command_queue q = queue(&s, 0);
    float *a = malloc(N * sizeof *a), *b = malloc(N * sizeof *b), *c = malloc(N * sizeof *c);
    for (size_t i = 0; i < N; i++) {
        a[i] = (float)i * 0.5f;
        b[i] = 1.0f / (float)(i + 1);
    }
    cl_mem a_mem = buffer(&s, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, N * sizeof *a, a);
    cl_mem b_mem = buffer(&s, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, N * sizeof *b, b);
    cl_mem c_mem = buffer(&s, CL_MEM_WRITE_ONLY, N * sizeof *c, NULL);
    cl_kernel k = kernel(build(&s, SOURCE, ""), "vector_add");
    cl_uint n = N;
    CHECK(clSetKernelArg(k, 0, sizeof a_mem, &a_mem));
    CHECK(clSetKernelArg(k, 1, sizeof b_mem, &b_mem));
    CHECK(clSetKernelArg(k, 2, sizeof c_mem, &c_mem));
    CHECK(clSetKernelArg(k, 3, sizeof n, &n));

    size_t global = ((N + 63) / 64) * 64, local = 64;
    CHECK(clEnqueueNDRangeKernel(q, k, 1, NULL, &global, &local, 0, NULL, NULL));
    CHECK(clEnqueueReadBuffer(q, c_mem, CL_TRUE, 0, N * sizeof *c, c, 0, NULL, NULL));
    for (size_t i = 0; i < N; i++)
        if (c[i] != a[i] + b[i])
            fail("c[%zu] = %.9g, expected %.9g", i, c[i], a[i] + b[i]);

    /* With a global offset the first `offset` elements keep the pattern written before. */
    float pattern = -1.0f;
    size_t offset = 1000, rest = N - offset;
    CHECK(clEnqueueFillBuffer(q, c_mem, &pattern, sizeof pattern, 0, N * sizeof *c, 0, NULL, NULL));
    CHECK(clEnqueueNDRangeKernel(q, k, 1, &offset, &rest, NULL, 0, NULL, NULL));
    CHECK(clEnqueueReadBuffer(q, c_mem, CL_TRUE, 0, N * sizeof *c, c, 0, NULL, NULL));
    for (size_t i = 0; i < N; i++) {
        float expected = i < offset ? pattern : a[i] + b[i];
        if (c[i] != expected)
            fail("with offset %zu: c[%zu] = %.9g, expected %.9g", offset, i, c[i], expected);
    }
    CHECK(clFinish(q));
    CHECK(clReleaseKernel(k));
    CHECK(clReleaseMemObject(a_mem));
    CHECK(clReleaseMemObject(b_mem));
    CHECK(clReleaseMemObject(c_mem));
    CHECK(clReleaseCommandQueue(q));
    CHECK(clReleaseContext(s.context));
    printf("vector_add: PASS: %d sums exact, also from a global offset (platform '%s')\n", N, s.platform_name);
    return 0;
}
