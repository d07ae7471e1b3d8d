"""Command queues. In-order and synchronous: a command runs to completion inside its enqueue call,
so finish() and flush() have nothing left to do. That is a valid in-order implementation and keeps
the launch path short (no queue thread, no hand-off)."""
from __future__ import annotations

from loomcl.errors import LogicError, status_code

from .constants import command_queue_info, command_queue_properties, info_attribute
from .context import Context
from .device import Device

_SUPPORTED = (
    command_queue_properties.OUT_OF_ORDER_EXEC_MODE_ENABLE | command_queue_properties.PROFILING_ENABLE
)


class CommandQueue:
    """pyopencl's CommandQueue(context, device=None, properties=None)."""

    def __init__(self, context: Context, device: Device | None = None, properties=None) -> None:
        if not isinstance(context, Context):
            raise LogicError("clCreateCommandQueue", status_code.INVALID_CONTEXT, f"{context!r} is not a Context")
        if device is None:
            device = context.devices[0]
        elif device not in context.devices:
            raise LogicError("clCreateCommandQueue", status_code.INVALID_DEVICE, f"{device!r} is not in the context")
        properties = _property_bits(properties)
        if properties & ~_SUPPORTED:
            raise LogicError(
                "clCreateCommandQueue",
                status_code.INVALID_QUEUE_PROPERTIES,
                f"properties {properties:#x} include unsupported bits {properties & ~_SUPPORTED:#x}",
            )
        self.context = context
        self.device = device
        self.properties = properties
        self.profiling = bool(properties & command_queue_properties.PROFILING_ENABLE)
        self.reference_count = 1

    def finish(self) -> None:
        """Every command already completed when it was enqueued."""

    def flush(self) -> None:
        """Commands are never held back."""

    def get_info(self, param: int):
        return getattr(self, info_attribute(command_queue_info, param, "clGetCommandQueueInfo"))

    @property
    def int_ptr(self) -> int:
        return id(self)

    def __enter__(self) -> CommandQueue:
        return self

    def __exit__(self, *exc) -> None:
        self.finish()


def _property_bits(properties) -> int:
    if properties is None:
        return 0
    if isinstance(properties, int):
        return properties
    bits = 0
    for item in properties:  # pyopencl also accepts a list of property values
        bits |= int(item)
    return bits


def check_queue(queue, routine: str, *memory) -> None:
    """`queue` is a CommandQueue, and every Buffer among `memory` belongs to its context (the C API's
    INVALID_COMMAND_QUEUE and INVALID_CONTEXT)."""
    if not isinstance(queue, CommandQueue):
        raise LogicError(routine, status_code.INVALID_COMMAND_QUEUE, f"{queue!r} is not a CommandQueue")
    for item in memory:
        context = getattr(item, "context", None)
        if isinstance(context, Context) and context is not queue.context:
            raise LogicError(routine, status_code.INVALID_CONTEXT,
                             "the buffer and the queue belong to different contexts")
