"""Context entry points."""
from __future__ import annotations


from loomcl.errors import LogicError, status_code
from loomcl.runtime.constants import context_info
from loomcl.runtime.context import Context

from .answer import answer, answer_query
from .api_platform import checked_device_type, platform
from .callbacks import ContextNotify, add_destructor_callback, release_with_destructors
from .handles import registry
from .info import properties, property_words

CONTEXT_PLATFORM = 0x1084
CONTEXT_INTEROP_USER_SYNC = 0x1085


def _check_properties(address, routine: str) -> list[int]:
    seen = set()
    for name, value in properties(address):
        if name in seen:
            raise LogicError(routine, status_code.INVALID_PROPERTY, f"context property {name:#x} is given twice")
        seen.add(name)
        if name == CONTEXT_PLATFORM:
            registry.get(value, "platform", routine)
        elif name == CONTEXT_INTEROP_USER_SYNC:
            if value not in (0, 1):
                raise LogicError(routine, status_code.INVALID_PROPERTY,
                                 f"CL_CONTEXT_INTEROP_USER_SYNC is a cl_bool: {value} is neither CL_TRUE nor CL_FALSE")
        else:
            raise LogicError(routine, status_code.INVALID_PROPERTY, f"context property {name:#x} is not supported")
    return property_words(address)


def clCreateContext(props, num_devices, devices, notify, user_data):
    routine = "clCreateContext"
    words = _check_properties(props, routine)
    if not devices or not num_devices:
        raise LogicError(routine, status_code.INVALID_VALUE, "no devices given")
    if notify is None and user_data:
        raise LogicError(routine, status_code.INVALID_VALUE, "user_data given without pfn_notify")
    listed = registry.get_list(num_devices, devices, "device", routine)
    return _new_context(Context(devices=listed), words, notify, user_data)


def clCreateContextFromType(props, kind, notify, user_data):
    routine = "clCreateContextFromType"
    words = _check_properties(props, routine)
    if notify is None and user_data:
        raise LogicError(routine, status_code.INVALID_VALUE, "user_data given without pfn_notify")
    devices = platform().get_devices(checked_device_type(kind, routine))
    return _new_context(Context(devices=devices), words, notify, user_data)


def _new_context(context: Context, words: list[int], notify, user_data) -> int:
    context.properties = words
    context.icd_notify = ContextNotify(notify, user_data)
    context.icd_destructors = []
    return registry.new(context, "context")


def clRetainContext(handle):
    registry.retain(handle, "context", "clRetainContext")


def clReleaseContext(handle):
    release_with_destructors(handle, "context", "clReleaseContext")


def clGetContextInfo(handle, param, size, out, size_ret):
    routine = "clGetContextInfo"
    context = registry.get(handle, "context", routine)
    if param == context_info.PROPERTIES:
        return answer(context.properties, context_info, param, size, out, size_ret, routine)
    return answer_query(handle, context, context_info, param, size, out, size_ret, routine)


def clSetContextDestructorCallback(handle, notify, user_data):
    add_destructor_callback(handle, "context", "clSetContextDestructorCallback", notify, user_data)


