"""The native calling convention between compiled work-group functions and the runtime.

A kernel is compiled once per local size into a *work-group range function* with the C signature

    void entry(const uint64_t *args, const struct launch *launch,
               int64_t group_begin, int64_t group_end, char *local_arena);

It runs the work-groups whose linear index within the launch *region* lies in
[group_begin, group_end). The local size is a compile-time constant of the function (pocl 4.1:
constant trip counts for the work-item loops), so the runtime splits an NDRange whose global size
is not a multiple of the local size into up to 2**work_dim regions of uniform local size (OpenCL 2.0
non-uniform work-groups) and launches each region with the function specialized for its size.

Group index decoding (x innermost):
    gx = g % region_groups[0]; gy = (g / region_groups[0]) % region_groups[1];
    gz = g / (region_groups[0] * region_groups[1]);
    group_id = region_origin + (gx, gy, gz)

Argument slots: one 64-bit slot per kernel parameter, in order:
  * global / constant pointer: the buffer's address (0 for a null pointer argument);
  * local pointer: the byte offset of the argument's storage within local_arena (the runtime lays
    local arguments out after the kernel's static __local variables, each aligned to LOCAL_ALIGN);
  * scalar of at most 8 bytes: its bits, zero-extended (a float is its 32-bit pattern);
  * anything larger (vectors, structs): the address of a host copy of the value.

Checked mode (`-loomcl-check`) appends to the argument block, after the n parameter slots: n extent
slots (the bytes a pointer argument may reach: a buffer's or sub-buffer's size, 0 for None, a
LocalMemory's size; 0 for other kinds), then the address of the launch's `CheckRecord`. Native code
sets the record's status with a compare-and-swap when a check fails, fills in the rest, and stops:
the body leaves its work-group, the entry wrapper takes no further group once the status is set.

local_arena is owned by one worker thread and reused across the groups it runs; it holds at least
static_local_bytes + the local arguments, and is LOCAL_ALIGN-aligned. The first static_local_bytes
hold the kernel's __local variables and then its large private storage (context arrays bigger than
PRIVATE_ARENA_THRESHOLD, `private_bytes` of them): per work-group, they would overflow a thread's stack.
"""
from __future__ import annotations

import ctypes
import enum
from dataclasses import dataclass

import numpy as np

LOCAL_ALIGN = 128
STREAM_ALIGN = 64  # streaming parameters, the dimension-0 offset and local size: multiples of it (codegen/streaming_stores.py)
PRIVATE_ARENA_THRESHOLD = 4096  # private allocations at least this big live in the arena, not on the stack
MAX_DIMS = 3


class LaunchInfo(ctypes.Structure):
    """`struct launch`: everything about an NDRange that is not a compile-time constant."""

    _fields_ = [
        ("work_dim", ctypes.c_int64),
        ("global_size", ctypes.c_int64 * 3),
        ("global_offset", ctypes.c_int64 * 3),
        ("enqueued_local_size", ctypes.c_int64 * 3),
        ("num_groups", ctypes.c_int64 * 3),
        ("region_origin", ctypes.c_int64 * 3),
        ("region_groups", ctypes.c_int64 * 3),
        ("printf_buffer", ctypes.c_uint64),  # the launch's printf buffer (printf/record.py), or 0
    ]


class CheckRecord(ctypes.Structure):
    """The first violation a checked launch found (status 0: none). `a` and `b` are, for an access
    check, the byte offset from the object's start and the object's extent; for a barrier check, the
    barrier ids of the offending work-item and of the group's first one."""

    _fields_ = [
        ("status", ctypes.c_int64),
        ("site", ctypes.c_int64),
        ("a", ctypes.c_int64),
        ("b", ctypes.c_int64),
        ("group_x", ctypes.c_int64), ("group_y", ctypes.c_int64), ("group_z", ctypes.c_int64),
        ("local_x", ctypes.c_int64), ("local_y", ctypes.c_int64), ("local_z", ctypes.c_int64),
    ]


CHECK_RECORD_FIELDS = tuple(name for name, _ in CheckRecord._fields_)


# Field order of `struct launch` as the code generator indexes it (all fields are i64 or [3 x i64]).
LAUNCH_FIELDS = tuple(name for name, _ in LaunchInfo._fields_)
LAUNCH_SCALAR_FIELDS = ("work_dim", "printf_buffer")  # the i64 ones

ENTRY_CTYPE = ctypes.CFUNCTYPE(
    None,
    ctypes.c_void_p,  # const uint64_t *args
    ctypes.c_void_p,  # const struct launch *launch
    ctypes.c_int64,  # group_begin
    ctypes.c_int64,  # group_end
    ctypes.c_void_p,  # char *local_arena
)


class ParamKind(enum.Enum):
    GLOBAL_POINTER = "global"
    CONSTANT_POINTER = "constant"
    LOCAL_POINTER = "local"
    SCALAR = "scalar"
    BY_VALUE = "by_value"  # vectors and structs passed by value (address of a host copy)
    IMAGE = "image"  # the address of the image's ImageDescriptor (abi/image.py)
    SAMPLER = "sampler"  # the sampler's bits (abi/image.py), zero-extended


@dataclass(frozen=True)
class KernelParam:
    """One kernel parameter as the runtime needs to see it."""

    name: str
    kind: ParamKind
    type_name: str  # OpenCL spelling, for messages: "__global float *", "uint"
    dtype: np.dtype | None  # scalar: its numpy dtype; pointer: the pointee's dtype when scalar
    size: int  # bytes of the value for SCALAR / BY_VALUE, 8 for pointers
    info_type_name: str = ""  # CL_KERNEL_ARG_TYPE_NAME: unqualified, "float*", "uint4"
    type_qualifiers: frozenset[str] = frozenset()  # CL_KERNEL_ARG_TYPE_QUALIFIER: const, restrict, volatile


@dataclass(frozen=True)
class KernelSignature:
    name: str
    params: tuple[KernelParam, ...]
    reqd_work_group_size: tuple[int, int, int] | None = None
    uses_printf: bool = False  # launches need a printf buffer (printf/record.py)


@dataclass(frozen=True)
class WorkGroupFunction:
    """A compiled work-group range function for one local size."""

    address: int  # native address of `entry`
    local_size: tuple[int, int, int]
    static_local_bytes: int  # bytes at the start of the arena: __local variables, then large private storage
    private_bytes: int = 0  # the part of static_local_bytes that is private storage, not __local memory
    check_sites: tuple = ()  # checked mode: ir.check_sites entries, indexed by CheckRecord.site
    code_key: str = ""  # the object cache's key of its code (cache.py): equal keys, equal code
    group_tile: int | None = None  # group index -> group id in tiles of this many groups; None: row order
