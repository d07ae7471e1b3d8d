"""Where the compiler's time goes: the driver adds the seconds of each stage here, so that
`loomcl bench --compile` can show them beside the whole build.

Stages: `frontend` (preprocess, parse, check), `lowering` (to kernel IR), `link` (separately compiled
units), `transforms` (the work-group function), `llvm-ir` (emitting LLVM IR) and `llvm` (LLVM's
optimizer and code generator, or the disk cache's answer, and loading the object). Kernels compiled
on several threads at once add up, so the sums may exceed the wall time. Always on: one clock read
per stage is nothing beside a stage.
"""
from __future__ import annotations

import threading
import time
from contextlib import contextmanager

STAGES = ("frontend", "lowering", "link", "transforms", "llvm-ir", "llvm")

_lock = threading.Lock()
_seconds: dict[str, float] = {}


@contextmanager
def timed(stage: str):
    start = time.perf_counter()
    try:
        yield
    finally:
        elapsed = time.perf_counter() - start
        with _lock:
            _seconds[stage] = _seconds.get(stage, 0.0) + elapsed


def seconds() -> dict[str, float]:
    """Each stage's total so far in this process, in STAGES order (those that ran)."""
    with _lock:
        return {stage: _seconds[stage] for stage in STAGES if stage in _seconds}


def reset() -> None:
    with _lock:
        _seconds.clear()
