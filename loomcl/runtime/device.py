"""The one loomcl device: the host CPU, all its cores, as OpenCL's info queries describe it.

Values follow what a CPU OpenCL driver (pocl) reports, adapted to how loomcl runs kernels: a
work-group is a loop nest on one core, so large groups are cheap (max_work_group_size 4096) and
local memory is an ordinary per-thread arena that can be large (1 MiB; sized to stay near L2).
"""
from __future__ import annotations

from ..version import __version__ as VERSION
from . import host_info
from .printf_output import BUFFER_BYTES as PRINTF_BUFFER_BYTES
from .constants import (
    command_queue_properties,
    device_exec_capabilities,
    device_fp_config,
    device_info,
    device_local_mem_type,
    device_mem_cache_type,
    device_type,
    info_attribute,
)

CL_VERSION = (1, 2)  # the OpenCL version the platform and its device implement
MAX_WORK_GROUP_SIZE = 4096
LOCAL_MEM_SIZE = 1 << 20
EXTENSIONS = (
    "cl_khr_fp64 cl_khr_byte_addressable_store cl_khr_global_int32_base_atomics "
    "cl_khr_global_int32_extended_atomics cl_khr_local_int32_base_atomics "
    "cl_khr_local_int32_extended_atomics cl_khr_int64_base_atomics cl_khr_int64_extended_atomics"
)
_FP_CONFIG = (
    device_fp_config.DENORM
    | device_fp_config.INF_NAN
    | device_fp_config.ROUND_TO_NEAREST
    | device_fp_config.ROUND_TO_ZERO
    | device_fp_config.ROUND_TO_INF
    | device_fp_config.CORRECTLY_ROUNDED_DIVIDE_SQRT
)


class Device:
    """The host CPU as an OpenCL device. Attributes are pyopencl's lowercase info names."""

    type = device_type.CPU
    max_work_item_dimensions = 3
    max_work_group_size = MAX_WORK_GROUP_SIZE
    max_work_item_sizes = [MAX_WORK_GROUP_SIZE] * 3
    address_bits = 64
    local_mem_size = LOCAL_MEM_SIZE
    local_mem_type = device_local_mem_type.LOCAL
    mem_base_addr_align = 512  # bits: Buffer memory is 64-byte aligned
    min_data_type_align_size = 128
    max_parameter_size = 1024
    max_constant_args = 8
    # images (image.py checks sizes against these); 2D images from buffers are not supported, so the
    # two alignments of cl_khr_image2d_from_buffer are 0
    image_support = True
    max_read_image_args = 128
    max_write_image_args = 64
    max_samplers = 16
    image2d_max_width = image2d_max_height = 16384
    image3d_max_width = image3d_max_height = image3d_max_depth = 2048
    image_max_buffer_size = 1 << 27  # pixels of a 1D buffer image
    image_max_array_size = 2048
    image_pitch_alignment = image_base_address_alignment = 0
    error_correction_support = False
    profiling_timer_resolution = 1
    endian_little = True
    available = True
    compiler_available = True
    linker_available = False
    host_unified_memory = True
    execution_capabilities = device_exec_capabilities.KERNEL
    queue_properties = (
        command_queue_properties.OUT_OF_ORDER_EXEC_MODE_ENABLE
        | command_queue_properties.PROFILING_ENABLE
    )
    global_mem_cache_type = device_mem_cache_type.READ_WRITE_CACHE
    single_fp_config = _FP_CONFIG
    double_fp_config = _FP_CONFIG
    half_fp_config = 0
    preferred_vector_width_half = native_vector_width_half = 0
    version = f"OpenCL {CL_VERSION[0]}.{CL_VERSION[1]} loomcl {VERSION}"
    opencl_c_version = "OpenCL C 1.2"
    driver_version = VERSION
    profile = "FULL_PROFILE"
    extensions = EXTENSIONS
    built_in_kernels = ""
    reference_count = 1
    printf_buffer_size = PRINTF_BUFFER_BYTES  # a kernel's first; it grows after an overflow

    def __init__(self, platform) -> None:
        self.platform = platform
        self.name = host_info.cpu_name()
        self.vendor = host_info.cpu_vendor()
        self.vendor_id = host_info.cpu_vendor_id()
        self.max_compute_units = host_info.compute_units()
        self.max_clock_frequency = host_info.cpu_mhz()
        self.global_mem_size = host_info.physical_memory()
        self.max_mem_alloc_size = max(self.global_mem_size // 2, 128 << 20)
        self.max_constant_buffer_size = self.max_mem_alloc_size
        line, cache = host_info.caches()
        self.global_mem_cacheline_size, self.global_mem_cache_size = line, cache
        self._set_vector_widths(host_info.vector_bytes())

    def _set_vector_widths(self, vector_bytes: int) -> None:
        for kind, size in (("char", 1), ("short", 2), ("int", 4), ("long", 8), ("float", 4), ("double", 8)):
            setattr(self, f"preferred_vector_width_{kind}", vector_bytes // size)
            setattr(self, f"native_vector_width_{kind}", vector_bytes // size)

    def get_info(self, param: int):
        return getattr(self, info_attribute(device_info, param, "clGetDeviceInfo"))

    @property
    def int_ptr(self) -> int:
        return id(self)

    def __repr__(self) -> str:
        return f"<loomcl.Device '{self.name}' on '{self.platform.name}'>"

