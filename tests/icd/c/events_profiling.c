/* Commands ordered by events, not by blocking calls: non-blocking writes, a kernel waiting for them
 * in its wait list, a non-blocking read waiting for the kernel, clWaitForEvents. Then each event's
 * profiling timestamps (queued <= submit <= start <= end, and a command starting after the one it
 * waited for ended), clSetEventCallback (called once with CL_COMPLETE and its user data), and a user
 * event that holds a command back until the host completes it. */
#define _POSIX_C_SOURCE 200809L
#include "common.h"
#include <stdatomic.h>
#include <time.h>

#define N 4096

static const char *SOURCE =
    "__kernel void scale_add(__global const int *a, __global const int *b, __global int *c, int k) {\n"
    "    size_t i = get_global_id(0);\n"
    "    c[i] = k * a[i] + b[i];\n"
    "}\n";

static atomic_int callbacks;
static atomic_int callback_status = 1;

static void CL_CALLBACK on_complete(cl_event event, cl_int status, void *user_data) {
    (void)event;
    if (user_data == (void *)&callbacks)
        atomic_store(&callback_status, status);
    atomic_fetch_add(&callbacks, 1);
}

static void sleep_ms(long ms) {
    struct timespec pause = {ms / 1000, (ms % 1000) * 1000000L};
    nanosleep(&pause, NULL);
}

static cl_ulong stamp(cl_event event, cl_profiling_info which) {
    cl_ulong value = 0;
    CHECK(clGetEventProfilingInfo(event, which, sizeof value, &value, NULL));
    return value;
}

static cl_int execution_status(cl_event event) {
    cl_int status;
    CHECK(clGetEventInfo(event, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, NULL));
    return status;
}

static void check_timestamps(cl_event event, const char *what, cl_ulong not_before) {
    cl_ulong queued = stamp(event, CL_PROFILING_COMMAND_QUEUED), submit = stamp(event, CL_PROFILING_COMMAND_SUBMIT);
    cl_ulong start = stamp(event, CL_PROFILING_COMMAND_START), end = stamp(event, CL_PROFILING_COMMAND_END);
    if (!(queued <= submit && submit <= start && start <= end))
        fail("%s: timestamps out of order: queued %llu submit %llu start %llu end %llu", what,
             (unsigned long long)queued, (unsigned long long)submit, (unsigned long long)start,
             (unsigned long long)end);
    if (start < not_before)
        fail("%s started at %llu, before the command it waited for ended (%llu)", what,
             (unsigned long long)start, (unsigned long long)not_before);
}

int main(void) {
    Setup s = setup("events_profiling");
    cl_int status;
    cl_queue_properties properties[] = {CL_QUEUE_PROPERTIES, CL_QUEUE_PROFILING_ENABLE, 0};
    cl_command_queue q = clCreateCommandQueueWithProperties(s.context, s.device, properties, &status);
    CHECK(status);
    cl_int *a = malloc(N * sizeof *a), *b = malloc(N * sizeof *b), *c = malloc(N * sizeof *c);
    for (int i = 0; i < N; i++) {
        a[i] = i;
        b[i] = 3 * i - 7;
        c[i] = 0;
    }
    cl_mem a_mem = buffer(&s, CL_MEM_READ_ONLY, N * sizeof *a, NULL);
    cl_mem b_mem = buffer(&s, CL_MEM_READ_ONLY, N * sizeof *b, NULL);
    cl_mem c_mem = buffer(&s, CL_MEM_READ_WRITE, N * sizeof *c, NULL);
    cl_kernel k = kernel(build(&s, SOURCE, ""), "scale_add");
    cl_int factor = 5;
    CHECK(clSetKernelArg(k, 0, sizeof a_mem, &a_mem));
    CHECK(clSetKernelArg(k, 1, sizeof b_mem, &b_mem));
    CHECK(clSetKernelArg(k, 2, sizeof c_mem, &c_mem));
    CHECK(clSetKernelArg(k, 3, sizeof factor, &factor));

    /* Writes, kernel and read chained by wait lists, nothing blocking until clWaitForEvents. */
    cl_event writes[2], launch, read;
    size_t global = N;
    CHECK(clEnqueueWriteBuffer(q, a_mem, CL_FALSE, 0, N * sizeof *a, a, 0, NULL, &writes[0]));
    CHECK(clEnqueueWriteBuffer(q, b_mem, CL_FALSE, 0, N * sizeof *b, b, 0, NULL, &writes[1]));
    CHECK(clEnqueueNDRangeKernel(q, k, 1, NULL, &global, NULL, 2, writes, &launch));
    CHECK(clSetEventCallback(launch, CL_COMPLETE, on_complete, &callbacks));
    CHECK(clEnqueueReadBuffer(q, c_mem, CL_FALSE, 0, N * sizeof *c, c, 1, &launch, &read));
    CHECK(clWaitForEvents(1, &read));
    for (int i = 0; i < N; i++)
        if (c[i] != factor * a[i] + b[i])
            fail("c[%d] = %d, expected %d", i, c[i], factor * a[i] + b[i]);
    cl_event all[] = {writes[0], writes[1], launch, read};
    for (int e = 0; e < 4; e++)
        if (execution_status(all[e]) != CL_COMPLETE)
            fail("event %d is not CL_COMPLETE after clWaitForEvents of the read that waited for it", e);
    cl_ulong writes_end = stamp(writes[0], CL_PROFILING_COMMAND_END);
    if (stamp(writes[1], CL_PROFILING_COMMAND_END) > writes_end)
        writes_end = stamp(writes[1], CL_PROFILING_COMMAND_END);
    check_timestamps(writes[0], "the first write", 0);
    check_timestamps(writes[1], "the second write", 0);
    check_timestamps(launch, "the kernel", writes_end);
    check_timestamps(read, "the read", stamp(launch, CL_PROFILING_COMMAND_END));

    /* The callback may run on another thread a moment after the event completes: wait up to 5 s. */
    for (int waited = 0; atomic_load(&callbacks) == 0 && waited < 5000; waited += 10)
        sleep_ms(10);
    if (atomic_load(&callbacks) != 1 || atomic_load(&callback_status) != CL_COMPLETE)
        fail("the CL_COMPLETE callback ran %d times with status %d (expected once, CL_COMPLETE)",
             atomic_load(&callbacks), atomic_load(&callback_status));

    /* A user event gates a fill: it stays pending until the host sets the user event complete. */
    cl_event gate = clCreateUserEvent(s.context, &status), fill;
    CHECK(status);
    cl_command_type type;
    CHECK(clGetEventInfo(gate, CL_EVENT_COMMAND_TYPE, sizeof type, &type, NULL));
    if (type != CL_COMMAND_USER || execution_status(gate) != CL_SUBMITTED)
        fail("a new user event has command type %#x and status %d (expected CL_COMMAND_USER, CL_SUBMITTED)",
             type, execution_status(gate));
    cl_int filler = 42;
    CHECK(clEnqueueFillBuffer(q, c_mem, &filler, sizeof filler, 0, N * sizeof *c, 1, &gate, &fill));
    CHECK(clFlush(q));
    sleep_ms(100);
    if (execution_status(fill) <= CL_COMPLETE)
        fail("the fill finished (status %d) while its user event was still pending", execution_status(fill));
    CHECK(clSetUserEventStatus(gate, CL_COMPLETE));
    CHECK(clWaitForEvents(1, &fill));
    CHECK(clEnqueueReadBuffer(q, c_mem, CL_TRUE, 0, N * sizeof *c, c, 0, NULL, NULL));
    for (int i = 0; i < N; i++)
        if (c[i] != filler)
            fail("after the gated fill c[%d] = %d, expected %d", i, c[i], filler);
    cl_ulong unused;
    EXPECT_STATUS(CL_PROFILING_INFO_NOT_AVAILABLE,
                  clGetEventProfilingInfo(gate, CL_PROFILING_COMMAND_START, sizeof unused, &unused, NULL));

    double kernel_ms = (stamp(launch, CL_PROFILING_COMMAND_END) - stamp(launch, CL_PROFILING_COMMAND_START)) * 1e-6;
    cl_event released[] = {writes[0], writes[1], launch, read, gate, fill};
    for (int e = 0; e < 6; e++)
        CHECK(clReleaseEvent(released[e]));
    CHECK(clReleaseKernel(k));
    CHECK(clReleaseMemObject(a_mem));
    CHECK(clReleaseMemObject(b_mem));
    CHECK(clReleaseMemObject(c_mem));
    CHECK(clReleaseCommandQueue(q));
    CHECK(clReleaseContext(s.context));
    printf("events_profiling: PASS: wait lists, ordered timestamps (kernel %.3f ms), one CL_COMPLETE "
           "callback, a user event gating a fill (platform '%s')\n",
           kernel_ms, s.platform_name);
    return 0;
}
