"""Platform and device entry points, the extension-function lookup and the host timer."""
from __future__ import annotations

import ctypes
import time

from loomcl.errors import LogicError, status_code
from loomcl.runtime.constants import device_info, device_type, platform_info
from loomcl.runtime.platform import get_platforms

from .answer import answer_query
from .dispatch import connected
from .handles import registry
from .info import write_scalar



def platform():
    return get_platforms()[0]


def clGetPlatformIDs(num_entries, platforms, num_platforms):  # the loader answers this; here for completeness
    if (num_entries == 0 and platforms) or (not platforms and not num_platforms):
        raise LogicError("clGetPlatformIDs", status_code.INVALID_VALUE, "num_entries is 0 or no output given")
    if platforms:
        ctypes.c_void_p.from_address(platforms).value = registry.address_of(platform(), "platform")
    write_scalar(ctypes.c_uint32, num_platforms, 1)


def clGetPlatformInfo(handle, param, size, out, size_ret):
    routine = "clGetPlatformInfo"
    found = registry.get(handle, "platform", routine)  # cl_khr_icd and its suffix are the platform's
    return answer_query(handle, found, platform_info, param, size, out, size_ret, routine)


def clGetDeviceIDs(handle, kind, num_entries, devices, num_devices):
    routine = "clGetDeviceIDs"
    found = registry.get(handle, "platform", routine) if handle else platform()
    if (num_entries == 0 and devices) or (not devices and not num_devices):
        raise LogicError(routine, status_code.INVALID_VALUE, "num_entries is 0 or no output given")
    listed = found.get_devices(checked_device_type(kind, routine))
    if devices:
        for i, device in enumerate(listed[:num_entries]):
            ctypes.c_void_p.from_address(devices + i * 8).value = registry.address_of(device, "device")
    write_scalar(ctypes.c_uint32, num_devices, len(listed))


_DEVICE_TYPES = device_type.DEFAULT | device_type.CPU | device_type.GPU | device_type.ACCELERATOR | device_type.CUSTOM


def checked_device_type(kind: int, routine: str) -> int:
    """A cl_device_type argument: ALL or a combination of the known types (else INVALID_DEVICE_TYPE)."""
    if kind != device_type.ALL and (not kind or kind & ~_DEVICE_TYPES):
        raise LogicError(routine, status_code.INVALID_DEVICE_TYPE, f"{kind:#x} is not a valid cl_device_type")
    return kind


def clGetDeviceInfo(handle, param, size, out, size_ret):
    routine = "clGetDeviceInfo"
    device = registry.get(handle, "device", routine)
    return answer_query(handle, device, device_info, param, size, out, size_ret, routine)


def clRetainDevice(handle):  # the root device is never created nor destroyed by the C API
    registry.get(handle, "device", "clRetainDevice")


def clReleaseDevice(handle):
    registry.get(handle, "device", "clReleaseDevice")


clRetainDeviceEXT, clReleaseDeviceEXT = clRetainDevice, clReleaseDevice




def clUnloadCompiler():
    return status_code.SUCCESS


def clUnloadPlatformCompiler(handle):
    registry.get(handle, "platform", "clUnloadPlatformCompiler")


def clGetExtensionFunctionAddress(name):
    if not name:
        return None
    return connected().functions.get(ctypes.string_at(name).decode(errors="replace"))


def clGetExtensionFunctionAddressForPlatform(handle, name):
    registry.get(handle, "platform", "clGetExtensionFunctionAddressForPlatform")
    return clGetExtensionFunctionAddress(name)


def clGetHostTimer(handle, host_timestamp):
    registry.get(handle, "device", "clGetHostTimer")
    if not host_timestamp:
        raise LogicError("clGetHostTimer", status_code.INVALID_VALUE, "host_timestamp is NULL")
    ctypes.c_uint64.from_address(host_timestamp).value = time.perf_counter_ns()


def clGetDeviceAndHostTimer(handle, device_timestamp, host_timestamp):
    """The device is the host: both clocks are the one that profiling timestamps use."""
    registry.get(handle, "device", "clGetDeviceAndHostTimer")
    if not device_timestamp or not host_timestamp:
        raise LogicError("clGetDeviceAndHostTimer", status_code.INVALID_VALUE, "a timestamp pointer is NULL")
    now = time.perf_counter_ns()
    ctypes.c_uint64.from_address(device_timestamp).value = now
    ctypes.c_uint64.from_address(host_timestamp).value = now


