/* A 3x3 box blur of a 2D RGBA float image: read_imagef through a sampler (clamp to edge, nearest,
 * unnormalized coordinates), write_imagef into a second image, checked against the same blur done
 * on the host. Twice: with the sampler made by clCreateSampler and passed as an argument, and with a
 * sampler declared in the program. The size (67 x 45) is no multiple of a work-group size. */
#include "common.h"
#include <math.h>

#define WIDTH 67
#define HEIGHT 45

static const char *SOURCE =
    "float4 blur_at(read_only image2d_t src, sampler_t smp, int2 at) {\n"
    "    float4 sum = (float4)(0.0f);\n"
    "    for (int dy = -1; dy <= 1; dy++)\n"
    "        for (int dx = -1; dx <= 1; dx++)\n"
    "            sum += read_imagef(src, smp, at + (int2)(dx, dy));\n"
    "    return sum / 9.0f;\n"
    "}\n"
    "__kernel void blur(read_only image2d_t src, write_only image2d_t dst, sampler_t smp) {\n"
    "    int2 at = (int2)(get_global_id(0), get_global_id(1));\n"
    "    if (at.x < get_image_width(dst) && at.y < get_image_height(dst))\n"
    "        write_imagef(dst, at, blur_at(src, smp, at));\n"
    "}\n"
    "__constant sampler_t EDGE = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP_TO_EDGE | CLK_FILTER_NEAREST;\n"
    "__kernel void blur_program_sampler(read_only image2d_t src, write_only image2d_t dst) {\n"
    "    int2 at = (int2)(get_global_id(0), get_global_id(1));\n"
    "    if (at.x < get_image_width(dst) && at.y < get_image_height(dst))\n"
    "        write_imagef(dst, at, blur_at(src, EDGE, at));\n"
    "}\n";

static int clamp_to(int value, int limit) { return value < 0 ? 0 : value >= limit ? limit - 1 : value; }

static void host_blur(const float *src, float *dst) {
    for (int y = 0; y < HEIGHT; y++)
        for (int x = 0; x < WIDTH; x++)
            for (int channel = 0; channel < 4; channel++) {
                float sum = 0.0f;
                for (int dy = -1; dy <= 1; dy++)
                    for (int dx = -1; dx <= 1; dx++)
                        sum += src[(clamp_to(y + dy, HEIGHT) * WIDTH + clamp_to(x + dx, WIDTH)) * 4 + channel];
                dst[(y * WIDTH + x) * 4 + channel] = sum / 9.0f;
            }
}

static cl_mem image(Setup *s, cl_mem_flags flags, void *host) {
    cl_image_format format = {CL_RGBA, CL_FLOAT};
    cl_image_desc desc = {.image_type = CL_MEM_OBJECT_IMAGE2D, .image_width = WIDTH, .image_height = HEIGHT};
    cl_int status;
    cl_mem mem = clCreateImage(s->context, flags, &format, &desc, host, &status);
    CHECK(status);
    return mem;
}

static void compare(const float *got, const float *expected, const char *how) {
    for (int i = 0; i < WIDTH * HEIGHT * 4; i++)
        if (fabsf(got[i] - expected[i]) > 1e-5f * (1.0f + fabsf(expected[i])))
            fail("%s: pixel (%d, %d) channel %d = %.7g, host blur %.7g", how, (i / 4) % WIDTH,
                 i / 4 / WIDTH, i % 4, got[i], expected[i]);
}

static void run(cl_command_queue q, cl_kernel k, cl_mem dst, float *out) {
    size_t global[2] = {(WIDTH + 7) / 8 * 8, (HEIGHT + 7) / 8 * 8}, local[2] = {8, 8};
    size_t origin[3] = {0, 0, 0}, region[3] = {WIDTH, HEIGHT, 1};
    memset(out, 0, WIDTH * HEIGHT * 4 * sizeof *out);
    CHECK(clEnqueueNDRangeKernel(q, k, 2, NULL, global, local, 0, NULL, NULL));
    CHECK(clEnqueueReadImage(q, dst, CL_TRUE, origin, region, 0, 0, out, 0, NULL, NULL));
}

int main(void) {
    Setup s = setup("image_blur");
    cl_bool images = CL_FALSE;
    CHECK(clGetDeviceInfo(s.device, CL_DEVICE_IMAGE_SUPPORT, sizeof images, &images, NULL));
    if (!images)
        fail("the device reports no image support");
    cl_command_queue q = queue(&s, 0);
    size_t pixels = WIDTH * HEIGHT * 4;
    float *src = malloc(pixels * sizeof *src), *expected = malloc(pixels * sizeof *src), *out = malloc(pixels * sizeof *src);
    for (size_t i = 0; i < pixels; i++)
        src[i] = (float)((i * 2654435761u) % 1000) / 999.0f;
    host_blur(src, expected);

    cl_mem src_image = image(&s, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, src);
    cl_mem dst_image = image(&s, CL_MEM_WRITE_ONLY, NULL);
    size_t width = 0, element = 0;
    CHECK(clGetImageInfo(src_image, CL_IMAGE_WIDTH, sizeof width, &width, NULL));
    CHECK(clGetImageInfo(src_image, CL_IMAGE_ELEMENT_SIZE, sizeof element, &element, NULL));
    if (width != WIDTH || element != 16)
        fail("clGetImageInfo: width %zu, element size %zu (expected %d, 16)", width, element, WIDTH);

    cl_int status;
    cl_sampler sampler = clCreateSampler(s.context, CL_FALSE, CL_ADDRESS_CLAMP_TO_EDGE, CL_FILTER_NEAREST, &status);
    CHECK(status);
    cl_program program = build(&s, SOURCE, "");
    cl_kernel with_argument = kernel(program, "blur"), with_program_sampler = kernel(program, "blur_program_sampler");
    CHECK(clSetKernelArg(with_argument, 0, sizeof src_image, &src_image));
    CHECK(clSetKernelArg(with_argument, 1, sizeof dst_image, &dst_image));
    CHECK(clSetKernelArg(with_argument, 2, sizeof sampler, &sampler));
    run(q, with_argument, dst_image, out);
    compare(out, expected, "sampler argument");
    CHECK(clSetKernelArg(with_program_sampler, 0, sizeof src_image, &src_image));
    CHECK(clSetKernelArg(with_program_sampler, 1, sizeof dst_image, &dst_image));
    run(q, with_program_sampler, dst_image, out);
    compare(out, expected, "program-scope sampler");

    CHECK(clReleaseKernel(with_argument));
    CHECK(clReleaseKernel(with_program_sampler));
    CHECK(clReleaseProgram(program));
    CHECK(clReleaseSampler(sampler));
    CHECK(clReleaseMemObject(src_image));
    CHECK(clReleaseMemObject(dst_image));
    CHECK(clReleaseCommandQueue(q));
    CHECK(clReleaseContext(s.context));
    printf("image_blur: PASS: %dx%d RGBA float blur matches the host's, sampler as argument and in the "
           "program (platform '%s')\n", WIDTH, HEIGHT, s.platform_name);
    return 0;
}
