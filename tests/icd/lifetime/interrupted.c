/* A C host whose kernel never ends, stopped by SIGINT. With the host's own SIGINT handler, the
   handler runs, the kernel is stopped and the wait returns an error status; the queue works after
   it. Without one, SIGINT keeps its default meaning: the process ends by the signal.
   Prints "spinning" once the kernel is queued, then "wait: STATUS handled: N" and "after: ...". */
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

static volatile sig_atomic_t handled;

static void on_interrupt(int sig) {
    (void)sig;
    handled++;
}

static const char *source =
    "kernel void spin(global int *data, int stop) { int i = 0; while (data[0] != stop) i++; data[1] = i; }\n"
    "kernel void add_one(global int *data) { data[get_global_id(0)] += 1; }\n";

#define CHECK(call) do { cl_int s_ = (call); if (s_) { printf("FAIL: %s: %d\n", #call, s_); return 1; } } while (0)

int main(int argc, char **argv) {
    if (argc > 1 && !strcmp(argv[1], "handler")) {
        struct sigaction action;
        memset(&action, 0, sizeof action);
        action.sa_handler = on_interrupt;
        sigemptyset(&action.sa_mask);
        sigaction(SIGINT, &action, NULL);
    }
    cl_platform_id platform;
    cl_device_id device;
    cl_int status;
    CHECK(clGetPlatformIDs(1, &platform, NULL));
    CHECK(clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &device, NULL));
    cl_context context = clCreateContext(NULL, 1, &device, NULL, NULL, &status);
    CHECK(status);
    cl_command_queue queue = clCreateCommandQueueWithProperties(context, device, NULL, &status);
    CHECK(status);
    cl_program program = clCreateProgramWithSource(context, 1, &source, NULL, &status);
    CHECK(status);
    CHECK(clBuildProgram(program, 1, &device, "", NULL, NULL));
    cl_kernel spin = clCreateKernel(program, "spin", &status);
    CHECK(status);
    cl_kernel add_one = clCreateKernel(program, "add_one", &status);
    CHECK(status);
    cl_int data[4] = {0, 0, 0, 0}, stop = 7;
    cl_mem buffer = clCreateBuffer(context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof data, data, &status);
    CHECK(status);
    CHECK(clSetKernelArg(spin, 0, sizeof buffer, &buffer));
    CHECK(clSetKernelArg(spin, 1, sizeof stop, &stop));
    CHECK(clSetKernelArg(add_one, 0, sizeof buffer, &buffer));
    size_t one = 1, four = 4;
    cl_event spinning;
    CHECK(clEnqueueNDRangeKernel(queue, spin, 1, NULL, &one, NULL, 0, NULL, &spinning));
    printf("spinning\n");
    fflush(stdout);
    status = clWaitForEvents(1, &spinning);
    printf("wait: %d handled: %d\n", status, (int)handled);
    CHECK(clEnqueueNDRangeKernel(queue, add_one, 1, NULL, &four, NULL, 0, NULL, NULL));
    CHECK(clEnqueueReadBuffer(queue, buffer, CL_TRUE, 0, sizeof data, data, 0, NULL, NULL));
    printf("after: %d %d %d %d\n", data[0], data[1], data[2], data[3]);
    clReleaseEvent(spinning);
    clReleaseMemObject(buffer);
    clReleaseKernel(spin);
    clReleaseKernel(add_one);
    clReleaseProgram(program);
    clReleaseCommandQueue(queue);
    clReleaseContext(context);
    return 0;
}
