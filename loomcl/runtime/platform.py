"""The loomcl platform: one platform with one CPU device, shared by the whole process."""
from __future__ import annotations

import threading

from loomcl.errors import LogicError, RuntimeError, status_code

from .constants import device_type as device_type_bits
from .constants import info_attribute, platform_info
from .device import Device
from .versions import CL_VERSION, VERSION_STRING, make_version, name_versions


def get_cl_header_version() -> tuple[int, int]:
    """pyopencl's: the OpenCL version the API is written against (here, the one loomcl implements)."""
    return CL_VERSION


class Platform:
    """pyopencl's Platform: `get_devices(device_type=...)` and the info properties."""

    name = "loomcl"
    vendor = "loomcl"
    version = VERSION_STRING
    numeric_version = make_version(*CL_VERSION)
    profile = "FULL_PROFILE"
    extensions = "cl_khr_icd"  # the platform is also reached through the ICD loader (loomcl/icd/)
    extensions_with_version = name_versions(extensions)
    icd_suffix_khr = "LOOM"  # cl_khr_icd: the suffix of the platform's extension functions
    host_timer_resolution = 1  # ns: Device.host_timer reads perf_counter_ns

    def __init__(self) -> None:
        self._devices = [Device(self)]

    def get_devices(self, device_type: int = device_type_bits.ALL) -> list[Device]:  # noqa: A002 - pyopencl's name
        if isinstance(device_type, bool) or not isinstance(device_type, int) or device_type <= 0:
            raise LogicError("clGetDeviceIDs", status_code.INVALID_DEVICE_TYPE, f"bad device type {device_type!r}")
        if not device_type & (Device.type | device_type_bits.DEFAULT):
            raise RuntimeError(
                "clGetDeviceIDs",
                status_code.DEVICE_NOT_FOUND,
                f"loomcl has only a CPU device; none of type {device_type!r}",
            )
        return list(self._devices)

    def get_info(self, param: int):
        return getattr(self, info_attribute(platform_info, param, "clGetPlatformInfo"))

    @property
    def int_ptr(self) -> int:
        return id(self)

    def __repr__(self) -> str:
        return f"<loomcl.Platform '{self.name}'>"


_platform: Platform | None = None
_platform_lock = threading.Lock()


def get_platforms() -> list[Platform]:
    """The platform list: always the single loomcl platform (created once, also when several threads
    ask first at the same time)."""
    global _platform
    if _platform is None:
        with _platform_lock:
            if _platform is None:
                _platform = Platform()
    return [_platform]
