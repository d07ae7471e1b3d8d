"""Launch overhead through the ICD loader (a measurement, not a test): launch + finish of an empty
one-work-item kernel, from pyopencl on whatever OCL_ICD_VENDORS names (pyopencl asks every enqueue
for an event and releases it when its Python object goes), and the same entry points called in
process, without the loader and the C callbacks, to show what the ICD's Python layer costs.
Prints the best of several runs in microseconds of wall and of CPU time (the CPU time of all the
process's threads: less disturbed by a busy machine).

    OCL_ICD_VENDORS=$(python -m loomcl icd | tail -1) python tests/icd/measure_icd_launch.py
"""
from __future__ import annotations

import argparse
import ctypes
import time

SOURCE = "kernel void empty(global int *a) { }"


def best_of(body, calls: int, runs: int = 5) -> tuple[float, float]:
    for _ in range(calls // 10):
        body()
    walls, cpus = [], []
    for _ in range(runs):
        wall, cpu = time.perf_counter(), time.process_time()
        for _ in range(calls):
            body()
        walls.append((time.perf_counter() - wall) / calls * 1e6)
        cpus.append((time.process_time() - cpu) / calls * 1e6)
    return min(walls), min(cpus)


def through_pyopencl(calls: int) -> tuple[float, float]:
    import pyopencl as cl

    context = cl.Context([cl.get_platforms()[0].get_devices()[0]])
    queue = cl.CommandQueue(context)
    kernel = cl.Program(context, SOURCE).build().empty
    kernel.set_arg(0, cl.Buffer(context, cl.mem_flags.READ_WRITE, 64))

    def launch():
        cl.enqueue_nd_range_kernel(queue, kernel, (1,), None)
        queue.finish()
    return best_of(launch, calls)


def in_process(calls: int) -> tuple[float, float]:
    from loomcl.icd import api_context, api_event, api_kernel, api_memory, api_program, api_queue, entry
    from loomcl.icd.api_platform import clGetDeviceIDs

    platform = entry.platform_address()
    device = ctypes.c_void_p()
    clGetDeviceIDs(platform, 0xFFFFFFFF, 1, ctypes.addressof(device), None)
    devices = (ctypes.c_void_p * 1)(device.value)
    context = api_context.clCreateContext(None, 1, ctypes.addressof(devices), None, None)
    queue = api_queue.clCreateCommandQueue(context, device.value, 0)
    source = ctypes.c_char_p(SOURCE.encode())
    program = api_program.clCreateProgramWithSource(context, 1, ctypes.addressof(source), None)
    api_program.clBuildProgram(program, 0, None, None, None, None)
    kernel = api_kernel.clCreateKernel(program, ctypes.c_char_p(b"empty"))
    buffer = ctypes.c_void_p(api_memory.clCreateBuffer(context, 1, 64, None))
    api_kernel.clSetKernelArg(kernel, 0, ctypes.sizeof(buffer), ctypes.addressof(buffer))
    size, event = (ctypes.c_size_t * 1)(1), ctypes.c_void_p()
    size_address, event_address = ctypes.addressof(size), ctypes.addressof(event)

    def launch():
        api_kernel.clEnqueueNDRangeKernel(queue, kernel, 1, None, size_address, None, 0, None, event_address)
        api_event.clReleaseEvent(event.value)
        api_queue.clFinish(queue)
    return best_of(launch, calls)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=20000)
    calls = parser.parse_args().calls
    for label, measure in (("pyopencl through the loader", through_pyopencl),
                           ("the ICD's entry points in process", in_process)):
        wall, cpu = measure(calls)
        print(f"{label:36s} launch+finish {wall:6.2f} us wall {cpu:6.2f} us cpu")


if __name__ == "__main__":
    main()
