"""Events. loomcl's queues execute each command when it is enqueued (launches are native and fast),
so every event is complete when it is returned; it still records when the command was queued,
submitted, started and ended (perf_counter_ns) if its queue has PROFILING_ENABLE.

A UserEvent is the one event the host completes. A synchronous queue cannot hold a command back
until that happens, so waiting for a user event that is not complete yet is an error that says so
(rather than a hang), and one set to an error status fails its waiters as OpenCL specifies."""
from __future__ import annotations

import time

from loomcl.errors import LogicError, RuntimeError, status_code

from .constants import command_execution_status, command_type, event_info, info_attribute, profiling_info
from .context import Context

_COMPLETE = command_execution_status.COMPLETE


class ProfilingInfo:
    """`event.profile`: the four timestamps in nanoseconds, as pyopencl's ProfilingInfoGetter."""

    __slots__ = ("queued", "submit", "start", "end")

    def __init__(self, queued: int, submit: int, start: int, end: int) -> None:
        self.queued, self.submit, self.start, self.end = queued, submit, start, end

    @property
    def complete(self) -> int:
        return self.end


class Event:
    """A completed command. `profile` raises PROFILING_INFO_NOT_AVAILABLE without profiling."""

    __slots__ = ("command_queue", "command_type", "_profile")

    command_execution_status = _COMPLETE
    reference_count = 1

    def __init__(self, queue, command: int, profile: ProfilingInfo | None = None) -> None:
        self.command_queue = queue
        self.command_type = command
        self._profile = profile

    @property
    def context(self):
        return self.command_queue.context

    @property
    def profile(self) -> ProfilingInfo:
        if self._profile is None:
            raise RuntimeError(
                "clGetEventProfilingInfo",
                status_code.PROFILING_INFO_NOT_AVAILABLE,
                "the command queue was created without command_queue_properties.PROFILING_ENABLE",
            )
        return self._profile

    def get_profiling_info(self, param: int) -> int:
        name = info_attribute(profiling_info, param, "clGetEventProfilingInfo")
        return getattr(self.profile, name)

    def get_info(self, param: int):
        return getattr(self, info_attribute(event_info, param, "clGetEventInfo"))

    def wait(self) -> None:
        """Nothing to wait for: the command ran when it was enqueued."""

    @property
    def int_ptr(self) -> int:
        return id(self)


class UserEvent(Event):
    """pyopencl's UserEvent(context): SUBMITTED until `set_status(COMPLETE or a negative error)`."""

    __slots__ = ("_context", "_status")

    def __init__(self, context) -> None:
        if not isinstance(context, Context):
            raise LogicError("clCreateUserEvent", status_code.INVALID_CONTEXT, f"{context!r} is not a Context")
        super().__init__(None, command_type.USER)
        self._context = context
        self._status = command_execution_status.SUBMITTED

    @property
    def context(self):
        return self._context

    @property
    def command_execution_status(self) -> int:
        return self._status

    def set_status(self, status: int) -> None:
        routine = "clSetUserEventStatus"
        if isinstance(status, bool) or not isinstance(status, int) or not (status == _COMPLETE or status < 0):
            raise LogicError(routine, status_code.INVALID_VALUE,
                             "status must be command_execution_status.COMPLETE or a negative error code, "
                             f"got {status!r}")
        if self._status != command_execution_status.SUBMITTED:
            raise LogicError(routine, status_code.INVALID_OPERATION, "the user event's status was already set")
        self._status = int(status)

    def wait(self) -> None:
        check_wait_list((self,), "clWaitForEvents")


def wait_for_events(events) -> None:
    check_wait_list(events, "clWaitForEvents")


def check_wait_list(wait_for, routine: str) -> None:
    """Validate a wait list (None or Events). Commands' events are complete, so nothing waits; a
    user event must have been completed (by set_status) before anything waits for it."""
    if wait_for is None:
        return
    for event in wait_for:
        if not isinstance(event, Event):
            raise LogicError(
                routine, status_code.INVALID_EVENT_WAIT_LIST, f"wait_for holds {event!r}, not an Event"
            )
        status = event.command_execution_status
        if status == _COMPLETE:
            continue
        if status < 0:
            raise RuntimeError(routine, status_code.EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST,
                               f"a user event in the wait list was set to error status {status}")
        raise LogicError(routine, status_code.INVALID_OPERATION,
                         "a user event in the wait list is not complete; loomcl's queues run each command "
                         "when it is enqueued, so call set_status(command_execution_status.COMPLETE) first")


def now_ns() -> int:
    return time.perf_counter_ns()
