"""Memory object entry points: buffers, sub-buffers, their info, destructor callbacks, migration.
Shared virtual memory and pipes are optional in OpenCL 3.0 and loomcl reports neither."""
from __future__ import annotations

import ctypes

from loomcl.errors import LogicError, status_code
from loomcl.runtime.buffer import Buffer
from loomcl.runtime.constants import mem_flags, mem_info

from .answer import answer, answer_query
from .callbacks import add_destructor_callback, release_with_destructors
from .handles import registry
from .host_memory import host_array
from .info import properties, property_words

BUFFER_CREATE_TYPE_REGION = 0x1220
MEM_PROPERTIES = 0x110A
_HOST_PTR_FLAGS = mem_flags.USE_HOST_PTR | mem_flags.COPY_HOST_PTR
_MIGRATE_FLAGS = 0x1 | 0x2  # CL_MIGRATE_MEM_OBJECT_HOST, CL_MIGRATE_MEM_OBJECT_CONTENT_UNDEFINED


def new_buffer(context_handle, flags, size, host_ptr, routine: str, words=()) -> int:
    context = registry.get(context_handle, "context", routine)
    if bool(host_ptr) != bool(flags & _HOST_PTR_FLAGS):
        raise LogicError(routine, status_code.INVALID_HOST_PTR,
                         "host_ptr must be given exactly when USE_HOST_PTR or COPY_HOST_PTR is")
    if size == 0:
        raise LogicError(routine, status_code.INVALID_BUFFER_SIZE, "size is 0")
    hostbuf = host_array(host_ptr, size, routine, "host_ptr") if host_ptr else None
    buffer = Buffer(context, flags, size, hostbuf)
    buffer.icd_properties = list(words)
    buffer.icd_destructors = []
    return registry.new(buffer, "mem")


def clCreateBuffer(context, flags, size, host_ptr):
    return new_buffer(context, flags, size, host_ptr, "clCreateBuffer")


def clCreateBufferWithProperties(context, props, flags, size, host_ptr):
    routine = "clCreateBufferWithProperties"
    if properties(props, ctypes.c_uint64):
        raise LogicError(routine, status_code.INVALID_PROPERTY, "no buffer properties are supported")
    return new_buffer(context, flags, size, host_ptr, routine, property_words(props, ctypes.c_uint64))


def clCreateSubBuffer(handle, flags, create_type, info):
    routine = "clCreateSubBuffer"
    buffer = registry.get(handle, "mem", routine)
    if not isinstance(buffer, Buffer) or buffer.associated_memobject is not None:
        raise LogicError(routine, status_code.INVALID_MEM_OBJECT, "sub-buffers are made from buffers only")
    if create_type != BUFFER_CREATE_TYPE_REGION or not info:
        raise LogicError(routine, status_code.INVALID_VALUE, "buffer_create_type must be REGION with a region")
    origin, size = (ctypes.c_size_t * 2).from_address(info)
    if size == 0:
        raise LogicError(routine, status_code.INVALID_BUFFER_SIZE, "the region's size is 0")
    align = buffer.context.devices[0].mem_base_addr_align // 8
    if origin % align:
        raise LogicError(routine, status_code.MISALIGNED_SUB_BUFFER_OFFSET,
                         f"origin {origin} is not a multiple of the device's {align}-byte base alignment")
    sub = buffer.get_sub_region(origin, size, flags)
    sub.icd_properties, sub.icd_destructors = [], []
    return registry.new(sub, "mem")


def clRetainMemObject(handle):
    registry.retain(handle, "mem", "clRetainMemObject")


def clReleaseMemObject(handle):
    """The memory itself goes when nothing uses it any more (a pending command may)."""
    release_with_destructors(handle, "mem", "clReleaseMemObject")


def clGetMemObjectInfo(handle, param, size, out, size_ret):
    routine = "clGetMemObjectInfo"
    memory = registry.get(handle, "mem", routine)
    if param == MEM_PROPERTIES:
        return answer(memory.icd_properties, mem_info, param, size, out, size_ret, routine)
    if param == 0x1109:  # CL_MEM_USES_SVM_POINTER
        return answer(False, mem_info, param, size, out, size_ret, routine)
    return answer_query(handle, memory, mem_info, param, size, out, size_ret, routine)


def clSetMemObjectDestructorCallback(handle, notify, user_data):
    add_destructor_callback(handle, "mem", "clSetMemObjectDestructorCallback", notify, user_data)


def clEnqueueMigrateMemObjects(queue, count, objects, flags, num_events, wait_list, event):
    """Memory is the host's: migration has nothing to move, but orders like a marker."""
    from .api_event import enqueue_marker, queue_of

    routine = "clEnqueueMigrateMemObjects"
    context = queue_of(queue, routine).context
    if count == 0 or not objects:
        raise LogicError(routine, status_code.INVALID_VALUE, "no memory objects given")
    if any(mem.context is not context for mem in registry.get_list(count, objects, "mem", routine)):
        raise LogicError(routine, status_code.INVALID_CONTEXT,
                         "a memory object belongs to another context than the command queue")
    if flags & ~_MIGRATE_FLAGS:
        raise LogicError(routine, status_code.INVALID_VALUE, f"{flags:#x} is not a valid cl_mem_migration_flags")
    return enqueue_marker(queue, num_events, wait_list, event, routine)



