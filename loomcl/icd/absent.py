"""The entry points of features loomcl's device reports absent, in one place: each checks its first
handle (a bad one is still INVALID_<KIND>) and then answers as the spec asks of a device without the
feature. What the device reports is runtime/device.py's; this is the C API's side of it."""
from __future__ import annotations

from loomcl.errors import LogicError, status_code

from .handles import registry

_NO = status_code.INVALID_OPERATION


def _refusal(routine: str, kind: str, code: int, reason: str):
    def refuse(handle, *_arguments):
        registry.get(handle, kind, routine)
        raise LogicError(routine, code, reason)

    refuse.__name__ = routine
    return refuse


clCreateSubDevices = clCreateSubDevicesEXT = _refusal(
    "clCreateSubDevices", "device", status_code.INVALID_VALUE,
    "loomcl's device cannot be partitioned (CL_DEVICE_PARTITION_PROPERTIES is empty)")
clEnqueueNativeKernel = _refusal(
    "clEnqueueNativeKernel", "queue", _NO,
    "native kernels are not supported (CL_DEVICE_EXECUTION_CAPABILITIES lacks NATIVE_KERNEL)")
clCreateProgramWithBuiltInKernels = _refusal(
    "clCreateProgramWithBuiltInKernels", "context", status_code.INVALID_VALUE,
    "loomcl's device has no built-in kernels (CL_DEVICE_BUILT_IN_KERNELS is empty)")
clCreateProgramWithIL = _refusal(
    "clCreateProgramWithIL", "context", _NO, "loomcl takes no intermediate language (CL_DEVICE_IL_VERSION is empty)")
clSetProgramSpecializationConstant = _refusal(
    "clSetProgramSpecializationConstant", "program", _NO,
    "specialization constants need a program from IL, which loomcl does not take")
clSetProgramReleaseCallback = _refusal(
    "clSetProgramReleaseCallback", "program", _NO,
    "no program-scope global constructors or destructors exist (deprecated in OpenCL 3.0)")
clSetCommandQueueProperty = _refusal(
    "clSetCommandQueueProperty", "queue", _NO, "deprecated in OpenCL 1.1; create the queue with the properties instead")
clSetDefaultDeviceCommandQueue = _refusal(
    "clSetDefaultDeviceCommandQueue", "context", _NO, "loomcl has no device-side queues")
clGetKernelSubGroupInfo = clGetKernelSubGroupInfoKHR = _refusal(
    "clGetKernelSubGroupInfo", "kernel", _NO, "sub-groups are not supported")
clSetKernelArgSVMPointer = _refusal("clSetKernelArgSVMPointer", "kernel", _NO, "no shared virtual memory")
clSetKernelExecInfo = _refusal("clSetKernelExecInfo", "kernel", _NO, "no shared virtual memory")
clCreatePipe = _refusal(
    "clCreatePipe", "context", _NO, "pipes are not supported (CL_DEVICE_PIPE_SUPPORT is false)")
clGetPipeInfo = _refusal(
    "clGetPipeInfo", "mem", status_code.INVALID_MEM_OBJECT,
    "no memory object is a pipe (CL_DEVICE_PIPE_SUPPORT is false)")


def clSVMAlloc(context, flags, size, alignment):
    """No shared virtual memory (CL_DEVICE_SVM_CAPABILITIES is 0): the spec's answer is NULL."""
    return None


def clSVMFree(context, pointer):
    return None
