"""The C type of every info query's answer, for both of loomcl's faces.

The Python API answers `get_info(param)` with Python values as pyopencl does (str, int, list,
handles as objects; a cl_bool is an int 0/1, as pyopencl gives it). The ICD's C functions
(loomcl/icd/) turn those same values into the bytes clGet*Info writes, and this table says how:
`INFO_TYPES[info class name][param name]` is the `CType` of the answer (OpenCL 3.0 API spec, the
tables of sections 4.1, 4.2, 4.4, 5.1, 5.4-5.11, and cl.h's typedefs). Keyed by names, so the table
also covers params whose enumeration another module defines (image, sampler, pipe infos);
`info_type(info_class, param)` looks an int param up.

Encodings (`CType.code` is the `struct` format of one element, native sizes):
- scalars: cl_uint, cl_int, cl_ulong, size_t, cl_bool (a cl_uint), cl_bitfield (a cl_ulong; every
  cl_*_flags, cl_*_capabilities, cl_device_type, cl_device_fp_config) and cl_version (a cl_uint);
  enum-valued types (cl_mem_object_type, cl_build_status, ...) are cl_uint or cl_int as cl.h has them.
- STRING: NUL-terminated char[] of a Python str; BYTES: unsigned char[] of a Python bytes.
- SIZE_ARRAY: size_t[] of a Python list of ints (MAX_WORK_ITEM_SIZES, BINARY_SIZES, ...).
- NAME_VERSIONS: cl_name_version[] (cl_version + char[64]) of a list of versions.NameVersion.
- HANDLE / HANDLES: one cl_* object (NULL for None) / an array of them, of Python objects.
- PROPERTIES: a zero-terminated list of 64-bit properties (cl_context_properties, cl_queue_properties,
  cl_mem_properties, cl_sampler_properties, cl_pipe_properties) of a Python list of (name, value)
  pairs, as tuples (pyopencl) or flat, with or without the terminating 0 (the C API keeps the list
  as given: an odd number of words ends with it); an empty list is answered with size 0 (spec: no
  properties were given). Objects among the values (a context's platform) become handles.
- PARTITION_PROPERTIES: cl_device_partition_property[] (64-bit) of a list of ints; an empty list is
  answered as a single 0, as the spec asks of a device that cannot be partitioned.
- POINTER: void* of an int address (0 for NULL); BINARIES: unsigned char*[] (the caller's buffers,
  filled with the bytes of a list of bytes); IMAGE_FORMAT: cl_image_format (two cl_uint).

`encode(ctype, value, handle)` gives the bytes clGet*Info writes for every type but BINARIES.
"""
from __future__ import annotations

import enum
import struct


class CType(enum.Enum):
    UINT = ("cl_uint", "I")
    INT = ("cl_int", "i")
    ULONG = ("cl_ulong", "Q")
    SIZE = ("size_t", "N")
    BOOL = ("cl_bool", "I")
    BITFIELD = ("cl_bitfield", "Q")
    VERSION = ("cl_version", "I")
    STRING = ("char[]", "s")
    BYTES = ("unsigned char[]", "s")
    SIZE_ARRAY = ("size_t[]", "N")
    NAME_VERSIONS = ("cl_name_version[]", "I64s")
    HANDLE = ("cl_* handle", "P")
    HANDLES = ("cl_* handle[]", "P")
    PROPERTIES = ("properties[] (zero-terminated)", "q")
    PARTITION_PROPERTIES = ("cl_device_partition_property[]", "q")
    POINTER = ("void *", "P")
    BINARIES = ("unsigned char *[]", "P")
    IMAGE_FORMAT = ("cl_image_format", "II")

    @property
    def c_name(self) -> str:
        return self.value[0]

    @property
    def code(self) -> str:
        return self.value[1]

    @property
    def is_scalar(self) -> bool:
        return self in _SCALARS


_SCALARS = {CType.UINT, CType.INT, CType.ULONG, CType.SIZE, CType.BOOL, CType.BITFIELD, CType.VERSION}
for _member in CType:  # a plain attribute: the enum's properties cost ~0.5 µs on every info query
    _member.scalar_format = "@" + _member.code if _member in _SCALARS else None

U, I, UL, SZ, B, BF, V = CType.UINT, CType.INT, CType.ULONG, CType.SIZE, CType.BOOL, CType.BITFIELD, CType.VERSION
S, H, HS, P = CType.STRING, CType.HANDLE, CType.HANDLES, CType.PROPERTIES
NV, SZA = CType.NAME_VERSIONS, CType.SIZE_ARRAY


def _vector_widths() -> dict[str, CType]:
    return {f"{kind}_VECTOR_WIDTH_{t}": U for kind in ("PREFERRED", "NATIVE")
            for t in ("CHAR", "SHORT", "INT", "LONG", "FLOAT", "DOUBLE", "HALF")}


INFO_TYPES: dict[str, dict[str, CType]] = {
    "platform_info": {
        "PROFILE": S, "VERSION": S, "NAME": S, "VENDOR": S, "EXTENSIONS": S,
        "HOST_TIMER_RESOLUTION": UL, "NUMERIC_VERSION": V, "EXTENSIONS_WITH_VERSION": NV,
        "ICD_SUFFIX_KHR": S,
    },
    "device_info": {
        "TYPE": BF, "VENDOR_ID": U, "MAX_COMPUTE_UNITS": U, "MAX_WORK_ITEM_DIMENSIONS": U,
        "MAX_WORK_GROUP_SIZE": SZ, "MAX_WORK_ITEM_SIZES": SZA, **_vector_widths(),
        "MAX_CLOCK_FREQUENCY": U, "ADDRESS_BITS": U, "MAX_READ_IMAGE_ARGS": U,
        "MAX_WRITE_IMAGE_ARGS": U, "MAX_READ_WRITE_IMAGE_ARGS": U, "MAX_MEM_ALLOC_SIZE": UL,
        "IMAGE2D_MAX_WIDTH": SZ, "IMAGE2D_MAX_HEIGHT": SZ, "IMAGE3D_MAX_WIDTH": SZ,
        "IMAGE3D_MAX_HEIGHT": SZ, "IMAGE3D_MAX_DEPTH": SZ, "IMAGE_MAX_BUFFER_SIZE": SZ,
        "IMAGE_MAX_ARRAY_SIZE": SZ, "IMAGE_SUPPORT": B, "IMAGE_PITCH_ALIGNMENT": U,
        "IMAGE_BASE_ADDRESS_ALIGNMENT": U, "MAX_SAMPLERS": U, "MAX_PARAMETER_SIZE": SZ,
        "MEM_BASE_ADDR_ALIGN": U, "MIN_DATA_TYPE_ALIGN_SIZE": U, "SINGLE_FP_CONFIG": BF,
        "DOUBLE_FP_CONFIG": BF, "HALF_FP_CONFIG": BF, "GLOBAL_MEM_CACHE_TYPE": U,
        "GLOBAL_MEM_CACHELINE_SIZE": U, "GLOBAL_MEM_CACHE_SIZE": UL, "GLOBAL_MEM_SIZE": UL,
        "MAX_CONSTANT_BUFFER_SIZE": UL, "MAX_CONSTANT_ARGS": U, "MAX_GLOBAL_VARIABLE_SIZE": SZ,
        "GLOBAL_VARIABLE_PREFERRED_TOTAL_SIZE": SZ, "LOCAL_MEM_TYPE": U, "LOCAL_MEM_SIZE": UL,
        "ERROR_CORRECTION_SUPPORT": B, "HOST_UNIFIED_MEMORY": B, "PROFILING_TIMER_RESOLUTION": SZ,
        "ENDIAN_LITTLE": B, "AVAILABLE": B, "COMPILER_AVAILABLE": B, "LINKER_AVAILABLE": B,
        "EXECUTION_CAPABILITIES": BF, "QUEUE_PROPERTIES": BF, "QUEUE_ON_HOST_PROPERTIES": BF,
        "QUEUE_ON_DEVICE_PROPERTIES": BF, "QUEUE_ON_DEVICE_PREFERRED_SIZE": U,
        "QUEUE_ON_DEVICE_MAX_SIZE": U, "MAX_ON_DEVICE_QUEUES": U, "MAX_ON_DEVICE_EVENTS": U,
        "BUILT_IN_KERNELS": S, "BUILT_IN_KERNELS_WITH_VERSION": NV, "PLATFORM": H, "NAME": S,
        "VENDOR": S, "DRIVER_VERSION": S, "PROFILE": S, "VERSION": S, "NUMERIC_VERSION": V,
        "OPENCL_C_VERSION": S, "OPENCL_C_ALL_VERSIONS": NV, "OPENCL_C_FEATURES": NV,
        "EXTENSIONS": S, "EXTENSIONS_WITH_VERSION": NV, "PRINTF_BUFFER_SIZE": SZ,
        "PREFERRED_INTEROP_USER_SYNC": B, "PARENT_DEVICE": H, "PARTITION_MAX_SUB_DEVICES": U,
        "PARTITION_PROPERTIES": CType.PARTITION_PROPERTIES, "PARTITION_AFFINITY_DOMAIN": BF,
        "PARTITION_TYPE": CType.PARTITION_PROPERTIES, "REFERENCE_COUNT": U, "SVM_CAPABILITIES": BF,
        "PREFERRED_PLATFORM_ATOMIC_ALIGNMENT": U, "PREFERRED_GLOBAL_ATOMIC_ALIGNMENT": U,
        "PREFERRED_LOCAL_ATOMIC_ALIGNMENT": U, "MAX_NUM_SUB_GROUPS": U,
        "SUB_GROUP_INDEPENDENT_FORWARD_PROGRESS": B, "ATOMIC_MEMORY_CAPABILITIES": BF,
        "ATOMIC_FENCE_CAPABILITIES": BF, "NON_UNIFORM_WORK_GROUP_SUPPORT": B,
        "WORK_GROUP_COLLECTIVE_FUNCTIONS_SUPPORT": B, "GENERIC_ADDRESS_SPACE_SUPPORT": B,
        "DEVICE_ENQUEUE_CAPABILITIES": BF, "PIPE_SUPPORT": B, "MAX_PIPE_ARGS": U,
        "PIPE_MAX_ACTIVE_RESERVATIONS": U, "PIPE_MAX_PACKET_SIZE": U,
        "PREFERRED_WORK_GROUP_SIZE_MULTIPLE": SZ, "IL_VERSION": S, "ILS_WITH_VERSION": NV,
        "LATEST_CONFORMANCE_VERSION_PASSED": S,
    },
    "context_info": {
        "REFERENCE_COUNT": U, "NUM_DEVICES": U, "DEVICES": HS, "PROPERTIES": P, "INTEROP_USER_SYNC": B,
    },
    "command_queue_info": {
        "CONTEXT": H, "DEVICE": H, "REFERENCE_COUNT": U, "PROPERTIES": BF, "PROPERTIES_ARRAY": P,
        "SIZE": U, "DEVICE_DEFAULT": H,
    },
    "mem_info": {
        "TYPE": U, "FLAGS": BF, "SIZE": SZ, "HOST_PTR": CType.POINTER, "MAP_COUNT": U,
        "REFERENCE_COUNT": U, "CONTEXT": H, "ASSOCIATED_MEMOBJECT": H, "OFFSET": SZ,
        "USES_SVM_POINTER": B, "PROPERTIES": P,
    },
    "image_info": {
        "FORMAT": CType.IMAGE_FORMAT, "ELEMENT_SIZE": SZ, "ROW_PITCH": SZ, "SLICE_PITCH": SZ,
        "WIDTH": SZ, "HEIGHT": SZ, "DEPTH": SZ, "ARRAY_SIZE": SZ, "BUFFER": H, "NUM_MIP_LEVELS": U,
        "NUM_SAMPLES": U,
    },
    "pipe_info": {"PACKET_SIZE": U, "MAX_PACKETS": U, "PROPERTIES": P},
    "sampler_info": {
        "REFERENCE_COUNT": U, "CONTEXT": H, "NORMALIZED_COORDS": B, "ADDRESSING_MODE": U,
        "FILTER_MODE": U, "PROPERTIES": P,
    },
    "program_info": {
        "REFERENCE_COUNT": U, "CONTEXT": H, "NUM_DEVICES": U, "DEVICES": HS, "SOURCE": S,
        "IL": CType.BYTES, "BINARY_SIZES": SZA, "BINARIES": CType.BINARIES, "NUM_KERNELS": SZ,
        "KERNEL_NAMES": S, "SCOPE_GLOBAL_CTORS_PRESENT": B, "SCOPE_GLOBAL_DTORS_PRESENT": B,
    },
    "program_build_info": {
        "STATUS": I, "OPTIONS": S, "LOG": S, "BINARY_TYPE": U, "GLOBAL_VARIABLE_TOTAL_SIZE": SZ,
    },
    "kernel_info": {
        "FUNCTION_NAME": S, "NUM_ARGS": U, "REFERENCE_COUNT": U, "CONTEXT": H, "PROGRAM": H,
        "ATTRIBUTES": S,
    },
    "kernel_arg_info": {
        "ADDRESS_QUALIFIER": U, "ACCESS_QUALIFIER": U, "TYPE_NAME": S, "TYPE_QUALIFIER": BF, "NAME": S,
    },
    "kernel_work_group_info": {
        "GLOBAL_WORK_SIZE": SZA, "WORK_GROUP_SIZE": SZ, "COMPILE_WORK_GROUP_SIZE": SZA,
        "LOCAL_MEM_SIZE": UL, "PREFERRED_WORK_GROUP_SIZE_MULTIPLE": SZ, "PRIVATE_MEM_SIZE": UL,
    },
    "kernel_sub_group_info": {
        "MAX_SUB_GROUP_SIZE_FOR_NDRANGE": SZ, "SUB_GROUP_COUNT_FOR_NDRANGE": SZ,
        "LOCAL_SIZE_FOR_SUB_GROUP_COUNT": SZA, "MAX_NUM_SUB_GROUPS": SZ, "COMPILE_NUM_SUB_GROUPS": SZ,
    },
    "event_info": {
        "COMMAND_QUEUE": H, "CONTEXT": H, "COMMAND_TYPE": U, "COMMAND_EXECUTION_STATUS": I,
        "REFERENCE_COUNT": U,
    },
    "profiling_info": {"QUEUED": UL, "SUBMIT": UL, "START": UL, "END": UL, "COMPLETE": UL},
}


def info_type(info_class: type, param: int) -> CType:
    """The C type of `info_class`'s answer to `param` (an int of that enumeration); KeyError for a
    param the table does not know, ValueError for one that is not in the enumeration."""
    return INFO_TYPES[info_class.__name__][info_class.to_string(param)]


NAME_SIZE = 64  # CL_NAME_VERSION_MAX_NAME_SIZE


def encode(ctype: CType, value, handle=lambda obj: obj.int_ptr) -> bytes:
    """The bytes of `value` (a Python answer of type `ctype`) as clGet*Info writes them, in native
    byte order and sizes; `handle(obj)` is the C handle of a runtime object. BINARIES are not one
    buffer (the caller gives one per device): TypeError."""
    scalar = ctype.scalar_format
    if scalar is not None:
        return struct.pack(scalar, int(value))
    if ctype is CType.STRING:
        return value.encode() + b"\0"
    if ctype is CType.BYTES:
        return bytes(value)
    if ctype is CType.SIZE_ARRAY:
        return struct.pack(f"@{len(value)}N", *value)
    if ctype is CType.NAME_VERSIONS:
        return b"".join(struct.pack("@I64s", nv.version, nv.name.encode()[:NAME_SIZE - 1]) for nv in value)
    if ctype in (CType.HANDLE, CType.HANDLES):
        objects = value if ctype is CType.HANDLES else [value]
        return struct.pack(f"@{len(objects)}P", *(0 if obj is None else handle(obj) for obj in objects))
    if ctype in (CType.PROPERTIES, CType.PARTITION_PROPERTIES):
        words = [word if isinstance(word, int) else handle(word) for word in _flat(value)]
        if ctype is CType.PARTITION_PROPERTIES and not words:
            words = [0]  # a device that cannot be partitioned
        elif ctype is CType.PROPERTIES and len(words) % 2 == 0 and words:
            words.append(0)  # pairs without their terminator
        return struct.pack(f"@{len(words)}q", *words)
    if ctype is CType.POINTER:
        return struct.pack("@P", value or 0)
    if ctype is CType.IMAGE_FORMAT:
        return struct.pack("@II", value.channel_order, value.channel_data_type)
    raise TypeError(f"{ctype.c_name} is written into the caller's buffers, one per device")


def _flat(properties) -> list:
    """A properties list as words: pyopencl gives (name, value) pairs, C a flat list."""
    words = []
    for item in properties:
        words.extend(item if isinstance(item, (tuple, list)) else (item,))
    return words
