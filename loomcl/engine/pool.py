"""The process-wide worker pool that runs the work-groups of every launch.

One pool per process, started lazily on the first launch that is worth sharing: `threads - 1` daemon
threads, each parked inside the JIT-ed `loomcl_pool_worker` (engine/native_pool.py generates it and
explains the protocol and why it is native). The calling thread always takes part, so `threads=1` runs
everything on the caller, which is the debugging mode (`LOOMCL_THREADS=1`).

Each participant owns a local-memory arena (pocl 4.7: reused across the groups it runs). Arenas are
grown here, between launches, when a launch needs more than they hold; the native code only reads the
arena table. Each participant also owns a guard slot (engine/guard.py: its recovery point when a
kernel faults or Ctrl-C stops a launch). The guard's fault handlers are installed when the pool boots;
its SIGINT handler goes in front of Python's whenever Python installed its own anew (signal.signal)
since the last launch, and only while SIGINT is handled (by Python, or by a C host that embeds Python
through the ICD; not under SIG_DFL or SIG_IGN, whose meaning stays).

A pool of the default size yields to other processes (engine/contention.py): every INTERVAL_S a
launch samples the cores the others use, and the launches after it run on the cores they leave
(`participants`, never fewer than the caller), with workers that sleep at once instead of spinning
while the others use any. `LOOMCL_THREADS` or `set_thread_count` fix the count (the spinning still
yields).
"""
from __future__ import annotations

import atexit
import ctypes
import math
import os
import _signal
import threading
import time

import numpy as np

from loomcl.abi.kernel import LOCAL_ALIGN
from loomcl.engine.contention import BUSY_THRESHOLD, CoreShare, participants
from loomcl.engine.guard import CANCEL_SIGNAL, SLOT_BYTES, STATUS_FAULT, FaultRecord
from loomcl.engine.native_pool import CHUNKS_PER_THREAD, MAX_CHUNK, SPIN_BUSY, SPIN_ITERATIONS, NativePool
from loomcl.host import allowed_cpus, available_cores, cpu_quota

INITIAL_ARENA_BYTES = 64 * 1024
SIGINT = int(_signal.SIGINT)
_UNSEEN = object()  # no SIGINT handler seen yet


def thread_count_is_fixed() -> bool:
    """Whether `LOOMCL_THREADS` fixes the pool's size (else it follows the cores others leave)."""
    return bool(os.environ.get("LOOMCL_THREADS", "").strip())


def default_thread_count() -> int:
    """`LOOMCL_THREADS` if set to a positive integer, else one thread per available core (at most the
    cores' worth of CPU time the process's cgroup allows, rounded up)."""
    text = os.environ.get("LOOMCL_THREADS", "").strip()
    if text:
        try:
            value = int(text)
        except ValueError:
            value = 0
        if value >= 1:
            return value
        raise ValueError(f"LOOMCL_THREADS must be a positive integer, got {text!r}")
    quota = cpu_quota()
    return available_cores() if quota is None else max(1, min(available_cores(), math.ceil(quota)))


class LaunchFailure:
    """Why a launch stopped early: its status (guard.STATUS_*) and, for a fault, what faulted."""

    __slots__ = ("status", "fault")

    def __init__(self, status: int, fault: FaultRecord | None) -> None:
        self.status, self.fault = status, fault


class WorkerPool:
    """Native worker threads plus the caller, sharing the groups of one launch at a time."""

    def __init__(self, threads: int, adaptive: bool = False) -> None:
        self._lock = threading.Lock()
        self._native: NativePool | None = None
        self._threads = max(1, int(threads))
        self._active = self._threads  # participants now: the cores that other processes leave
        self._adaptive = adaptive
        self._share = CoreShare(allowed_cpus(), quota=cpu_quota())
        self._spin = SPIN_ITERATIONS
        self._started: list[threading.Thread] = []
        self._arena_bytes = -1  # forces _prepare (and the JIT) on the first launch
        self._arena_memory: list[np.ndarray] = []
        self._arena_table = None
        self._shut_down = False
        self._workers_wanted = self._threads > 1
        self._slot_tables: list[np.ndarray] = []  # every table stays: a signal handler may read an old one
        self._interrupt_handler = _UNSEEN
        self._guarded_threads = threading.local()

    @property
    def thread_count(self) -> int:
        """Threads that take part in a launch, the caller included."""
        return self._threads

    def set_thread_count(self, threads: int) -> None:
        """Use `threads` participants from the next launch on (1 = run on the caller only)."""
        threads = int(threads)
        if threads < 1:
            raise ValueError(f"thread count must be at least 1, got {threads}")
        with self._lock:
            self._threads = self._active = threads
            self._adaptive = False
            self._update_wanted()
            if self._native is not None:
                self._configure()

    def chunk_size(self, groups: int) -> int:
        """Groups claimed at a time (the native launch computes the same): ~CHUNKS_PER_THREAD chunks
        per thread, for dynamic load balance."""
        return max(1, min(MAX_CHUNK, groups // (self._active * CHUNKS_PER_THREAD)))

    def run(self, request: ctypes.c_void_p, total_groups: int, arena_bytes: int, block=None,
            image: bytes = b"") -> LaunchFailure | None:
        """Run a launch (`request` points to a worker_pool.LaunchRequest); returns when all its
        groups are done, or when a fault or Ctrl-C stopped it (then says why). Threads start on the
        first launch with more than one group. With `block` (a byte view of the argument block the
        launch reads), `image` is copied there first, under the lock that makes launches take turns."""
        if arena_bytes > self._arena_bytes or self._workers_wanted and total_groups > 1:
            with self._lock:
                self._prepare(arena_bytes, total_groups)
        if not hasattr(self._guarded_threads, "ready"):
            self._guard_thread()
        handler = _signal.getsignal(SIGINT)  # (signal.getsignal wraps it in an enum: ~50x slower)
        lock = self._lock  # (acquire and release: a `with` costs 0.14 µs more on the launch path)
        lock.acquire()
        try:
            if handler is not self._interrupt_handler:
                self._install_interrupt(handler)
            if time.monotonic() >= self._share.next_due and self._native is not None:
                self._yield_to_others()
            if block is not None:
                block[:] = image
            status = self._call(request)
            if status:
                return LaunchFailure(status, self._native.last_fault() if status == STATUS_FAULT else None)
        finally:
            lock.release()
        return None

    def warm_up(self, total_groups: int) -> None:
        """Do now what the first launch of `total_groups` groups would do before running them (the
        JIT of the native pool, the arenas, the worker threads), so a profiled launch times only
        its kernel. Called when a launch of a new shape is enqueued, so it never waits for a launch
        that runs (it holds the lock, maybe for seconds): then that launch's successor prepares."""
        if self._native is None:
            with self._lock:  # (no launch can run before the pool exists: only another boot waits)
                self._prepare(0, total_groups)
        elif self._workers_wanted and total_groups > 1 and self._lock.acquire(blocking=False):
            try:
                self._prepare(0, total_groups)
            finally:
                self._lock.release()
        if not hasattr(self._guarded_threads, "ready"):
            self._guard_thread()

    def _yield_to_others(self) -> None:
        """Resample the cores other processes use; spin and run on the rest (under the lock)."""
        others = self._share.others()
        if others is None:
            return
        spin = SPIN_BUSY if others >= BUSY_THRESHOLD else SPIN_ITERATIONS
        if spin != self._spin:
            self._spin = spin
            self._native.set_spin(spin)
        share = self._share
        active = participants(self._threads, share.cores, others, share.quota) if self._adaptive else self._threads
        if active != self._active:
            self._active = active
            self._configure()

    @property
    def participants(self) -> int:
        """Threads that ran the last launch: the thread count, less the cores other processes use."""
        return self._active

    def _guard_thread(self) -> None:
        """Give a thread that launches an alternate signal stack (a stack overflow in its kernel
        code is then caught too). Per thread, so it needs the lock only to boot the pool."""
        if self._native is None:
            with self._lock:
                if self._native is None:
                    self._boot()
        self._native.thread_setup()
        self._guarded_threads.ready = True

    def _install_interrupt(self, handler) -> None:
        # None: a handler that Python did not install (a C host's, whose call then returns an error)
        if callable(handler) or handler is None:
            self._native.install_interrupt()
        self._interrupt_handler = handler

    def _prepare(self, arena_bytes: int, total_groups: int) -> None:
        if self._native is None:
            self._boot()
        if arena_bytes > self._arena_bytes:
            self._grow_arenas(arena_bytes)
        if self._workers_wanted and total_groups > 1:
            self._start_workers()

    def _update_wanted(self) -> None:
        """Whether workers are wanted that have not been started yet (checked on every launch)."""
        self._workers_wanted = len(self._started) < self._threads - 1 and not self._shut_down

    def _boot(self) -> None:
        self._native = NativePool()
        self._native.install_guard(CANCEL_SIGNAL)
        self._call = self._native.run
        self._grow_arenas(INITIAL_ARENA_BYTES)
        atexit.register(self.shutdown)

    def _grow_arenas(self, needed: int) -> None:
        size = max(needed, 2 * max(self._arena_bytes, 0), INITIAL_ARENA_BYTES)
        size = -(-size // LOCAL_ALIGN) * LOCAL_ALIGN
        slots = max(self._threads, len(self._started) + 1)
        memory = [_aligned_bytes(size) for _ in range(slots)]
        table = (ctypes.c_void_p * slots)(*(m.ctypes.data for m in memory))
        self._arena_memory, self._arena_table, self._arena_bytes = memory, table, size
        if slots > self._slot_count():
            self._slot_tables.append(_aligned_bytes(slots * SLOT_BYTES))
        self._configure()

    def _slot_count(self) -> int:
        return len(self._slot_tables[-1]) // SLOT_BYTES if self._slot_tables else 0

    def _start_workers(self) -> None:
        """Start threads up to `threads - 1` workers (never stopped; extra ones park)."""
        if self._shut_down:
            return
        wanted = self._threads - 1
        if len(self._arena_memory) < wanted + 1:
            self._grow_arenas(self._arena_bytes)
        worker = self._native.worker
        while len(self._started) < wanted:
            index = len(self._started)
            thread = threading.Thread(
                target=worker, args=(index,), name=f"loomcl-worker-{index}", daemon=True
            )
            thread.start()
            self._started.append(thread)
        self._configure()

    def _configure(self) -> None:
        self._update_wanted()
        allowed = min(self._active - 1, len(self._started))
        slots = self._slot_tables[-1]
        self._native.configure(allowed, int(self._shut_down), ctypes.addressof(self._arena_table),
                               slots.ctypes.data, self._slot_count())

    def shutdown(self) -> None:
        """Let the workers leave native code (at interpreter exit); later launches run on the caller."""
        with self._lock:
            if self._native is None or self._shut_down:
                return
            self._shut_down = True
            self._configure()
            threads, self._started = self._started, []
        for thread in threads:
            thread.join(timeout=1.0)


def _aligned_bytes(size: int) -> np.ndarray:
    raw = np.zeros(size + LOCAL_ALIGN, dtype=np.uint8)
    skip = (-raw.ctypes.data) % LOCAL_ALIGN
    return raw[skip : skip + size]


_pool: WorkerPool | None = None
_pool_lock = threading.Lock()


def get_pool() -> WorkerPool:
    """The process's pool, created on first use with `default_thread_count()` threads."""
    global _pool
    if _pool is None:
        with _pool_lock:
            if _pool is None:
                _pool = WorkerPool(default_thread_count(), adaptive=not thread_count_is_fixed())
    return _pool


def _forget_pool_in_child() -> None:
    """A forked child has none of the parent's worker threads: give it a fresh pool (and engine). The
    parent's guard handlers stay installed under the child's (they chain to them): empty their slot
    table, so that they never take a thread of the child for one of the parent's participants."""
    global _pool, _pool_lock
    if _pool is not None and _pool._native is not None:
        _pool._native.configure(0, 1, None, None, 0)
    _pool, _pool_lock = None, threading.Lock()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_forget_pool_in_child)


def set_thread_count(threads: int) -> None:
    """Change how many threads (caller included) run the groups of later launches."""
    get_pool().set_thread_count(threads)


def get_thread_count() -> int:
    return get_pool().thread_count
