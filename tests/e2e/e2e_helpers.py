"""Helpers of the end-to-end tests, imported by conftest.py and the test modules."""
from __future__ import annotations

import numpy as np

import loomcl as cl

VARIANTS = ("explicit", "none", "ragged")

_programs: dict = {}


def build(ctx, src: str, options: str = ""):
    """A built program, cached per (source, options) for the session."""
    key = (id(ctx), src, options)
    prg = _programs.get(key)
    if prg is None:
        prg = _programs[key] = cl.Program(ctx, src).build(options=options)
    return prg


def launch(ctx, queue, src, name, global_size, local_size, *args, options="", global_offset=None):
    """Build `src`, launch kernel `name` and return the host arrays of all numpy-array arguments
    (copied back after the launch), in argument order. Arrays become READ_WRITE buffers holding
    copies of their data; numpy scalars, LocalMemory and Buffers pass through unchanged."""
    prg = build(ctx, src, options)
    kernel = getattr(prg, name)
    mf = cl.mem_flags
    call_args, arrays = [], []
    for arg in args:
        if isinstance(arg, np.ndarray):
            host = np.ascontiguousarray(arg).copy()
            buf = cl.Buffer(ctx, mf.READ_WRITE | mf.COPY_HOST_PTR, hostbuf=host)
            arrays.append((host, buf))
            call_args.append(buf)
        else:
            call_args.append(arg)
    kernel(queue, global_size, local_size, *call_args, global_offset=global_offset)
    for host, buf in arrays:
        cl.enqueue_copy(queue, host, buf)
    queue.finish()
    return [host for host, _ in arrays]


def shape(variant: str, full, local, ragged):
    """(global_size, local_size) of a variant: `full` is a multiple of `local`, `ragged` is not."""
    if variant == "explicit":
        return full, local
    if variant == "none":
        return full, None
    assert variant == "ragged"
    assert any(g % l for g, l in zip(as_tuple(ragged), as_tuple(local))), "a ragged size must not divide"
    return ragged, local


def as_tuple(v):
    return tuple(v) if isinstance(v, (tuple, list)) else (v,)


def group_ranges(n: int, group_sizes: np.ndarray):
    """The [start, stop) ranges of consecutive 1D work-groups with the given actual sizes."""
    stops = np.cumsum(group_sizes)
    assert stops[-1] == n, f"groups cover {stops[-1]} items, not {n}"
    return list(zip(np.concatenate([[0], stops[:-1]]), stops))


def ulp32(x) -> np.ndarray:
    """The float32 unit in the last place at each of `x`."""
    x = np.abs(np.asarray(x, dtype=np.float64)).astype(np.float32)
    return np.spacing(x).astype(np.float64)


def assert_ulp(actual, expected, ulps: float, what: str = "") -> None:
    """float32 results within `ulps` units in the last place of a float64 reference."""
    actual = np.asarray(actual, dtype=np.float64)
    expected = np.asarray(expected, dtype=np.float64)
    error = np.abs(actual - expected) / ulp32(expected)
    worst = int(np.argmax(error))
    assert error[worst] <= ulps, (
        f"{what}: {error[worst]:.1f} ulp at index {worst}: got {actual.flat[worst]!r}, "
        f"expected {expected.flat[worst]!r} (limit {ulps} ulp)"
    )
