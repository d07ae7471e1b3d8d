"""The one loomcl device: the host CPU, all its cores, as OpenCL's info queries describe it.

Values follow what a CPU OpenCL driver (pocl) reports, adapted to how loomcl runs kernels: a
work-group is a loop nest on one core, so large groups are cheap (max_work_group_size 4096) and
local memory is an ordinary per-thread arena that can be large (1 MiB; sized to stay near L2).

The device is OpenCL 3.0 (versions.py) with the optional features it really has: images (2D, 3D
writes too), non-uniform work-groups, fp64 and 64-bit atomics. It has no SVM, pipes, device-side
enqueue, generic address space, subgroups, work-group collective functions or program-scope
variables outside __constant, and says so (0 or empty) in the 2.x/3.0 queries. Every query of
device_info is answered by the attribute of its lowercase name, with the C type info_types.py lists;
cl_bool answers are ints 0/1, as pyopencl gives them.
"""
from __future__ import annotations

import time

from .. import host
from .constants import (
    command_queue_properties,
    device_atomic_capabilities,
    device_exec_capabilities,
    device_fp_config,
    device_info,
    device_local_mem_type,
    device_mem_cache_type,
    device_type,
    info_attribute,
)
from .engine_api import PRINTF_BUFFER_BYTES
from .versions import (
    CL_VERSION,
    CONFORMANCE_NOT_PASSED,
    LOOMCL_VERSION,
    OPENCL_C_ALL_VERSIONS,
    OPENCL_C_VERSION,
    VERSION_STRING,
    NameVersion,
    make_version,
    name_versions,
)

VERSION = LOOMCL_VERSION
MAX_WORK_GROUP_SIZE = 4096
LOCAL_MEM_SIZE = 1 << 20
BASE_ADDRESS_ALIGN = 128
"""Bytes: every buffer starts at a multiple of the size of long16, OpenCL's largest type (the
spec's minimum CL_DEVICE_MEM_BASE_ADDR_ALIGN)."""
EXTENSIONS = (
    "cl_khr_fp64 cl_khr_byte_addressable_store cl_khr_global_int32_base_atomics "
    "cl_khr_global_int32_extended_atomics cl_khr_local_int32_base_atomics "
    "cl_khr_local_int32_extended_atomics cl_khr_int64_base_atomics cl_khr_int64_extended_atomics "
    "cl_khr_3d_image_writes"
)
OPENCL_C_FEATURES = ("__opencl_c_images", "__opencl_c_3d_image_writes", "__opencl_c_fp64", "__opencl_c_int64")
"""OpenCL C 3.0's optional features loomcl has (predefined.py defines their macros under CL3.0)."""
_FP_CONFIG = (
    device_fp_config.DENORM
    | device_fp_config.INF_NAN
    | device_fp_config.ROUND_TO_NEAREST
    | device_fp_config.ROUND_TO_ZERO
    | device_fp_config.ROUND_TO_INF
    | device_fp_config.FMA
)
# OpenCL C 1.2's atomic functions are relaxed read-modify-writes; barrier() and mem_fence() order
# memory within a work-group (acquire-release). These are the 3.0 spec's minimum capabilities. Device
# scope is not claimed: it names OpenCL C 2.0's memory_scope_device, which loomcl's language lacks, and
# the API's answer must match the __opencl_c_atomic_scope_device macro (the CTS's features_macro).
_ATOMIC_MEMORY = device_atomic_capabilities.ORDER_RELAXED | device_atomic_capabilities.SCOPE_WORK_GROUP
_ATOMIC_FENCE = (device_atomic_capabilities.ORDER_RELAXED | device_atomic_capabilities.ORDER_ACQ_REL
                 | device_atomic_capabilities.SCOPE_WORK_GROUP)


class Device:
    """The host CPU as an OpenCL device. Attributes are pyopencl's lowercase info names."""

    type = device_type.CPU
    max_work_item_dimensions = 3
    max_work_group_size = MAX_WORK_GROUP_SIZE
    max_work_item_sizes = [MAX_WORK_GROUP_SIZE] * 3
    address_bits = 64
    local_mem_size = LOCAL_MEM_SIZE
    local_mem_type = device_local_mem_type.LOCAL
    mem_base_addr_align = 8 * BASE_ADDRESS_ALIGN  # bits
    min_data_type_align_size = 128
    max_parameter_size = 1024
    max_constant_args = 8
    error_correction_support = 0
    profiling_timer_resolution = 1  # ns: events are stamped with perf_counter_ns
    endian_little = 1
    available = 1
    compiler_available = 1
    linker_available = 1
    host_unified_memory = 1
    execution_capabilities = device_exec_capabilities.KERNEL
    queue_properties = queue_on_host_properties = (
        command_queue_properties.OUT_OF_ORDER_EXEC_MODE_ENABLE
        | command_queue_properties.PROFILING_ENABLE
    )
    global_mem_cache_type = device_mem_cache_type.READ_WRITE_CACHE
    single_fp_config = _FP_CONFIG | device_fp_config.CORRECTLY_ROUNDED_DIVIDE_SQRT
    double_fp_config = _FP_CONFIG
    half_fp_config = 0
    preferred_vector_width_half = native_vector_width_half = 0
    version = VERSION_STRING
    numeric_version = make_version(*CL_VERSION)
    # "OpenCL<space>C<space><major.minor><space><vendor-specific information>" (API spec 4.2): the
    # space after the version is required even where a program only parses the number
    opencl_c_version = f"OpenCL C {OPENCL_C_VERSION[0]}.{OPENCL_C_VERSION[1]} loomcl"
    opencl_c_all_versions = [NameVersion(make_version(*v), "OpenCL C") for v in OPENCL_C_ALL_VERSIONS]
    opencl_c_features = name_versions(OPENCL_C_FEATURES, (3, 0, 0))
    driver_version = VERSION
    profile = "FULL_PROFILE"
    extensions = EXTENSIONS
    extensions_with_version = name_versions(EXTENSIONS)
    built_in_kernels = ""
    built_in_kernels_with_version: list = []
    il_version = ""
    ils_with_version: list = []
    latest_conformance_version_passed = CONFORMANCE_NOT_PASSED
    reference_count = 1
    printf_buffer_size = PRINTF_BUFFER_BYTES  # a kernel's first; it grows after an overflow
    preferred_interop_user_sync = 1

    # -- images (image.py checks sizes against these) ------------------------------------------------
    image_support = 1
    max_read_image_args = 128
    max_write_image_args = 64
    max_read_write_image_args = 0  # read_write image arguments are OpenCL C 2.0
    max_samplers = 16
    image2d_max_width = image2d_max_height = 16384
    image3d_max_width = image3d_max_height = image3d_max_depth = 2048
    image_max_array_size = 2048
    image_max_buffer_size = 1 << 27  # pixels
    # 2D images from buffers are not supported, so cl_khr_image2d_from_buffer's alignments are 0
    image_pitch_alignment = image_base_address_alignment = 0

    # -- no sub-devices ------------------------------------------------------------------------------
    parent_device = None
    partition_max_sub_devices = 0
    partition_properties: list = []
    partition_affinity_domain = 0
    partition_type: list = []

    # -- OpenCL 2.x/3.0 optional features: what loomcl has -------------------------------------------
    non_uniform_work_group_support = 1
    svm_capabilities = 0
    max_global_variable_size = global_variable_preferred_total_size = 0
    queue_on_device_properties = queue_on_device_preferred_size = queue_on_device_max_size = 0
    max_on_device_queues = max_on_device_events = 0
    device_enqueue_capabilities = 0
    pipe_support = max_pipe_args = pipe_max_active_reservations = pipe_max_packet_size = 0
    generic_address_space_support = 0
    max_num_sub_groups = sub_group_independent_forward_progress = 0
    work_group_collective_functions_support = 0
    preferred_platform_atomic_alignment = preferred_global_atomic_alignment = 0  # natural alignment
    preferred_local_atomic_alignment = 0
    atomic_memory_capabilities = _ATOMIC_MEMORY
    atomic_fence_capabilities = _ATOMIC_FENCE

    def __init__(self, platform) -> None:
        self.platform = platform
        self.name = host.cpu_name()
        self.vendor = host.cpu_vendor()
        self.vendor_id = host.cpu_vendor_id()
        self.max_compute_units = host.compute_units()
        self.max_clock_frequency = host.cpu_mhz()
        self.global_mem_size = host.physical_memory()
        self.max_mem_alloc_size = max(self.global_mem_size // 2, 128 << 20)
        self.max_constant_buffer_size = self.max_mem_alloc_size
        line, cache = host.caches()
        self.global_mem_cacheline_size, self.global_mem_cache_size = line, cache
        self._set_vector_widths(host.vector_bytes())
        self.preferred_work_group_size_multiple = self.preferred_vector_width_float

    def _set_vector_widths(self, vector_bytes: int) -> None:
        for kind, size in (("char", 1), ("short", 2), ("int", 4), ("long", 8), ("float", 4), ("double", 8)):
            setattr(self, f"preferred_vector_width_{kind}", vector_bytes // size)
            setattr(self, f"native_vector_width_{kind}", vector_bytes // size)

    def get_info(self, param: int):
        return getattr(self, info_attribute(device_info, param, "clGetDeviceInfo"))

    @property
    def device_and_host_timer(self) -> tuple[int, int]:
        """clGetDeviceAndHostTimer: (device, host) timestamps in ns. The device's clock is the one
        events are stamped with (time.perf_counter_ns, event.py), and it is the host's too."""
        now = time.perf_counter_ns()
        return now, now

    @property
    def host_timer(self) -> int:
        """clGetHostTimer: the host clock in ns, the clock of event profiling."""
        return self.device_and_host_timer[1]

    @property
    def int_ptr(self) -> int:
        return id(self)

    def __repr__(self) -> str:
        return f"<loomcl.Device '{self.name}' on '{self.platform.name}'>"

