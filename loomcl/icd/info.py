"""The C API's info queries: a value's C bytes (loomcl/runtime/info_types.py) copied out by the
spec's rules, and the reading of C properties lists.

`param_value_size` bytes at `param_value` receive the value (INVALID_VALUE if they are fewer than it
needs; nothing is written then); `*param_value_size_ret`, when given, receives the size it needs.
"""
from __future__ import annotations

import ctypes

from loomcl.errors import LogicError, status_code


def write_info(data: bytes, size: int, out, size_ret, routine: str) -> int:
    if out:
        if size < len(data):
            raise LogicError(routine, status_code.INVALID_VALUE,
                             f"param_value_size is {size} bytes; the value needs {len(data)}")
        ctypes.memmove(out, data, len(data))
    if size_ret:
        ctypes.c_size_t.from_address(size_ret).value = len(data)
    return status_code.SUCCESS


def write_scalar(c_type, address, value) -> None:
    """Stores one value at a caller's out-pointer (e.g. `cl_uint *num_devices`) if it is not NULL."""
    if address:
        c_type.from_address(address).value = value


def c_string(address, routine: str, what: str) -> str:
    if not address:
        raise LogicError(routine, status_code.INVALID_VALUE, f"{what} is NULL")
    return ctypes.string_at(address).decode("utf-8", "replace")


def properties(address, value_type=ctypes.c_int64) -> list[tuple[int, int]]:
    """A zero-terminated (name, value) list such as cl_context_properties, as pairs."""
    pairs, step = [], ctypes.sizeof(value_type)
    while address:  # read word by word: the list's end is only known by its terminating 0
        name = value_type.from_address(address).value
        if not name:
            break
        pairs.append((int(name), int(value_type.from_address(address + step).value)))
        address += 2 * step
    return pairs


def property_words(address, value_type=ctypes.c_int64) -> list[int]:
    """A zero-terminated properties list as it was given (for the *_PROPERTIES queries)."""
    words = []
    for name, value in properties(address, value_type):
        words += [name, value]
    return words + [0] if address else []
