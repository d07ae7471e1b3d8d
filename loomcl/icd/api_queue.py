"""Command queue entry points."""
from __future__ import annotations

import ctypes

from loomcl.errors import LogicError, status_code
from loomcl.runtime.command_queue import CommandQueue
from loomcl.runtime.constants import command_queue_info, command_queue_properties

from .answer import answer, answer_query
from .handles import invalid, registry
from .info import properties, property_words

QUEUE_PROPERTIES = 0x1093
QUEUE_SIZE = 0x1094
PROPERTIES_ARRAY = 0x1098
_queues = registry.live["queue"]
_ON_DEVICE = command_queue_properties.ON_DEVICE | command_queue_properties.ON_DEVICE_DEFAULT
_VALID_BITS = (command_queue_properties.OUT_OF_ORDER_EXEC_MODE_ENABLE | command_queue_properties.PROFILING_ENABLE
               | _ON_DEVICE)


def _new_queue(context_handle, device_handle, bits: int, words: list[int], routine: str) -> int:
    context = registry.get(context_handle, "context", routine)
    device = registry.get(device_handle, "device", routine)
    if bits & ~_VALID_BITS:
        raise LogicError(routine, status_code.INVALID_VALUE, f"{bits:#x} is not a valid cl_command_queue_properties")
    if bits & _ON_DEVICE:
        raise LogicError(routine, status_code.INVALID_QUEUE_PROPERTIES,
                         "device-side queues are not supported (DEVICE_ENQUEUE_CAPABILITIES is 0)")
    queue = CommandQueue(context, device, bits)
    queue.icd_properties = words
    return registry.new(queue, "queue")


def clCreateCommandQueue(context, device, bits):
    return _new_queue(context, device, bits, [], "clCreateCommandQueue")


def clCreateCommandQueueWithProperties(context, device, props):
    routine = "clCreateCommandQueueWithProperties"
    bits = 0
    for name, value in properties(props, ctypes.c_uint64):
        if name == QUEUE_PROPERTIES:
            bits = value
        elif name == QUEUE_SIZE:
            raise LogicError(routine, status_code.INVALID_VALUE, "CL_QUEUE_SIZE applies only to device queues")
        else:
            raise LogicError(routine, status_code.INVALID_VALUE, f"queue property {name:#x} is not supported")
    return _new_queue(context, device, bits, property_words(props, ctypes.c_uint64), routine)


def clRetainCommandQueue(handle):
    registry.retain(handle, "queue", "clRetainCommandQueue")


def clReleaseCommandQueue(handle):
    queue = registry.get(handle, "queue", "clReleaseCommandQueue")
    queue.flush()  # the spec: releasing a queue flushes it
    registry.release(handle, "queue", "clReleaseCommandQueue")


def clGetCommandQueueInfo(handle, param, size, out, size_ret):
    routine = "clGetCommandQueueInfo"
    queue = registry.get(handle, "queue", routine)
    if param == PROPERTIES_ARRAY:
        return answer(queue.icd_properties, command_queue_info, param, size, out, size_ret, routine)
    if param == QUEUE_SIZE:  # API spec 5.2.3: only a device queue has a size; loomcl has no device queues
        raise LogicError(routine, status_code.INVALID_COMMAND_QUEUE, "CL_QUEUE_SIZE is a device queue's; this is a host queue")
    return answer_query(handle, queue, command_queue_info, param, size, out, size_ret, routine)






def clFlush(handle):
    registry.get(handle, "queue", "clFlush").flush()


def clFinish(handle):
    queue = _queues.get(handle)
    if queue is None:
        raise invalid(handle, "queue", "clFinish")
    queue.finish()
