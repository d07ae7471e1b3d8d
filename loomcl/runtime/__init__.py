"""The OpenCL API objects (pyopencl's names), one class per module; `loomcl` re-exports them."""
from types import ModuleType as _ModuleType

from .buffer import Buffer
from .command_queue import CommandQueue, enqueue_barrier, enqueue_marker, enqueue_wait_for_events
from .constants import (
    build_status,
    command_execution_status,
    command_queue_info,
    command_queue_properties,
    command_type,
    context_info,
    device_affinity_domain,
    device_atomic_capabilities,
    device_device_enqueue_capabilities,
    device_exec_capabilities,
    device_fp_config,
    device_info,
    device_local_mem_type,
    device_mem_cache_type,
    device_partition_property,
    device_svm_capabilities,
    device_type,
    event_info,
    kernel_arg_access_qualifier,
    kernel_arg_address_qualifier,
    kernel_arg_info,
    kernel_arg_type_qualifier,
    kernel_info,
    kernel_work_group_info,
    map_flags,
    mem_flags,
    mem_info,
    mem_object_type,
    platform_info,
    profiling_info,
    program_binary_type,
    program_build_info,
    program_info,
    version_bits,
)
from .context import Context, create_some_context
from .device import Device
from .event import Event, UserEvent, wait_for_events
from .image import Image, create_image, image_from_array
from .image_constants import (
    addressing_mode,
    channel_order,
    channel_type,
    filter_mode,
    image_info,
    sampler_info,
    sampler_properties,
)
from .image_desc import ImageDescriptor
from .image_fill import enqueue_fill_image
from .image_format import ImageFormat, get_supported_image_formats
from .image_map import enqueue_map_image
from .kernel import Kernel, enqueue_nd_range_kernel
from .local_memory import LocalMemory
from .mapping import MemoryMap, enqueue_map_buffer
from .platform import Platform, get_cl_header_version, get_platforms
from .program import CompilerWarning, Program, compiler_output
from .sampler import Sampler
from .transfer import enqueue_copy, enqueue_fill_buffer
from .program_link import link_program
from .versions import NameVersion

__all__ = [name for name, value in globals().items() if not name.startswith("_") and not isinstance(value, _ModuleType)]
