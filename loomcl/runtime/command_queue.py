"""Command queues. Asynchronous: an enqueue call checks its arguments, records its command (an
Event: event.py) and returns it; the queue's scheduler (scheduler.py) runs the commands in the
background, in order or, with OUT_OF_ORDER_EXEC_MODE_ENABLE, as their dependencies allow. finish()
waits for all of them and raises a failure no wait has raised yet; blocking calls wait for their own
command. A thread that waits runs the queue's ready commands itself, so a launch followed by a wait
costs no thread hand-off; flush() hands the queue's commands to its executor thread (big ones go at
once)."""
from __future__ import annotations

from loomcl.errors import LogicError, status_code

from .constants import command_queue_info, command_queue_properties, command_type, info_attribute
from .context import Context
from .device import Device
from .event import Event, check_wait_list
from .scheduler import Scheduler

_SUPPORTED = (
    command_queue_properties.OUT_OF_ORDER_EXEC_MODE_ENABLE | command_queue_properties.PROFILING_ENABLE
)


class CommandQueue:
    """pyopencl's CommandQueue(context, device=None, properties=None)."""

    device_default = None  # no device-side queues (CL_DEVICE_DEVICE_ENQUEUE_CAPABILITIES is 0)

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
        self.scheduler = Scheduler(bool(properties & command_queue_properties.OUT_OF_ORDER_EXEC_MODE_ENABLE))
        self.finish = self.scheduler.finish  # (one call less on the launch-and-finish path)

    def enqueue(self, command: int, routine: str, work, wait_for=None, blocking: bool = False,
                hand_off: bool = False, work_args: tuple = ()) -> Event:
        """Record a command whose arguments the caller has checked: `work(*work_args)` does it later
        (`work` None for a marker or barrier), after the events of `wait_for`. Returns its event; with `blocking`,
        once the command is complete (raising its failure, or one of an earlier command). `hand_off`
        (a big command) wakes the queue's executor for it now; others wait for a flush or a wait
        (scheduler.py says why)."""
        wait_for = check_wait_list(wait_for, routine) if wait_for else None
        event = Event(self, command, self.profiling, routine, work, wait_for, work_args)
        self.scheduler.enqueue(event, hand_off)
        if blocking:
            self.scheduler.wait_blocking(event)
        return event

    def finish(self) -> None:
        """Block until every enqueued command is complete; raise the first failure among them that
        no wait has raised."""
        self.scheduler.finish()

    def flush(self) -> None:
        """Hand the ready commands to the queue's executor thread, which runs them in the background."""
        self.scheduler.flush()

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


def enqueue_marker(queue, wait_for=None) -> Event:
    """A command that completes once the events of `wait_for` have, or without them once every
    command enqueued before it has (clEnqueueMarkerWithWaitList)."""
    routine = "clEnqueueMarkerWithWaitList"
    check_queue(queue, routine)
    return queue.enqueue(command_type.MARKER, routine, None, wait_for)


def enqueue_barrier(queue, wait_for=None) -> Event:
    """A marker that also holds back every command enqueued after it (clEnqueueBarrierWithWaitList)."""
    routine = "clEnqueueBarrierWithWaitList"
    check_queue(queue, routine)
    return queue.enqueue(command_type.BARRIER, routine, None, wait_for)


def enqueue_wait_for_events(queue, wait_for) -> None:
    """pyopencl's enqueue_wait_for_events: later commands of `queue` wait for these events."""
    routine = "clEnqueueWaitForEvents"
    check_queue(queue, routine)
    if not check_wait_list(wait_for, routine):
        raise LogicError(routine, status_code.INVALID_VALUE, "the event list is empty")
    queue.enqueue(command_type.BARRIER, routine, None, wait_for)
