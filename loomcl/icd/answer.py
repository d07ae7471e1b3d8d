"""Answering a get-info call: the runtime object's value, encoded as the query's C type (the
runtime's one table of them, loomcl/runtime/info_types.py)."""
from __future__ import annotations

from loomcl.errors import LogicError, status_code
from loomcl.runtime.info_types import encode, info_type

from .handles import registry
from .info import write_info


def answer(value, info_class: type, param: int, size, out, size_ret, routine: str) -> int:
    """Writes `value` (the Python answer to `param`) by the C API's rules."""
    try:
        ctype = info_type(info_class, param)
    except (KeyError, ValueError):
        raise LogicError(routine, status_code.INVALID_VALUE,
                         f"{param:#x} is not a {info_class.__name__} value loomcl answers") from None
    data = encode(ctype, value, handle=lambda obj: registry.address_of(obj, handle_kind(obj)))
    return write_info(data, size, out, size_ret, routine)


def handle_kind(obj) -> str:
    """The handle kind (handles.INVALID's keys) of a runtime object an answer names."""
    from loomcl import runtime

    for kind, classes in (("platform", "Platform"), ("device", "Device"), ("context", "Context"),
                          ("queue", "CommandQueue"), ("mem", "Buffer Image"), ("program", "Program"),
                          ("kernel", "Kernel"), ("event", "Event"), ("sampler", "Sampler")):
        if isinstance(obj, tuple(getattr(runtime, name) for name in classes.split() if hasattr(runtime, name))):
            return kind
    raise TypeError(f"{obj!r} is not an object the C API has handles for")


def answer_query(handle, obj, info_class: type, param: int, size, out, size_ret, routine: str) -> int:
    """Answers from `obj.get_info(param)`; REFERENCE_COUNT is `handle`'s (the C API's) count."""
    name = info_class.to_string(param, "0x%x")
    if name == "REFERENCE_COUNT":
        value = registry.count(handle)
    else:
        value = obj.get_info(param)
    return answer(value, info_class, param, size, out, size_ret, routine)


def check_list_args(count: int, array, routine: str, what: str, code=status_code.INVALID_VALUE) -> None:
    if (count == 0) != (not array):
        raise LogicError(routine, code, f"{what}: count {count} does not match the array pointer")
