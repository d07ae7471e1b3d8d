"""Kernel entry points: creation, arguments as raw bytes, info, and the launches."""
from __future__ import annotations

import ctypes

from loomcl.errors import LogicError, status_code
from loomcl.runtime.constants import kernel_arg_info, kernel_info, kernel_work_group_info
from loomcl.runtime.kernel import Kernel

from .answer import answer, answer_query
from .api_event import hand_out, queue_of, wait_list
from .handles import invalid, registry
from .host_memory import sizes
from .info import write_scalar
from . import kernel_args
from .kernel_args import argument_readers, handle_indices

_POINTER = ctypes.sizeof(ctypes.c_void_p)
_kernels = registry.live["kernel"]


def _new_kernel(program, name: str) -> int:
    kernel = Kernel(program, name)
    kernel.icd_arguments = {}  # index -> the object set there, kept alive while it is
    kernel.icd_readers = argument_readers(kernel)
    kernel.icd_handle_indices = handle_indices(kernel)
    return registry.new(kernel, "kernel")


def clCreateKernel(handle, name):
    routine = "clCreateKernel"
    program = registry.get(handle, "program", routine)
    if not name:
        raise LogicError(routine, status_code.INVALID_VALUE, "kernel_name is NULL")
    return _new_kernel(program, ctypes.string_at(name).decode("utf-8", "replace"))


def clCreateKernelsInProgram(handle, num_kernels, kernels, num_kernels_ret):
    routine = "clCreateKernelsInProgram"
    program = registry.get(handle, "program", routine)
    names = list(program.compiled(routine).kernels)
    if kernels and num_kernels < len(names):
        raise LogicError(routine, status_code.INVALID_VALUE, f"num_kernels {num_kernels} < the program's {len(names)}")
    if kernels:
        for i, name in enumerate(names):
            ctypes.c_void_p.from_address(kernels + i * _POINTER).value = _new_kernel(program, name)
    write_scalar(ctypes.c_uint32, num_kernels_ret, len(names))


def clCloneKernel(handle):
    """A new kernel object with the same arguments set (their bytes and the objects they name)."""
    source = registry.get(handle, "kernel", "clCloneKernel")
    address = _new_kernel(source.program, source.function_name)
    clone = registry.get(address, "kernel", "clCloneKernel")
    clone.copy_arguments_from(source)
    clone.icd_arguments = dict(source.icd_arguments)
    return address


def clRetainKernel(handle):
    registry.retain(handle, "kernel", "clRetainKernel")


def clReleaseKernel(handle):
    registry.release(handle, "kernel", "clReleaseKernel")


def clSetKernelArg(handle, index, size, value):
    """Answers kernel_args.HANDLE_SET (success) when the argument is now a live handle and the native
    library remembers what was set: it then knows to check that handle's life when the same bytes
    come again (native/loomcl_icd.c)."""
    kernel = _kernels.get(handle)
    if kernel is None:
        raise invalid(handle, "kernel", "clSetKernelArg")
    readers = kernel.icd_readers
    if index >= len(readers):
        raise LogicError("clSetKernelArg", status_code.INVALID_ARG_INDEX,
                         f"kernel '{kernel.function_name}' has {len(readers)} arguments; index {index} is out of range")
    argument = readers[index](size, value)
    arguments = kernel.icd_arguments
    if argument is None or arguments.get(index) is not argument:
        # (pyopencl sets every argument before every launch: the same buffer again changes nothing)
        kernel.set_arg(index, argument)
        arguments[index] = argument  # a buffer stays alive while it is the argument
    return kernel_args.handle_set if argument is not None and index in kernel.icd_handle_indices else None


def clGetKernelInfo(handle, param, size, out, size_ret):
    routine = "clGetKernelInfo"
    kernel = registry.get(handle, "kernel", routine)
    return answer_query(handle, kernel, kernel_info, param, size, out, size_ret, routine)


def clGetKernelArgInfo(handle, index, param, size, out, size_ret):
    routine = "clGetKernelArgInfo"
    value = registry.get(handle, "kernel", routine).get_arg_info(index, param)
    return answer(value, kernel_arg_info, param, size, out, size_ret, routine)


def clGetKernelWorkGroupInfo(handle, device, param, size, out, size_ret):
    routine = "clGetKernelWorkGroupInfo"
    kernel = registry.get(handle, "kernel", routine)
    found = registry.get(device, "device", routine) if device else kernel.context.devices[0]
    if param == 0x11B5:  # CL_KERNEL_GLOBAL_WORK_SIZE: built-in kernels only
        raise LogicError(routine, status_code.INVALID_VALUE, "GLOBAL_WORK_SIZE applies to built-in kernels only")
    return answer(kernel.get_work_group_info(param, found), kernel_work_group_info, param, size, out, size_ret, routine)






def clEnqueueNDRangeKernel(queue, handle, work_dim, offset, global_size, local_size, num_events, events, out):
    routine = "clEnqueueNDRangeKernel"
    q, kernel = queue_of(queue, routine), _kernels.get(handle)
    if kernel is None:
        raise invalid(handle, "kernel", routine)
    if not 1 <= work_dim <= 3:
        raise LogicError(routine, status_code.INVALID_WORK_DIMENSION, f"work_dim {work_dim} is not 1, 2 or 3")
    wait_for = wait_list(num_events, events, routine, q) if num_events or events else None
    local = sizes(local_size, work_dim) if local_size else None
    start = sizes(offset, work_dim) if offset else None
    # a NULL global_work_size, like a 0 in it, is an empty range that trivially succeeds (API spec
    # 3.0, 5.10: clEnqueueNDRangeKernel)
    whole = sizes(global_size, work_dim) if global_size else (0,) * work_dim
    event = kernel.enqueue(q, whole, local, start, wait_for,
                           False, True)  # g_times_l no, allow_empty_ndrange yes (OpenCL 2.1+)
    if out:
        hand_out(event, out)


def clEnqueueTask(queue, handle, num_events, events, out):
    one = (ctypes.c_size_t * 1)(1)
    address = ctypes.addressof(one)
    clEnqueueNDRangeKernel(queue, handle, 1, None, address, address, num_events, events, out)

