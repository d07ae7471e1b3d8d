"""A C caller's memory (a `void *` and a size) as a numpy byte array over it, without copying."""
from __future__ import annotations

import ctypes

import numpy as np

from loomcl.errors import LogicError, status_code


def host_array(address, size: int, routine: str, what: str = "ptr") -> np.ndarray:
    if not address:
        raise LogicError(routine, status_code.INVALID_VALUE, f"{what} is NULL")
    if size == 0:
        return np.zeros(0, dtype=np.uint8)
    return np.frombuffer((ctypes.c_uint8 * size).from_address(address), np.uint8)  # (as_array: 2x slower)


def size_triple(address, routine: str, what: str) -> tuple[int, int, int]:
    """A `const size_t[3]` argument (origin or region)."""
    if not address:
        raise LogicError(routine, status_code.INVALID_VALUE, f"{what} is NULL")
    return tuple((ctypes.c_size_t * 3).from_address(address))


_SIZE_AT = ctypes.c_size_t.from_address
_SIZE_ARRAYS = {count: ctypes.c_size_t * count for count in (2, 3)}


def sizes(address, count: int) -> tuple[int, ...] | None:
    """A `const size_t *` argument of `count` (1 to 3) values (work sizes), None when NULL."""
    if not address:
        return None
    if count == 1:  # the common case, without making an array type's object
        return (_SIZE_AT(address).value,)
    return tuple(_SIZE_ARRAYS[count].from_address(address))
