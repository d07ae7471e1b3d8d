"""Events: the execution status of one command (OpenCL 1.2 sec. 5.9 and 5.10), and the command itself.

An event is also the record its enqueue call left on the queue (one object per enqueue, not two):
`work(*work_args)` does the command, and the two hold every object it touches (buffers' memory,
host arrays, a kernel's argument image), so that nothing it uses is freed or changed before it runs
(`work` None for a marker or barrier); `wait_for`, the events the caller named (a failed one fails
the command with EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST); `after`, the order an out-of-order
queue's markers and barriers impose (they wait, but a failure does not spread). scheduler.py runs
it, and drops all four once it has run.

A command's event goes QUEUED (enqueued; waiting for its wait list and, in an in-order queue, for the
command before it) -> SUBMITTED (taken by the thread that runs it) -> RUNNING -> COMPLETE, or to a
negative status when the command failed. A failed event keeps the exception its command raised (a
kernel fault, a checked-mode violation, ...); `wait()` raises it, and so do the queue's finish() and
blocking calls that observe it (scheduler.py). With PROFILING_ENABLE each transition is time-stamped
(perf_counter_ns): queued <= submit <= start <= end.

Callbacks (`set_callback(status, callback)`, pyopencl's) run on the thread that makes the transition:
a queue's executor, a thread that helps a queue while it waits, or the one that calls
`UserEvent.set_status`; a callback for a status already reached runs at once on the caller. A failed
event calls every callback not yet called with its negative status. An exception in a callback is
printed on stderr and goes no further. Internal hooks (a queue waiting for a dependency, a waiting
thread) use the same list, so no transition is missed between checking a status and registering.

A UserEvent is completed by the host with `set_status`; commands waiting for it stay queued until then.
"""
from __future__ import annotations

import sys
import threading
import time
import traceback

from loomcl.errors import KernelInterruptedError, LogicError, RuntimeError, status_code

from .constants import command_execution_status, command_type, event_info, info_attribute, profiling_info
from .context import Context

COMPLETE = command_execution_status.COMPLETE
RUNNING = command_execution_status.RUNNING
SUBMITTED = command_execution_status.SUBMITTED
QUEUED = command_execution_status.QUEUED
_CALLBACK_STATUSES = (SUBMITTED, RUNNING, COMPLETE)
# One lock for every event's hook list: hooks are rare and short, and an event needs no lock of its own.
_HOOKS = threading.Lock()


class ProfilingInfo:
    """`event.profile`: the four timestamps in nanoseconds, as pyopencl's ProfilingInfoGetter."""

    __slots__ = ("queued", "submit", "start", "end")

    def __init__(self, queued: int, submit: int, start: int, end: int) -> None:
        self.queued, self.submit, self.start, self.end = queued, submit, start, end

    @property
    def complete(self) -> int:
        return self.end


class Event:
    """The event of one enqueued command, and the command. `profile` raises
    PROFILING_INFO_NOT_AVAILABLE without profiling or before the command completed."""

    __slots__ = ("command_queue", "command_type", "_status", "_error", "_times", "_hooks",
                 "routine", "work", "work_args", "wait_for", "after", "sequence", "__weakref__")

    reference_count = 1

    def __init__(self, queue, command: int, profiling: bool = False, routine: str = "",
                 work=None, wait_for: tuple | None = None, work_args: tuple = ()) -> None:
        self.command_queue = queue
        self.command_type = command
        self._status = QUEUED
        self._error: BaseException | None = None
        # queued, submit, start, end: index 3 - status, so a transition stamps times[3 - status]
        self._times = [time.perf_counter_ns(), 0, 0, 0] if profiling else None
        self._hooks: list | None = None
        self.routine = routine
        self.work = work
        self.work_args = work_args
        self.wait_for = wait_for  # None or a tuple of Events
        self.after = None  # out of order: None or a tuple of Events
        self.sequence = 0  # its place in the queue, set by the scheduler

    # -- the command's dependencies (scheduler.py) ---------------------------------------------------

    def ready(self) -> bool:
        """Every event it waits for has completed or failed."""
        for event in self.wait_for or ():
            if event._status > COMPLETE:
                return False
        for event in self.after or ():
            if event._status > COMPLETE:
                return False
        return True

    def failed_dependency(self) -> Event | None:
        """A failed event of its wait list, if there is one."""
        for event in self.wait_for or ():
            if event._status < 0:
                return event
        return None

    def interruption(self, cause: BaseException) -> KernelInterruptedError:
        """The failure of a command that `cause` (KeyboardInterrupt, SystemExit) stopped."""
        return KernelInterruptedError(self.routine, status_code.OUT_OF_RESOURCES,
                                      f"the command was interrupted ({type(cause).__name__}) before it finished")

    @property
    def context(self):
        return self.command_queue.context

    @property
    def command_execution_status(self) -> int:
        status = self._status
        if status == QUEUED:  # whoever polls a status expects progress: flush the queue
            self.command_queue.scheduler.flush()
        return status

    @property
    def profile(self) -> ProfilingInfo:
        if self._times is None:
            raise RuntimeError(
                "clGetEventProfilingInfo",
                status_code.PROFILING_INFO_NOT_AVAILABLE,
                "the command queue was created without command_queue_properties.PROFILING_ENABLE",
            )
        if self._status != COMPLETE:
            raise RuntimeError("clGetEventProfilingInfo", status_code.PROFILING_INFO_NOT_AVAILABLE,
                               f"the command is not complete (status {self._status})")
        return ProfilingInfo(*self._times)

    def get_profiling_info(self, param: int) -> int:
        name = info_attribute(profiling_info, param, "clGetEventProfilingInfo")
        return getattr(self.profile, name)

    def get_info(self, param: int):
        return getattr(self, info_attribute(event_info, param, "clGetEventInfo"))

    @property
    def error(self) -> BaseException | None:
        """The exception that failed the command (None unless the status is negative)."""
        return self._error

    def wait(self) -> None:
        """Block until the command completes (running the queue's ready commands meanwhile);
        raise its exception if it failed."""
        if self._status > COMPLETE:
            self.command_queue.scheduler.help_until(self)
        if self._status < 0:
            self._raise_failure()

    def _raise_failure(self) -> None:
        queue = self.command_queue
        if queue is not None:
            queue.scheduler.reported(self)
        raise self._error

    def set_callback(self, status: int, callback) -> None:
        """pyopencl's set_callback: `callback(status)` once the event reaches `status` (SUBMITTED,
        RUNNING or COMPLETE) or fails (then with the negative status)."""
        routine = "clSetEventCallback"
        if isinstance(status, bool) or status not in _CALLBACK_STATUSES:
            raise LogicError(routine, status_code.INVALID_VALUE,
                             f"status must be SUBMITTED, RUNNING or COMPLETE, got {status!r}")
        if not callable(callback):
            raise LogicError(routine, status_code.INVALID_VALUE, f"callback {callback!r} is not callable")
        self.add_hook(int(status), _reporting(callback))
        if self._status > COMPLETE and self.command_queue is not None:
            self.command_queue.scheduler.flush()  # a callback waits for progress

    def add_hook(self, status: int, hook) -> None:
        """Call `hook(status reached)` once this event reaches `status` or fails; at once (on this
        thread) if it already has. Hooks must not raise."""
        with _HOOKS:
            if self._hooks is None:
                self._hooks = []
            self._hooks.append((status, hook))
        if self._status <= status:  # reached meanwhile: whoever pops the hook first calls it
            self._fire_hooks()

    def _fire_hooks(self) -> None:
        with _HOOKS:
            reached = self._status
            hooks = self._hooks
            if not hooks:
                return
            due = [entry for entry in hooks if reached <= entry[0]]
            self._hooks = [entry for entry in hooks if reached > entry[0]] or None
        for status, hook in due:
            hook(reached if reached < 0 else status)

    def _advance(self, status: int) -> None:
        """Move to SUBMITTED or RUNNING (stamping the time when profiled) and call the
        hooks now due."""
        if self._times is not None:
            self._times[3 - status] = time.perf_counter_ns()
        self._status = status
        if self._hooks is not None:
            self._fire_hooks()

    def _settle(self, error: BaseException | None, status: int = COMPLETE) -> None:
        """Become COMPLETE (error None) or fail with `error` and negative `status`; the caller
        then calls `_fire_hooks` (after its own bookkeeping, so that a hook sees it done)."""
        if error is None:
            if self._times is not None:
                self._times[3] = time.perf_counter_ns()
            self._status = COMPLETE
        else:
            self._error = error
            self._status = status

    @property
    def int_ptr(self) -> int:
        return id(self)

    def __repr__(self) -> str:
        return f"<loomcl.Event {command_type.to_string(self.command_type)} status {self._status}>"


class UserEvent(Event):
    """pyopencl's UserEvent(context): SUBMITTED until `set_status(COMPLETE or a negative error)`."""

    __slots__ = ("_context", "_set")

    def __init__(self, context) -> None:
        if not isinstance(context, Context):
            raise LogicError("clCreateUserEvent", status_code.INVALID_CONTEXT, f"{context!r} is not a Context")
        super().__init__(None, command_type.USER)
        self._context = context
        self._status = SUBMITTED
        self._set = False

    @property
    def context(self):
        return self._context

    def set_status(self, status: int) -> None:
        """Complete the event (COMPLETE) or fail it (a negative error code), releasing or failing the
        commands that wait for it."""
        routine = "clSetUserEventStatus"
        if isinstance(status, bool) or not isinstance(status, int) or not (status == COMPLETE or status < 0):
            raise LogicError(routine, status_code.INVALID_VALUE,
                             "status must be command_execution_status.COMPLETE or a negative error code, "
                             f"got {status!r}")
        with _HOOKS:
            if self._set:
                raise LogicError(routine, status_code.INVALID_OPERATION, "the user event's status was already set")
            self._set = True
        error = None
        if status != COMPLETE:
            error = RuntimeError("clWaitForEvents", status_code.EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST,
                                 f"a user event was set to error status {status}")
        self._settle(error, int(status))
        self._fire_hooks()

    def wait(self) -> None:
        """Block until the host sets the status (forever if it never does, as in OpenCL)."""
        wait_quietly(self)
        if self._status < 0:
            raise self._error


def wait_quietly(event: Event) -> None:
    """Block until `event` completes or fails (helping its queue if it has one); raise nothing
    about its outcome."""
    if event._status <= COMPLETE:
        return
    if event.command_queue is not None:
        event.command_queue.scheduler.help_until(event)
        return
    done = threading.Lock()
    done.acquire()
    event.add_hook(COMPLETE, lambda status: done.release())
    done.acquire()


def wait_for_events(events) -> None:
    """pyopencl's wait_for_events: block until every event completes; raise the exception of the
    first one that failed."""
    events = check_wait_list(events, "clWaitForEvents") or ()
    for event in events:
        wait_quietly(event)
    for event in events:
        if event._status < 0:
            event._raise_failure()


def check_wait_list(wait_for, routine: str) -> tuple | None:
    """A wait list (None or Events) as a tuple of Events (None when empty); INVALID_EVENT_WAIT_LIST
    names what is not an Event."""
    if not wait_for:
        return None
    events = tuple(wait_for)
    for event in events:
        if not isinstance(event, Event):
            raise LogicError(
                routine, status_code.INVALID_EVENT_WAIT_LIST, f"wait_for holds {event!r}, not an Event"
            )
    return events


def dependency_error(routine: str, failed: Event) -> RuntimeError:
    """Why a command whose wait list holds the failed event `failed` did not run."""
    cause = str(failed.error).split("\n", 1)[0] if failed.error is not None else ""
    return RuntimeError(routine, status_code.EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST,
                        f"an event in the wait list failed with status {failed._status}: {cause}")


def _reporting(callback):
    """`callback` wrapped so that an exception it raises is printed on stderr, never propagated
    into the thread that completes the event."""

    def call(status: int) -> None:
        try:
            callback(status)
        except Exception:  # noqa: BLE001 - reported, as threading reports an uncaught exception
            if sys.stderr is not None:
                sys.stderr.write(f"loomcl: exception in event callback {callback!r}:\n{traceback.format_exc()}")

    return call

