"""Answering a get-info call: the runtime object's value, encoded as the query's C type."""
from __future__ import annotations

from loomcl.errors import LogicError, status_code

from .handles import registry
from .info import encode, write_info
from .info_types import c_type


def answer(value, info_class: type, param: int, size, out, size_ret, routine: str) -> int:
    """Writes `value` (the Python answer to `param`) by the C API's rules."""
    name = info_class.to_string(param, "0x%x")
    kind = c_type(info_class, name, value)
    if kind.startswith("handle"):
        kind, _, handle_kind = kind.partition(":")
        if kind == "handle[]":
            value = [registry.address_of(item, handle_kind) for item in value]
        elif handle_kind and value is not None:
            value = registry.address_of(value, handle_kind)
    return write_info(encode(value, kind), size, out, size_ret, routine)


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
