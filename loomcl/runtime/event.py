"""Events. loomcl's queues execute each command when it is enqueued (launches are native and fast),
so every event is complete when it is returned; it still records when the command was queued,
submitted, started and ended (perf_counter_ns) if its queue has PROFILING_ENABLE."""
from __future__ import annotations

import time

from loomcl.errors import LogicError, RuntimeError, status_code

from .constants import command_execution_status, event_info, info_attribute, profiling_info

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


def wait_for_events(events) -> None:
    check_wait_list(events, "clWaitForEvents")


def check_wait_list(wait_for, routine: str) -> None:
    """Validate a wait list (None or Events). Every event is already complete, so no waiting."""
    if wait_for is None:
        return
    for event in wait_for:
        if not isinstance(event, Event):
            raise LogicError(
                routine, status_code.INVALID_EVENT_WAIT_LIST, f"wait_for holds {event!r}, not an Event"
            )


def now_ns() -> int:
    return time.perf_counter_ns()
