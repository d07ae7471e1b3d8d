"""A command: what one enqueue call recorded on its queue, to be run later (scheduler.py).

The enqueue call checks everything it can (a bad argument raises there, as in OpenCL) and captures
what the command needs: its `work` is a callable that does the command and holds every object it
touches (buffers' memory, host arrays, a kernel's argument block), so that nothing it uses is freed
or changed before it runs. Two kinds of dependencies: `wait_for`, the events the caller named (a
failed one fails the command with EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST), and `after`, the order
an out-of-order queue's markers and barriers impose (they wait, but a failure does not spread).
"""
from __future__ import annotations

from loomcl.errors import KernelInterruptedError, status_code

from .event import COMPLETE, Event


class Command:
    """One enqueued command: its event, its dependencies and its work (None for a marker or barrier)."""

    __slots__ = ("event", "routine", "work", "wait_for", "after", "sequence")

    def __init__(self, event: Event, routine: str, work, wait_for: tuple | None) -> None:
        self.event = event
        self.routine = routine
        self.work = work
        self.wait_for = wait_for or ()
        self.after = ()
        self.sequence = 0  # its place in the queue, set by the scheduler

    def ready(self) -> bool:
        """Every event it waits for has completed or failed."""
        for event in self.wait_for:
            if event._status > COMPLETE:
                return False
        for event in self.after:
            if event._status > COMPLETE:
                return False
        return True

    def failed_dependency(self) -> Event | None:
        """A failed event of its wait list, if there is one."""
        for event in self.wait_for:
            if event._status < 0:
                return event
        return None

    def interruption(self, cause: BaseException) -> KernelInterruptedError:
        """The failure of a command that `cause` (KeyboardInterrupt, SystemExit) stopped."""
        return KernelInterruptedError(self.routine, status_code.OUT_OF_RESOURCES,
                                      f"the command was interrupted ({type(cause).__name__}) before it finished")


def failure_status(error: BaseException) -> int:
    """The negative execution status of a command that failed with `error`: the error's status
    code (loomcl's errors carry one), else OUT_OF_RESOURCES."""
    code = getattr(error, "code", None)
    if isinstance(code, int) and code < 0:
        return code
    return status_code.OUT_OF_RESOURCES


class Copy:
    """The work of a copy: `target[...] = source` for two numpy views (held by the work, so their
    memory outlives the command)."""

    __slots__ = ("target", "source")

    def __init__(self, target, source) -> None:
        self.target, self.source = target, source

    @property
    def nbytes(self) -> int:
        return self.target.nbytes

    def __call__(self) -> None:
        self.target[...] = self.source
