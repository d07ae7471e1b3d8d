"""clSetKernelArg's side of the C API: the caller's (arg_size, arg_value) turned into the value the
runtime's Kernel.set_arg takes, by a reader chosen for each parameter when the kernel object is made.

pyopencl sets every argument before every launch, so this is on the launch path of every
pyopencl.array operation: a number is read from the caller's bytes straight into a Python int or
float (the runtime's setters take those without conversion), a handle is looked up in its kind's
table, and the checks of the C API (INVALID_ARG_SIZE, INVALID_ARG_VALUE, a __local size with a NULL
value, a NULL cl_mem for a global pointer) are made in the order the spec lists them.
"""
from __future__ import annotations

import ctypes

import numpy as np

from loomcl.abi.kernel import KernelParam, ParamKind
from loomcl.errors import LogicError, status_code
from loomcl.runtime.constants import kernel_arg_access_qualifier, mem_flags
from loomcl.runtime.kernel import access_qualifier
from loomcl.runtime.local_memory import LocalMemory

from .handles import invalid, registry

ROUTINE = "clSetKernelArg"
_POINTER = ctypes.sizeof(ctypes.c_void_p)
_pointer_at = ctypes.c_void_p.from_address
_HANDLE_KINDS = {ParamKind.GLOBAL_POINTER: "mem", ParamKind.CONSTANT_POINTER: "mem", ParamKind.IMAGE: "mem",
                 ParamKind.SAMPLER: "sampler"}
# the ctypes type that reads a scalar parameter's bytes as a Python int or float
_SCALARS = {np.dtype(np.int8): ctypes.c_int8, np.dtype(np.uint8): ctypes.c_uint8,
            np.dtype(np.int16): ctypes.c_int16, np.dtype(np.uint16): ctypes.c_uint16,
            np.dtype(np.int32): ctypes.c_int32, np.dtype(np.uint32): ctypes.c_uint32,
            np.dtype(np.int64): ctypes.c_int64, np.dtype(np.uint64): ctypes.c_uint64,
            np.dtype(np.bool_): ctypes.c_uint8,
            np.dtype(np.float32): ctypes.c_float, np.dtype(np.float64): ctypes.c_double}


# what clSetKernelArg answers the native library (not the caller, who gets CL_SUCCESS) when the
# argument set is a live handle (native/loomcl_icd.c remembers set arguments and must check those);
# None (CL_SUCCESS) until a native library that understands it connects (entry.connect)
HANDLE_SET = 1
handle_set: int | None = None


def answer_handle_set() -> None:
    global handle_set
    handle_set = HANDLE_SET


def handle_indices(kernel) -> frozenset[int]:
    """The indices of `kernel`'s parameters that take a handle (memory object or sampler)."""
    return frozenset(index for index, param in enumerate(kernel.signature.params) if param.kind in _HANDLE_KINDS)


def argument_readers(kernel) -> list:
    """One reader per parameter of `kernel`: reader(size, value) -> what kernel.set_arg takes."""
    return [_reader(kernel, index, param) for index, param in enumerate(kernel.signature.params)]


def _reader(kernel, index: int, param: KernelParam):
    described = f"argument {index} ({param.type_name} {param.name}) of kernel '{kernel.function_name}'"
    kind = _HANDLE_KINDS.get(param.kind)
    if param.kind is ParamKind.IMAGE:
        return _image_reader(_handle_reader(kind, described), access_qualifier(param), described)
    if kind is not None:
        return _handle_reader(kind, described)
    if param.kind is ParamKind.LOCAL_POINTER:
        return _local_reader(described)
    dtype = param.dtype if param.kind is ParamKind.SCALAR and param.dtype is not None else None
    expected = dtype.itemsize if dtype is not None else param.size
    scalar = _SCALARS.get(dtype) if dtype is not None else None
    raw = f"V{expected}"

    def read_value(size, value):
        if not value:
            raise LogicError(ROUTINE, status_code.INVALID_ARG_VALUE, f"{described} needs a value (arg_value is NULL)")
        if size != expected:
            raise LogicError(ROUTINE, status_code.INVALID_ARG_SIZE, f"{described} is {expected} bytes; arg_size is {size}")
        if scalar is not None:
            return scalar.from_address(value).value
        data = ctypes.string_at(value, size)
        return np.frombuffer(data, dtype=dtype if dtype is not None else raw)[0]
    return read_value


def _handle_reader(kind: str, described: str):
    table = registry.live[kind]

    def read_handle(size, value):
        if size != _POINTER:
            raise LogicError(ROUTINE, status_code.INVALID_ARG_SIZE, f"{described} is a handle: arg_size must be {_POINTER}")
        target = _pointer_at(value).value if value else None
        if target is None:
            if kind == "mem":
                return None  # a NULL buffer: the kernel sees a NULL pointer
            raise invalid(None, kind, ROUTINE)  # e.g. INVALID_SAMPLER for a sampler_t (API spec 5.9.2)
        found = table.get(target)
        if found is None:
            raise invalid(target, kind, ROUTINE)
        return found
    return read_handle


# an image argument's access qualifier, and the memory flag that contradicts it (API spec 5.9.2:
# INVALID_ARG_VALUE for a WRITE_ONLY image given to read_only, a READ_ONLY one given to write_only)
_CONTRADICTING = {kernel_arg_access_qualifier.READ_ONLY: (mem_flags.WRITE_ONLY, "WRITE_ONLY", "read_only"),
                  kernel_arg_access_qualifier.WRITE_ONLY: (mem_flags.READ_ONLY, "READ_ONLY", "write_only")}


def _image_reader(read_handle, access: int, described: str):
    flag, flag_name, qualifier = _CONTRADICTING[access]

    def read_image(size, value):
        image = read_handle(size, value)
        if image is not None and image.flags & flag:
            raise LogicError(ROUTINE, status_code.INVALID_ARG_VALUE,
                             f"{described} is {qualifier}; the image was created CL_MEM_{flag_name}")
        return image
    return read_image


def _local_reader(described: str):
    def read_local(size, value):
        if value:
            raise LogicError(ROUTINE, status_code.INVALID_ARG_VALUE, f"{described} is __local: arg_value must be NULL")
        if size == 0:
            raise LogicError(ROUTINE, status_code.INVALID_ARG_SIZE, f"{described} is __local: arg_size must be > 0")
        return LocalMemory(size)
    return read_local
