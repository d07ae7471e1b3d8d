"""The C type of each info query's answer, where the Python value's own type does not say it.

A str is a string, a bool a cl_bool, a list of ints a size_t[]; an int is a cl_uint unless listed here.
Handles (objects answered as their C handles) are listed with their kind.
"""
from __future__ import annotations

_ULONG = "ulong"
_SIZE = "size"

C_TYPES: dict[str, dict[str, str]] = {
    "platform_info": {"HOST_TIMER_RESOLUTION": _ULONG},
    "device_info": {
        **dict.fromkeys(
            "TYPE MAX_MEM_ALLOC_SIZE SINGLE_FP_CONFIG DOUBLE_FP_CONFIG HALF_FP_CONFIG GLOBAL_MEM_CACHE_SIZE "
            "GLOBAL_MEM_SIZE MAX_CONSTANT_BUFFER_SIZE LOCAL_MEM_SIZE EXECUTION_CAPABILITIES QUEUE_PROPERTIES "
            "QUEUE_ON_HOST_PROPERTIES QUEUE_ON_DEVICE_PROPERTIES SVM_CAPABILITIES ATOMIC_MEMORY_CAPABILITIES "
            "ATOMIC_FENCE_CAPABILITIES DEVICE_ENQUEUE_CAPABILITIES PARTITION_AFFINITY_DOMAIN".split(), _ULONG),
        **dict.fromkeys(
            "MAX_WORK_GROUP_SIZE MAX_PARAMETER_SIZE PROFILING_TIMER_RESOLUTION IMAGE2D_MAX_WIDTH "
            "IMAGE2D_MAX_HEIGHT IMAGE3D_MAX_WIDTH IMAGE3D_MAX_HEIGHT IMAGE3D_MAX_DEPTH IMAGE_MAX_BUFFER_SIZE "
            "IMAGE_MAX_ARRAY_SIZE PRINTF_BUFFER_SIZE MAX_GLOBAL_VARIABLE_SIZE "
            "GLOBAL_VARIABLE_PREFERRED_TOTAL_SIZE PREFERRED_WORK_GROUP_SIZE_MULTIPLE".split(), _SIZE),
        "PLATFORM": "handle:platform", "PARENT_DEVICE": "handle:device",
        "PARTITION_PROPERTIES": "long[]", "PARTITION_TYPE": "long[]",
    },
    "context_info": {"DEVICES": "handle[]:device", "PROPERTIES": "long[]"},
    "command_queue_info": {"CONTEXT": "handle:context", "DEVICE": "handle:device", "PROPERTIES": _ULONG,
                           "PROPERTIES_ARRAY": "ulong[]", "DEVICE_DEFAULT": "handle:queue"},
    "mem_info": {"FLAGS": _ULONG, "SIZE": _SIZE, "OFFSET": _SIZE, "HOST_PTR": "handle",
                 "CONTEXT": "handle:context", "ASSOCIATED_MEMOBJECT": "handle:mem",
                 "PROPERTIES": "ulong[]", "USES_SVM_POINTER": "bool"},
    "image_info": {**dict.fromkeys("ELEMENT_SIZE ROW_PITCH SLICE_PITCH WIDTH HEIGHT DEPTH ARRAY_SIZE".split(), _SIZE),
                   "BUFFER": "handle:mem", "FORMAT": "uint[]"},
    "sampler_info": {"CONTEXT": "handle:context", "PROPERTIES": "ulong[]"},
    "program_info": {"CONTEXT": "handle:context", "DEVICES": "handle[]:device", "BINARY_SIZES": "size[]",
                     "NUM_KERNELS": _SIZE, "SCOPE_GLOBAL_CTORS_PRESENT": "bool", "SCOPE_GLOBAL_DTORS_PRESENT": "bool"},
    "program_build_info": {"STATUS": "int", "GLOBAL_VARIABLE_TOTAL_SIZE": _SIZE},
    "kernel_info": {"CONTEXT": "handle:context", "PROGRAM": "handle:program"},
    "kernel_arg_info": {"TYPE_QUALIFIER": _ULONG},
    "kernel_work_group_info": {"WORK_GROUP_SIZE": _SIZE, "COMPILE_WORK_GROUP_SIZE": "size[]",
                               "PREFERRED_WORK_GROUP_SIZE_MULTIPLE": _SIZE, "GLOBAL_WORK_SIZE": "size[]",
                               "LOCAL_MEM_SIZE": _ULONG, "PRIVATE_MEM_SIZE": _ULONG},
    "event_info": {"COMMAND_QUEUE": "handle:queue", "CONTEXT": "handle:context", "COMMAND_EXECUTION_STATUS": "int"},
    "profiling_info": dict.fromkeys("QUEUED SUBMIT START END COMPLETE".split(), _ULONG),
}


def c_type(info_class: type, param_name: str, value) -> str:
    """The C type of `info_class`'s `param_name` answered with the Python `value`."""
    listed = C_TYPES.get(info_class.__name__, {}).get(param_name)
    if listed is not None:
        return listed
    if isinstance(value, str):
        return "string"
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, (list, tuple)):
        return "size[]"
    return "uint"
