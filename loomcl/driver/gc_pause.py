"""The cyclic garbage collector paused while the compiler builds large object graphs.

A big program's syntax tree and kernel IR are millions of objects, nearly all alive until the stage
ends; each full collection walks all of them, and the collector starts one every few hundred
thousand allocations. On hashcat's MD5 kernels that was a third of lowering's time and a sixth of the
front-end's. Reference counting still frees what it can meanwhile; cycles wait for the next
collection after the pause. Pauses nest and may overlap across threads: the collector runs again
when the last one ends (if it was running before the first began).
"""
from __future__ import annotations

import gc
import threading
from contextlib import contextmanager

_lock = threading.Lock()
_depth = 0
_was_enabled = False


@contextmanager
def collector_paused():
    global _depth, _was_enabled
    with _lock:
        if _depth == 0:
            _was_enabled = gc.isenabled()
            gc.disable()
        _depth += 1
    try:
        yield
    finally:
        with _lock:
            _depth -= 1
            if _depth == 0 and _was_enabled:
                gc.enable()
