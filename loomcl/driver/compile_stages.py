"""Where the compiler's time goes: the driver adds the seconds of each stage here, so that
`loomcl bench --compile` can show them beside the whole build.

Stages: `frontend` (preprocess, parse, check), `lowering` (to kernel IR), `link` (separately compiled
units), `transforms` (the work-group function), `llvm-ir` (emitting LLVM IR) and `llvm` (LLVM's
optimizer and code generator, or the disk cache's answer, and loading the object). Kernels compiled
on several threads at once add up, so the sums may exceed the wall time. Always on: two clock reads
per stage are nothing beside a stage.

Beside the wall seconds, `cpu_seconds` gives the processor seconds of the thread that ran each stage:
on a loaded machine the steadier figure. LLVM's own work runs in a compile server (jit/), so the
`llvm` stage's processor time is this process's waiting and loading, not LLVM's.
"""
from __future__ import annotations

import threading
import time
from contextlib import contextmanager

STAGES = ("frontend", "lowering", "link", "transforms", "llvm-ir", "llvm")

_lock = threading.Lock()
_seconds: dict[str, float] = {}
_cpu_seconds: dict[str, float] = {}


@contextmanager
def timed(stage: str):
    start, cpu_start = time.perf_counter(), time.thread_time()
    try:
        yield
    finally:
        elapsed, cpu = time.perf_counter() - start, time.thread_time() - cpu_start
        with _lock:
            _seconds[stage] = _seconds.get(stage, 0.0) + elapsed
            _cpu_seconds[stage] = _cpu_seconds.get(stage, 0.0) + cpu


def seconds() -> dict[str, float]:
    """Each stage's total wall time so far in this process, in STAGES order (those that ran)."""
    with _lock:
        return {stage: _seconds[stage] for stage in STAGES if stage in _seconds}


def cpu_seconds() -> dict[str, float]:
    """Each stage's total processor time so far (of the threads that ran it), in STAGES order."""
    with _lock:
        return {stage: _cpu_seconds[stage] for stage in STAGES if stage in _cpu_seconds}


def reset() -> None:
    with _lock:
        _seconds.clear()
        _cpu_seconds.clear()
