"""Kernel arguments: Python values checked against the kernel's signature and packed into the 64-bit
slots of abi/kernel.py, once, when they are set.

Each parameter gets a setter chosen by its kind when the kernel is created, so setting an argument is
one dict-free call: a Buffer stores its address, a number is range-checked and stored as its bits
(zero-extended), a LocalMemory records its size (the slot gets its arena offset at launch), and a
vector or struct is copied to host memory whose address goes in the slot; an image (any object with a
`descriptor`, a ctypes ImageDescriptor of the parameter's image type) stores the descriptor's
address and keeps the object alive, a sampler (any object with integer `bits`) its bits
(abi/image.py). A value of the wrong kind
or out of range raises LogicError INVALID_ARG_VALUE naming the argument and its type.

`held[i]` is the object that owns the memory slot i points to (a buffer's bytes, a by-value copy, an
image): an enqueued launch copies the slots and keeps these alive until it has run (launch.py).

In checked mode the block also holds each pointer argument's extent and the address of the
kernel's `CheckRecord` (abi/kernel.py), which every launch of the kernel shares.
"""
from __future__ import annotations

import ctypes
import math
import numbers
import struct

import numpy as np

from loomcl.abi.image import ImageDescriptor
from loomcl.abi.kernel import LOCAL_ALIGN, CheckRecord, KernelParam, ParamKind
from loomcl.errors import LogicError, status_code

from .buffer import Buffer
from .engine_api import buffer_streams
from .local_memory import LocalMemory

ROUTINE = "clSetKernelArg"


class KernelArguments:
    """The argument slots of one kernel object (reused by every launch of that kernel)."""

    def __init__(self, kernel_name: str, params: tuple[KernelParam, ...], checked: bool = False,
                 stream_candidates: tuple[int, ...] = ()) -> None:
        self.kernel_name = kernel_name
        self.params = params
        count = len(params)
        self.slots = (ctypes.c_uint64 * max(1, 2 * count + 1 if checked else count))()
        self.extents = count if checked else None  # checked mode: index of the first extent slot
        self.check_record = CheckRecord() if checked else None
        if checked:
            self.slots[2 * count] = ctypes.addressof(self.check_record)
        self.address = ctypes.addressof(self.slots)
        self.missing = set(range(len(params)))
        self.held: list = [None] * count
        self.local_sizes: dict[int, int] = {}
        self.local_indices = [i for i, p in enumerate(params) if p.kind is ParamKind.LOCAL_POINTER]
        self.kept: dict[int, ctypes.Array] = {}  # index -> host copy of a by-value argument
        self.images: dict[int, object] = {}  # index -> the image argument (kept alive while set)
        self.image_formats: tuple = ()  # ((index, channel order, data type), ...): the code is specialized for them
        self.streaming: tuple[int, ...] = ()  # the candidates whose buffer qualifies (engine/streaming.py)
        self.setters = [self._setter(i, p) for i, p in enumerate(params)]
        for index in stream_candidates:
            self.setters[index] = self._streaming_setter(index, self.setters[index])

    def set(self, index: int, value) -> None:
        if not 0 <= index < len(self.params):
            raise LogicError(
                ROUTINE,
                status_code.INVALID_ARG_INDEX,
                f"kernel '{self.kernel_name}' has {len(self.params)} arguments; index {index} is out of range",
            )
        self.setters[index](value)
        self.missing.discard(index)

    def set_all(self, values) -> None:
        if len(values) != len(self.params):
            raise LogicError(
                ROUTINE,
                status_code.INVALID_KERNEL_ARGS,
                f"kernel '{self.kernel_name}' takes {len(self.params)} arguments, got {len(values)}",
            )
        for setter, value in zip(self.setters, values):
            setter(value)
        if self.missing:
            self.missing.clear()

    def check_complete(self, routine: str) -> None:
        if self.missing:
            index = min(self.missing)
            raise LogicError(
                routine,
                status_code.INVALID_KERNEL_ARGS,
                f"kernel '{self.kernel_name}': argument {index} ({self._describe(index)}) was not set",
            )

    def place_locals(self, static_bytes: int) -> int:
        """Write each local argument's arena offset into its slot; return the arena bytes needed."""
        offset = static_bytes
        for index in self.local_indices:
            offset = -(-offset // LOCAL_ALIGN) * LOCAL_ALIGN
            self.slots[index] = offset
            offset += self.local_sizes[index]
        return offset

    def _describe(self, index: int) -> str:
        param = self.params[index]
        return f"'{param.name}' of type {param.type_name}"

    def _wrong(self, index: int, value, expected: str) -> LogicError:
        return LogicError(
            ROUTINE,
            status_code.INVALID_ARG_VALUE,
            f"kernel '{self.kernel_name}' argument {index} ({self._describe(index)}) expects {expected}, "
            f"got {_short(value)}",
        )

    def _setter(self, index: int, param: KernelParam):
        if param.kind in (ParamKind.GLOBAL_POINTER, ParamKind.CONSTANT_POINTER):
            return self._pointer_setter(index)
        if param.kind is ParamKind.LOCAL_POINTER:
            return self._local_setter(index)
        if param.kind is ParamKind.SCALAR:
            return self._scalar_setter(index, param)
        if param.kind is ParamKind.IMAGE:
            return self._image_setter(index, param)
        if param.kind is ParamKind.SAMPLER:
            return self._sampler_setter(index)
        return self._by_value_setter(index, param)

    def _image_setter(self, index: int, param: KernelParam):
        wanted = _IMAGE_TYPES[param.info_type_name]

        def set_image(value) -> None:
            descriptor = getattr(value, "descriptor", None)
            if not isinstance(descriptor, ImageDescriptor):
                raise LogicError(ROUTINE, status_code.INVALID_MEM_OBJECT,
                                 f"kernel '{self.kernel_name}' argument {index} ({self._describe(index)}) expects "
                                 f"an Image, got {_short(value)}")
            if descriptor.image_type != wanted:
                have = _IMAGE_TYPE_NAMES.get(descriptor.image_type, hex(descriptor.image_type))
                raise self._wrong(index, value, f"an {param.info_type_name} image, not an {have} one")
            self.images[index] = value
            self.held[index] = (value, getattr(value, "_memory", None))  # (what Image.release() drops)
            self.slots[index] = ctypes.addressof(descriptor)
            self._note_format(index, descriptor)

        return set_image

    def _note_format(self, index: int, descriptor: ImageDescriptor) -> None:
        """Launches pick the work-group function compiled for their images' formats."""
        image_format = (index, descriptor.channel_order, descriptor.channel_data_type)
        if image_format not in self.image_formats:
            others = tuple(f for f in self.image_formats if f[0] != index)
            self.image_formats = tuple(sorted(others + (image_format,)))

    def _sampler_setter(self, index: int):
        def set_sampler(value) -> None:
            bits = getattr(value, "bits", None)
            if not isinstance(bits, (int, np.integer)) or isinstance(bits, bool) or not 0 <= bits < 1 << 32:
                raise LogicError(ROUTINE, status_code.INVALID_SAMPLER,
                                 f"kernel '{self.kernel_name}' argument {index} ({self._describe(index)}) expects "
                                 f"a Sampler, got {_short(value)}")
            self.slots[index] = int(bits)

        return set_sampler

    def _pointer_setter(self, index: int):
        slots, held = self.slots, self.held
        extent = index + self.extents if self.extents is not None else None

        def set_pointer(value) -> None:
            if type(value) is Buffer or isinstance(value, Buffer):
                address = value.address
                if address == 0:
                    raise LogicError(
                        ROUTINE, status_code.INVALID_MEM_OBJECT, f"argument {index} ({self._describe(index)}): the buffer was released"
                    )
                slots[index] = address
                held[index] = value._memory  # (what Buffer.release() drops)
                if extent is not None:
                    slots[extent] = value.size
            elif value is None:
                slots[index] = 0
                held[index] = None
                if extent is not None:
                    slots[extent] = 0
            else:
                raise self._wrong(index, value, "a Buffer (or None)")

        return set_pointer

    def _streaming_setter(self, index: int, set_pointer):
        """A write-only parameter's setter: also notes whether its buffer streams."""
        def set_streamed(value) -> None:
            set_pointer(value)
            streams = isinstance(value, Buffer) and buffer_streams(value.size, value.address)
            if streams != (index in self.streaming):
                self.streaming = tuple(sorted({*self.streaming, index} if streams else set(self.streaming) - {index}))

        return set_streamed

    def _local_setter(self, index: int):
        def set_local(value) -> None:
            if not isinstance(value, LocalMemory):
                raise self._wrong(index, value, "a LocalMemory")
            self.local_sizes[index] = value.size
            if self.extents is not None:
                self.slots[index + self.extents] = value.size

        return set_local

    def _scalar_setter(self, index: int, param: KernelParam):
        dtype = np.dtype(param.dtype)
        if dtype.kind in "iu":
            return self._integer_setter(index, dtype)
        if dtype.kind == "b":
            return self._integer_setter(index, np.dtype(np.uint8), boolean=True)
        if dtype.kind == "f":
            return self._float_setter(index, dtype)
        return self._by_value_setter(index, param)

    def _integer_setter(self, index: int, dtype: np.dtype, boolean: bool = False):
        info = np.iinfo(dtype)
        low, high, mask = int(info.min), int(info.max), (1 << (8 * dtype.itemsize)) - 1
        slots = self.slots
        expected = "a bool" if boolean else f"an integer in [{low}, {high}]"

        def set_integer(value) -> None:
            if type(value) is not int:
                value = self._integral(index, value, expected)
            if not low <= value <= high:
                raise self._wrong(index, value, expected)
            slots[index] = value & mask

        return set_integer

    def _integral(self, index: int, value, expected: str) -> int:
        if isinstance(value, (numbers.Integral, np.integer, np.bool_)):
            return int(value)
        if isinstance(value, np.ndarray) and value.shape == () and value.dtype.kind in "iub":
            return int(value)
        if isinstance(value, (float, np.floating)) and math.isfinite(value) and float(value).is_integer():
            return int(value)
        raise self._wrong(index, value, expected)

    def _float_setter(self, index: int, dtype: np.dtype):
        code = {2: "e", 4: "f", 8: "d"}[dtype.itemsize]
        packer = struct.Struct("<" + code)
        reader = struct.Struct("<" + {2: "H", 4: "I", 8: "Q"}[dtype.itemsize])
        slots = self.slots
        expected = f"a real number representable as {dtype.name}"

        def set_float(value) -> None:
            if type(value) is not float:
                if not isinstance(value, (numbers.Real, np.floating, np.integer)) or isinstance(value, bool):
                    if not (isinstance(value, np.ndarray) and value.shape == () and value.dtype.kind in "iuf"):
                        raise self._wrong(index, value, expected)
                value = float(value)
            try:
                slots[index] = reader.unpack(packer.pack(value))[0]
            except (OverflowError, struct.error):
                raise self._wrong(index, value, expected) from None

        return set_float

    def copy_from(self, other: KernelArguments) -> None:
        """Take `other`'s arguments (clCloneKernel): its slots, local sizes and by-value copies."""
        ctypes.memmove(self.slots, other.slots, ctypes.sizeof(self.slots))
        self.missing = set(other.missing)
        self.local_sizes = dict(other.local_sizes)
        self.images, self.image_formats = dict(other.images), other.image_formats
        self.streaming = other.streaming
        self.held[:] = other.held
        for index, storage in other.kept.items():
            self.kept[index] = self.held[index] = copy = ctypes.create_string_buffer(storage.raw, len(storage))
            self.slots[index] = ctypes.addressof(copy)

    def _by_value_setter(self, index: int, param: KernelParam):
        slots, held = self.slots, self.held

        def set_by_value(value) -> None:
            if isinstance(value, (Buffer, LocalMemory)) or value is None:
                raise self._wrong(index, value, f"a {param.size}-byte value")
            data = self._check_value_size(index, param, self._value_bytes(index, param, value))
            storage = ctypes.create_string_buffer(data, max(len(data), 1))
            held[index] = self.kept[index] = storage
            slots[index] = ctypes.addressof(storage)

        return set_by_value

    def _value_bytes(self, index: int, param: KernelParam, value) -> bytes:
        """The bytes of a vector or struct value: a structured numpy value (pyopencl's cltypes)
        is taken as is, a sequence of numbers is converted to the vector's element type."""
        try:
            array = np.asarray(value)
            if array.dtype.kind == "V" or param.dtype is None:
                return np.ascontiguousarray(array).tobytes()
            element = param.dtype.subdtype[0] if param.dtype.subdtype else param.dtype
            return np.ascontiguousarray(array, dtype=element).tobytes()
        except (TypeError, ValueError) as exc:
            raise self._wrong(index, value, f"a value convertible to {param.type_name} ({exc})") from None

    def _check_value_size(self, index: int, param: KernelParam, data: bytes) -> bytes:
        if param.dtype is not None and len(data) == param.dtype.itemsize < param.size:
            data += bytes(param.size - len(data))  # a 3-vector is stored in 4 elements
        if len(data) != param.size:
            raise LogicError(
                ROUTINE,
                status_code.INVALID_ARG_SIZE,
                f"kernel '{self.kernel_name}' argument {index} ({self._describe(index)}) needs "
                f"{param.size} bytes, got {len(data)}",
            )
        return data


# CL_MEM_OBJECT_IMAGE* codes of the kernel parameter types (the descriptor's image_type)
_IMAGE_TYPES = {"image2d_t": 0x10F1, "image3d_t": 0x10F2, "image2d_array_t": 0x10F3, "image1d_t": 0x10F4,
                "image1d_array_t": 0x10F5, "image1d_buffer_t": 0x10F6}
_IMAGE_TYPE_NAMES = {code: name for name, code in _IMAGE_TYPES.items()}


def _short(value) -> str:
    if isinstance(value, np.ndarray):
        return f"a numpy array of shape {value.shape} and dtype {value.dtype} (pass a Buffer)"
    text = repr(value)
    text = text if len(text) <= 60 else text[:57] + "..."
    return f"{type(value).__name__} {text}"
