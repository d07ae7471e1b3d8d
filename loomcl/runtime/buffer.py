"""Buffers: host memory that kernels address directly (the device is the host CPU).

A buffer's bytes live in a numpy uint8 array: fresh allocations are 128-byte aligned (OpenCL's
largest type, long16/double16, so CL_DEVICE_MEM_BASE_ADDR_ALIGN can be 1024 bits as the spec's
minimum asks; a multiple of a cache line and of an AVX-512 register) and zeroed lazily by calloc; USE_HOST_PTR wraps the caller's memory with no
copy, which is the point of that flag on a CPU; COPY_HOST_PTR copies once. `address` is what a
kernel argument slot receives.
"""
from __future__ import annotations

import ctypes

import numpy as np

from loomcl import errors
from loomcl.errors import LogicError, status_code

from .constants import info_attribute, mem_flags, mem_info, mem_object_type
from .context import Context
from .device import BASE_ADDRESS_ALIGN

BUFFER_ALIGN = BASE_ADDRESS_ALIGN
_ACCESS = mem_flags.READ_WRITE | mem_flags.WRITE_ONLY | mem_flags.READ_ONLY
_HOST_ACCESS = mem_flags.HOST_WRITE_ONLY | mem_flags.HOST_READ_ONLY | mem_flags.HOST_NO_ACCESS
_KNOWN = (
    _ACCESS
    | _HOST_ACCESS
    | mem_flags.USE_HOST_PTR
    | mem_flags.ALLOC_HOST_PTR
    | mem_flags.COPY_HOST_PTR
    | mem_flags.KERNEL_READ_AND_WRITE
)
_ROUTINE = "clCreateBuffer"


class Buffer:
    """pyopencl's Buffer(context, flags, size=0, hostbuf=None)."""

    type = mem_object_type.BUFFER
    map_count = 0
    reference_count = 1
    offset = 0
    associated_memobject = None
    uses_svm_pointer = 0  # no SVM
    properties: list = []  # clCreateBufferWithProperties' list (the C API keeps its own)

    def __init__(self, context: Context, flags: int, size: int = 0, hostbuf=None) -> None:
        if not isinstance(context, Context):
            raise LogicError(_ROUTINE, status_code.INVALID_CONTEXT, f"{context!r} is not a Context")
        check_mem_flags(flags, hostbuf, _ROUTINE)
        size = _check_size(context, size, hostbuf)
        self.context = context
        self.flags = int(flags)
        self.size = size
        self._hostbuf = hostbuf if flags & mem_flags.USE_HOST_PTR else None
        self._memory = self._allocate(flags, size, hostbuf)
        self.address = address_of(self._memory)

    @staticmethod
    def _allocate(flags: int, size: int, hostbuf) -> np.ndarray:
        if flags & mem_flags.USE_HOST_PTR:
            return host_bytes(hostbuf, _ROUTINE, writable=True)[:size]
        memory = aligned_zeros(size)
        if flags & mem_flags.COPY_HOST_PTR:
            memory[:] = host_bytes(np.ascontiguousarray(hostbuf), _ROUTINE)[:size]
        return memory

    @property
    def int_ptr(self) -> int:
        return self.address

    @property
    def hostbuf(self):
        return self._hostbuf

    @property
    def host_ptr(self) -> int:
        """CL_MEM_HOST_PTR: the caller's memory of a USE_HOST_PTR buffer; for a sub-buffer of one, that
        pointer plus the sub-buffer's origin (API spec 5.5.1); else NULL."""
        parent = self.associated_memobject
        if parent is not None:
            return parent.host_ptr + self.offset if parent.host_ptr else 0
        return self.address if self._hostbuf is not None else 0

    @property
    def released(self) -> bool:
        return self._memory is None

    def memory(self, routine: str) -> np.ndarray:
        """The buffer's bytes (uint8), or LogicError INVALID_MEM_OBJECT if it was released."""
        if self._memory is None:
            raise LogicError(routine, status_code.INVALID_MEM_OBJECT, "the buffer was released")
        return self._memory

    def get_host_array(self, shape, dtype, order: str = "C") -> np.ndarray:
        """A numpy view of the buffer's memory (no copy)."""
        dtype = np.dtype(dtype)
        shape = (shape,) if isinstance(shape, int) else tuple(shape)
        nbytes = int(np.prod(shape, dtype=np.int64)) * dtype.itemsize
        memory = self.memory("get_host_array")
        if nbytes > self.size:
            raise LogicError(
                "get_host_array",
                status_code.INVALID_VALUE,
                f"shape {shape} of {dtype} needs {nbytes} bytes; the buffer has {self.size}",
            )
        return memory[:nbytes].view(dtype).reshape(shape, order=order)

    def get_sub_region(self, origin: int, size: int, flags: int = 0) -> Buffer:
        """pyopencl's sub-buffer (clCreateSubBuffer): `size` bytes from byte `origin`, sharing this
        buffer's memory. A kernel given it sees only those bytes (checked mode enforces it)."""
        routine = "clCreateSubBuffer"
        memory = self.memory(routine)
        for name, value in (("origin", origin), ("size", size)):
            if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 0:
                raise LogicError(routine, status_code.INVALID_VALUE, f"{name} must be a non-negative int, got {value!r}")
        origin, size = int(origin), int(size)
        if size == 0 or origin + size > self.size:
            raise LogicError(routine, status_code.INVALID_VALUE,
                             f"region [{origin}, {origin + size}) is empty or outside the buffer's {self.size} bytes")
        sub = object.__new__(Buffer)
        sub.context, sub.flags, sub.size, sub.offset = self.context, sub_buffer_flags(self.flags, flags), size, origin
        sub._hostbuf, sub._memory = None, memory[origin:origin + size]
        sub.address = self.address + origin
        sub.associated_memobject = self
        return sub

    def __getitem__(self, index: slice) -> Buffer:
        """`buf[start:stop]`: the sub-buffer of those bytes (pyopencl's spelling)."""
        if not isinstance(index, slice):
            raise TypeError("a Buffer can only be sliced (buf[start:stop]) into a sub-buffer")
        start, stop, step = index.indices(self.size)
        if step != 1:
            raise ValueError("a sub-buffer's slice must have step 1")
        return self.get_sub_region(start, stop - start)

    def release(self) -> None:
        self._memory = None
        self._hostbuf = None
        self.address = 0

    def get_info(self, param: int):
        return getattr(self, info_attribute(mem_info, param, "clGetMemObjectInfo"))

    def __eq__(self, other) -> bool:
        return self is other

    def __hash__(self) -> int:
        return id(self)

    def __repr__(self) -> str:
        return f"<loomcl.Buffer {self.size} bytes at {self.address:#x}>"


_FLAGS_CHECKED: set[tuple[int, bool]] = set()  # (flags, with a hostbuf) that passed: pyopencl.array asks for every result


def check_mem_flags(flags, hostbuf, routine: str) -> None:
    """The mem_flags rules buffers and images share: known bits, one access mode, the host-pointer flags
    consistent with `hostbuf`."""
    if isinstance(flags, bool) or not isinstance(flags, (int, np.integer)):
        raise LogicError(routine, status_code.INVALID_VALUE, f"flags must be mem_flags bits, got {flags!r}")
    flags = int(flags)
    key = (flags, hostbuf is not None)
    if key in _FLAGS_CHECKED:
        return
    if flags & ~_KNOWN:
        raise LogicError(routine, status_code.INVALID_VALUE, f"unknown mem_flags bits {flags & ~_KNOWN:#x}")
    access, host_access = flags & _ACCESS, flags & _HOST_ACCESS
    if access & (access - 1):  # (more than one bit)
        raise LogicError(
            routine, status_code.INVALID_VALUE, "at most one of READ_WRITE, WRITE_ONLY, READ_ONLY may be given"
        )
    if host_access & (host_access - 1):
        raise LogicError(routine, status_code.INVALID_VALUE,
                         "at most one of HOST_WRITE_ONLY, HOST_READ_ONLY, HOST_NO_ACCESS may be given")
    if flags & mem_flags.USE_HOST_PTR and flags & (mem_flags.COPY_HOST_PTR | mem_flags.ALLOC_HOST_PTR):
        raise LogicError(
            routine, status_code.INVALID_VALUE, "USE_HOST_PTR excludes COPY_HOST_PTR and ALLOC_HOST_PTR"
        )
    wants_host = flags & (mem_flags.USE_HOST_PTR | mem_flags.COPY_HOST_PTR)
    if wants_host and hostbuf is None:
        raise LogicError(routine, status_code.INVALID_HOST_PTR, "USE_HOST_PTR/COPY_HOST_PTR need a hostbuf")
    if hostbuf is not None and not wants_host:
        raise LogicError(
            routine,
            status_code.INVALID_HOST_PTR,
            "a hostbuf was given without mem_flags.COPY_HOST_PTR or mem_flags.USE_HOST_PTR",
        )
    _FLAGS_CHECKED.add(key)


def _check_size(context: Context, size, hostbuf) -> int:
    if isinstance(size, bool) or not isinstance(size, (int, np.integer)) or size < 0:
        raise LogicError(_ROUTINE, status_code.INVALID_BUFFER_SIZE, f"size must be a non-negative int, got {size!r}")
    size = int(size)
    if hostbuf is not None:
        host_size = memoryview(hostbuf).nbytes
        if size == 0:
            size = host_size
        elif size != host_size:
            # pyopencl copies a prefix of a larger hostbuf; a size that disagrees with the host
            # data is far more often a mistake (wrong dtype or count), so say so.
            relation = "larger" if size > host_size else "smaller"
            raise LogicError(
                _ROUTINE,
                status_code.INVALID_BUFFER_SIZE,
                f"size {size} is {relation} than the hostbuf's {host_size} bytes",
            )
    if size == 0:
        raise LogicError(_ROUTINE, status_code.INVALID_BUFFER_SIZE, "a buffer needs a size > 0 or a non-empty hostbuf")
    limit = context.devices[0].max_mem_alloc_size
    if size > limit:
        raise LogicError(
            _ROUTINE, status_code.INVALID_BUFFER_SIZE, f"size {size} exceeds the device's max_mem_alloc_size {limit}"
        )
    return size


def aligned_zeros(size: int) -> np.ndarray:
    """`size` zero bytes starting at a BUFFER_ALIGN boundary, owning the bytes up to the next boundary
    after them: a kernel that writes a little past its buffer's end (piglit's bswap.cl launches 24
    work-items on an 8-element buffer) writes into loomcl's padding, not into the host's heap."""
    padded = -(-size // BUFFER_ALIGN) * BUFFER_ALIGN
    try:
        raw = np.zeros(padded + BUFFER_ALIGN, dtype=np.uint8)
    except MemoryError:
        raise errors.MemoryError(
            _ROUTINE, status_code.MEM_OBJECT_ALLOCATION_FAILURE, f"cannot allocate {size} bytes"
        ) from None
    skip = (-address_of(raw)) % BUFFER_ALIGN
    return raw[skip : skip + size]


def address_of(array: np.ndarray) -> int:
    """The address of an array's first byte: ~0.3 µs where `array.ctypes.data` costs ~1 (pyopencl.array
    makes a buffer for every result)."""
    try:
        return ctypes.addressof(ctypes.c_char.from_buffer(array))
    except (TypeError, ValueError):  # read-only or empty
        return array.ctypes.data


def host_bytes(host, routine: str, writable: bool = False) -> np.ndarray:
    """A flat uint8 view of a C-contiguous host buffer (numpy array, bytearray, memoryview...)."""
    try:
        view = memoryview(host)
    except TypeError:
        raise LogicError(routine, status_code.INVALID_HOST_PTR, f"{type(host).__name__} has no buffer interface") from None
    if not view.c_contiguous:
        raise LogicError(
            routine,
            status_code.INVALID_HOST_PTR,
            "the host array is not C-contiguous (use numpy.ascontiguousarray)",
        )
    if writable and view.readonly:
        raise LogicError(routine, status_code.INVALID_HOST_PTR, "the host array is read-only but must be written")
    if view.nbytes == 0:
        return np.zeros(0, dtype=np.uint8)
    return np.frombuffer(view.cast("B") if view.ndim != 1 or view.format != "B" else view, dtype=np.uint8)


_HOST_POINTER = mem_flags.USE_HOST_PTR | mem_flags.ALLOC_HOST_PTR | mem_flags.COPY_HOST_PTR
# what a sub-buffer may not ask for when its parent has the key's flag
_NARROWER = {
    mem_flags.WRITE_ONLY: mem_flags.READ_WRITE | mem_flags.READ_ONLY,
    mem_flags.READ_ONLY: mem_flags.READ_WRITE | mem_flags.WRITE_ONLY,
    mem_flags.HOST_WRITE_ONLY: mem_flags.HOST_READ_ONLY,
    mem_flags.HOST_READ_ONLY: mem_flags.HOST_WRITE_ONLY,
    mem_flags.HOST_NO_ACCESS: mem_flags.HOST_READ_ONLY | mem_flags.HOST_WRITE_ONLY,
}


def sub_buffer_flags(parent: int, flags, routine: str = "clCreateSubBuffer") -> int:
    """A sub-buffer's flags: the host-pointer flags are the parent's (and may not be given); the device
    and host access not given are inherited, and the ones given may not allow what the parent does not."""
    if isinstance(flags, (int, np.integer)) and flags & _HOST_POINTER:
        raise LogicError(routine, status_code.INVALID_VALUE,
                         "USE_HOST_PTR, ALLOC_HOST_PTR and COPY_HOST_PTR are inherited, not given, by a sub-buffer")
    check_mem_flags(flags, None, routine)
    flags = int(flags)
    for bit, excluded in _NARROWER.items():
        if parent & bit and flags & excluded:
            raise LogicError(routine, status_code.INVALID_VALUE,
                             f"the parent buffer's {mem_flags.to_string(bit)} excludes sub-buffer flags {flags:#x}")
    access = flags & _ACCESS or parent & _ACCESS
    host_access = flags & _HOST_ACCESS or parent & _HOST_ACCESS
    return access | host_access | parent & _HOST_POINTER | flags & mem_flags.KERNEL_READ_AND_WRITE


def check_host_access(memory, reads: bool, routine: str) -> None:
    """A host read (`reads`) or write of `memory` (a buffer or image) is allowed by its HOST_* flags
    (else INVALID_OPERATION, as for clEnqueueRead/Write*)."""
    forbidden = mem_flags.HOST_NO_ACCESS | (mem_flags.HOST_WRITE_ONLY if reads else mem_flags.HOST_READ_ONLY)
    if memory.flags & forbidden:
        raise LogicError(routine, status_code.INVALID_OPERATION,
                         f"the memory object's {mem_flags.to_string(memory.flags & forbidden)} forbids host "
                         f"{'reads' if reads else 'writes'}")
