"""The execution of one command queue's commands (an Event each: event.py), in the background.

Order. In an in-order queue the oldest pending command runs once nothing else of the queue runs and
its wait list is complete. In an out-of-order queue (OUT_OF_ORDER_EXEC_MODE_ENABLE) any pending
command whose dependencies are complete may run, several at once; a barrier waits for every command
enqueued before it (or only for its wait list) and every later command waits for the barrier; a
marker without a wait list waits for every command before it (OpenCL 1.2 sec. 5.10).

Who runs a command. The queue's executor, a daemon thread started when work is first handed to it,
which sleeps on a wake token (a lock) while nothing is ready and ends after IDLE_SECONDS without
work; or a thread that waits for the queue (finish, Event.wait, a blocking call, wait_for_events):
rather than sleeping until the executor has done the work, it runs the ready commands itself
("waiters help").

When the executor gets work. Waking a thread costs more than a small command (the woken thread and
the waiting one then take turns for the GIL: 10-50 us a launch measured, against ~2 us for running
it on the waiter), so a small command waits where OpenCL lets it wait, until the queue is flushed
(flush(), a wait, a blocking call: OpenCL 1.2 sec. 5.13 guarantees nothing sooner), and a big one
(`hand_off`: a kernel of engine/launch_plan.py's HAND_OFF_WORK_ITEMS work-items or more, a transfer of HAND_OFF_BYTES or
more) wakes the executor at once, which then also runs the small ones before it. A completed
dependency (a user event, another queue's command), a callback registration and a status query also
flush, and a command that waits for another queue's command flushes that queue. A waiter that takes
the command the executor was just woken for takes the wake back when nothing else is ready, so the
executor sleeps on.

Failures. A command's exception is kept on its event (negative status). finish() raises the first
failure of the queue that no wait has raised yet; a blocking call on an in-order queue raises its own
or else the first such failure of a command before it. An interrupted command (KernelInterruptedError:
Ctrl-C already went to Python's SIGINT handler) is raised only by waits on its own event.

At exit. What can still run runs (a last launch that prints, never waited for); failures nobody
observed are reported on stderr.

Threads. Any thread may enqueue, wait or finish. Hooks and callbacks are called without the
scheduler's lock held, after the bookkeeping that makes a completed command visible.

Cost. A launch followed by finish() is the loop a Python user writes, so its path is short: one
object per command (the Event is the command), the queue's lock taken once by enqueue and twice by
the waiter that runs it (to take it, then to make it done and see what is left).
"""
from __future__ import annotations

import atexit
import itertools
import os
import sys
import threading
import weakref
from collections import deque

from loomcl.errors import KernelInterruptedError, trimmed

from . import interrupts
from .command import failure_status
from .constants import command_type
from .event import COMPLETE, RUNNING, SUBMITTED, Event, dependency_error

IDLE_SECONDS = 5.0
HAND_OFF_BYTES = 1 << 20
_ORDERING = (command_type.MARKER, command_type.BARRIER)
_schedulers: weakref.WeakSet = weakref.WeakSet()  # for the fork handler


class Scheduler:
    """The pending and running commands of one queue, and the threads that run them."""

    def __init__(self, out_of_order: bool) -> None:
        self.out_of_order = out_of_order
        self._pending: deque[Event] = deque()  # enqueued and not started, oldest first
        self._running: set[Event] = set()
        self._sequence = itertools.count()
        self._barrier: Event | None = None  # out of order: every later command waits for it
        self._unreported: list[tuple[int, Event]] = []  # (sequence, failed event) no wait raised yet
        self._reset_threads()
        _schedulers.add(self)

    def _reset_threads(self) -> None:
        self._lock = threading.Lock()
        self._progress = threading.Condition(self._lock)  # a command completed or became ready
        self._waiters = 0
        self._thread: threading.Thread | None = None
        self._asleep = False  # the executor waits for the wake token
        self._wake = threading.Lock()
        self._wake.acquire()

    # -- recording ---------------------------------------------------------------------------------

    def enqueue(self, command: Event, hand_off: bool) -> None:
        """Record `command`; with `hand_off`, wake the executor for it (and what is before it)."""
        if not (hand_off or self.out_of_order):
            # (the launch path: taking a number and appending are each atomic under the GIL, and
            # whoever takes commands reads the deque under the lock, so this needs no lock)
            command.sequence = next(self._sequence)
            self._pending.append(command)
        else:
            lock = self._lock
            lock.acquire()
            try:
                if self.out_of_order:
                    self._order_locked(command)
                command.sequence = next(self._sequence)
                self._pending.append(command)
                if hand_off:
                    self._wake_if_ready_locked()
            finally:
                lock.release()
        if command.wait_for:
            self._watch(command.wait_for)

    def _watch(self, wait_for: tuple) -> None:
        """Events of other queues and user events poke this queue when they complete."""
        for event in wait_for:
            if event._status > COMPLETE and (event.command_queue is None or event.command_queue.scheduler is not self):
                event.add_hook(COMPLETE, self._dependency_done)
                if event.command_queue is not None:  # (OpenCL asks the user to flush it; do it for them)
                    event.command_queue.scheduler.flush()

    def _order_locked(self, command: Event) -> None:
        kind = command.command_type
        before = list(self._pending) + list(self._running) if kind in _ORDERING and not command.wait_for else []
        if self._barrier is not None and self._barrier._status > COMPLETE:
            before.append(self._barrier)
        command.after = tuple(before) or None
        if kind == command_type.BARRIER:
            self._barrier = command

    def _dependency_done(self, status: int) -> None:
        with self._lock:
            if self._waiters:
                self._progress.notify_all()
            self._wake_if_ready_locked()

    def flush(self) -> None:
        """Hand every ready command to the executor."""
        if self._pending:
            with self._lock:
                self._wake_if_ready_locked()

    # -- choosing ----------------------------------------------------------------------------------

    def _next_locked(self) -> Event | None:
        """The command to run next, if one may start now."""
        pending = self._pending
        if not pending:
            return None
        if not self.out_of_order:
            if self._running:
                return None
            head = pending[0]
            return head if head.wait_for is None or head.ready() else None
        for command in pending:
            if command.ready():
                return command
        return None

    def _take_locked(self) -> Event | None:
        pending = self._pending
        if not self.out_of_order:  # (the common case, inlined)
            if self._running or not pending or pending[0].wait_for is not None and not pending[0].ready():
                return None
            command = pending.popleft()
        else:
            command = self._next_locked()
            if command is None:
                return None
            pending.remove(command)
        self._running.add(command)
        return command

    # -- running -----------------------------------------------------------------------------------

    def _execute(self, command: Event) -> BaseException | None:
        """Run a taken command on this thread, without the lock: SUBMITTED, RUNNING, its work.
        Returns its failure; the caller then makes it done (`_done_locked`, then its hooks)."""
        try:
            command._advance(SUBMITTED)
            failed = command.failed_dependency() if command.wait_for is not None else None
            if failed is not None:
                return dependency_error(command.routine, failed)
            command._advance(RUNNING)
            if command.work is not None:
                command.work(*command.work_args)
        except Exception as exc:  # noqa: BLE001 - the command's failure, kept on its event
            return exc
        return None

    def _done_locked(self, command: Event, error: BaseException | None) -> None:
        """Make a run command visible as done (COMPLETE or failed); its hooks are called next,
        without the lock."""
        if error is None:
            if command._times is not None:
                command._settle(None)
            else:
                command._status = COMPLETE
        else:
            if not isinstance(error, KernelInterruptedError):  # listed before the status shows
                self._unreported.append((command.sequence, command))
            command._settle(error, failure_status(error))
        # what they held may go now; and a done event holds no other event (a chain of launches
        # each waiting for the one before would otherwise keep every event alive)
        command.work = command.work_args = command.wait_for = command.after = None
        self._running.discard(command)
        if self._waiters:
            self._progress.notify_all()

    def _run(self, command: Event) -> None:
        """Run a taken command and make it done (the executor's and drain's way)."""
        error = None
        try:
            error = self._execute(command)
        except BaseException as exc:  # (SystemExit in a callback): it is settled, then goes on
            error = command.interruption(exc)
            raise
        finally:
            with self._lock:
                self._done_locked(command, error)
            if command._hooks is not None:  # (read after the status: a hook added meanwhile is not lost)
                command._fire_hooks()

    # -- the executor thread -----------------------------------------------------------------------

    def _wake_if_ready_locked(self) -> None:
        if self._next_locked() is None:
            return
        if self._thread is None:
            self._thread = threading.Thread(target=self._serve, name="loomcl-queue", daemon=True)
            self._thread.start()
        elif self._asleep:
            self._asleep = False
            self._wake.release()

    def _take_back_wake_locked(self) -> None:
        """A helper took the command the executor may have been woken for: if nothing else is
        ready, keep the executor asleep by taking its wake token back before it wakes."""
        if self._next_locked() is None and self._wake.acquire(blocking=False):
            self._asleep = True

    def _serve(self) -> None:
        try:
            while True:
                with self._lock:
                    command = self._take_locked()
                    if command is None:
                        self._asleep = True
                if command is not None:
                    self._run(command)
                elif not self._sleep():
                    return
        except BaseException:  # (SystemExit from a callback): the next wake starts a new executor
            with self._lock:
                self._thread, self._asleep = None, False
            raise

    def _sleep(self) -> bool:
        """Wait for the wake token; False when the thread should end (idle too long)."""
        if self._wake.acquire(timeout=IDLE_SECONDS):
            return True
        with self._lock:
            if self._asleep:  # nobody woke it: end; the next wake starts a new thread
                self._asleep = False
                self._thread = None
                return False
        self._wake.acquire()  # a wake raced with the timeout: its token is there
        return True

    # -- waiting -----------------------------------------------------------------------------------

    def help_until(self, event: Event | None = None) -> None:
        """Block until `event` completes or fails, running the queue's ready commands on this thread
        meanwhile. With None (the queue's finish()): until every command of the queue has, then
        raise the first failure no wait has raised."""
        lock = self._lock
        lock.acquire()
        try:
            while (self._pending or self._running) if event is None else event._status > COMPLETE:
                pending = self._pending
                if not self.out_of_order and pending and not self._running and pending[0].wait_for is None:
                    command = pending.popleft()  # (_take_locked's common case, inlined)
                    self._running.add(command)
                else:
                    command = self._take_locked()
                    if command is None:
                        self._waiters += 1
                        try:
                            self._progress.wait()
                        except KeyboardInterrupt as exc:  # (the executor runs it: its launch stops too)
                            if not interrupts.defer(exc):
                                raise
                        finally:
                            self._waiters -= 1
                        continue
                if self._thread is not None and not self._asleep:
                    self._take_back_wake_locked()
                lock.release()
                error = None
                try:
                    if command._times is None and command._hooks is None and command.wait_for is None:
                        # (_execute's common case, inlined: nothing can tell SUBMITTED from RUNNING)
                        command._status = RUNNING
                        if command.work is not None:
                            try:
                                command.work(*command.work_args)
                            except Exception as exc:  # noqa: BLE001 - the command's failure
                                error = exc
                    else:
                        error = self._execute(command)
                except BaseException as exc:  # Ctrl-C while it ran here: settle it, then go on
                    error = command.interruption(exc)
                    if not interrupts.defer(exc):  # (within an ICD call: the wait goes on)
                        raise
                finally:
                    lock.acquire()
                    if error is None and command._times is None:  # (_done_locked's common case, inlined)
                        command._status = COMPLETE
                        command.work = command.work_args = command.wait_for = command.after = None
                        self._running.discard(command)
                        if self._waiters:
                            self._progress.notify_all()
                    else:
                        self._done_locked(command, error)
                    if command._hooks is not None:
                        lock.release()
                        try:
                            command._fire_hooks()
                        finally:
                            lock.acquire()
            if self._pending:
                self._wake_if_ready_locked()
        finally:
            lock.release()
        if event is None and self._unreported:
            self._raise_unreported(None)

    finish = help_until  # (one call less on the launch-and-finish path)

    def drain(self) -> None:
        """Run what is ready until nothing more can run (no waiting for user events); report on
        stderr the failures no wait raised."""
        with self._lock:
            while self._pending or self._running:
                command = self._take_locked()
                if command is not None:
                    self._lock.release()
                    try:
                        self._run(command)
                    finally:
                        self._lock.acquire()
                elif not self._running or not self._progress.wait(timeout=IDLE_SECONDS):
                    break
            failures, self._unreported = self._unreported, []
        for _, event in failures:
            if sys.stderr is not None:
                sys.stderr.write(f"loomcl: a command nobody waited for failed: {event.error}\n")

    def wait_blocking(self, command: Event) -> None:
        """The wait of a blocking call: its own failure, or (in order) an earlier command's."""
        self.help_until(command)
        if command._status < 0:
            command._raise_failure()
        if self._unreported and not self.out_of_order:
            self._raise_unreported(command.sequence)

    def _raise_unreported(self, before: int | None) -> None:
        with self._lock:
            failures = [entry for entry in self._unreported if before is None or entry[0] < before]
            if not failures:
                return
            self._unreported = [entry for entry in self._unreported if entry not in failures]
        raise trimmed(failures[0][1].error)

    def reported(self, event: Event) -> None:
        """A wait raised `event`'s failure: finish and blocking calls need not raise it again."""
        if self._unreported:
            with self._lock:
                self._unreported = [entry for entry in self._unreported if entry[1] is not event]


def _run_what_is_left() -> None:
    """At interpreter exit: run every command that can still run (one enqueued and never waited for,
    such as a last launch that prints), and say on stderr which of them failed. Commands held back
    by a user event nobody completes stay where they are."""
    for scheduler in list(_schedulers):
        try:
            scheduler.drain()
        except BaseException:  # noqa: BLE001 - exit goes on; a failure was reported by drain
            pass


def _forget_threads_in_child() -> None:
    """A forked child has none of the parent's executor threads: every queue starts afresh."""
    for scheduler in list(_schedulers):
        scheduler._reset_threads()


atexit.register(_run_what_is_left)
if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_forget_threads_in_child)
