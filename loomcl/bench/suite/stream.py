"""Streaming and memory-layout cases: copyBuffer, saxpy, transpose, 2D stencil."""
from __future__ import annotations

import numpy as np

from ..case import EXACT, Buf, Case, Launch, Problem, Tolerance
from .common import count_label, uniform


def copy_setup(n, rng):
    a = uniform(rng, n)
    dst = np.empty_like(a)
    return Problem(
        size=count_label(n),
        buffers={"in": a, "out": np.zeros_like(a)},
        launches=[Launch("copyBuffer", (n,), (256,), (Buf("in"), Buf("out")))],
        reference=lambda: {"out": a},
        numpy=lambda: np.copyto(dst, a),
        bytes=8 * n, flops=0)


def saxpy_setup(n, rng):
    x, y = uniform(rng, n), uniform(rng, n)
    a = np.float32(2.5)
    return Problem(
        size=count_label(n),
        buffers={"x": x, "y": y},
        launches=[Launch("saxpy", (n,), (256,), (a, Buf("x"), Buf("y")))],
        reference=lambda: {"y": a * x.astype(np.float64) + y},
        numpy=lambda: a * x + y,
        reset=("y",), bytes=12 * n, flops=2 * n)


def transpose_setup(n, rng):
    a = uniform(rng, (n, n))
    return Problem(
        size=f"{n}x{n}",
        buffers={"in": a, "out": np.zeros_like(a)},
        launches=[Launch("transpose", (n, n), (16, 16),
                         (Buf("out"), Buf("in"), np.int32(n), np.int32(n)))],
        reference=lambda: {"out": a.T},
        numpy=lambda: np.ascontiguousarray(a.T),
        bytes=8 * n * n, flops=0)


def stencil(a, centre, neighbour, dtype=np.float64):
    out = a.astype(dtype)
    around = a[1:-1, :-2] + a[1:-1, 2:] + a[:-2, 1:-1] + a[2:, 1:-1]
    out[1:-1, 1:-1] = centre * a[1:-1, 1:-1] + neighbour * around
    return out


def stencil_setup(n, rng):
    a = uniform(rng, (n, n))
    centre, neighbour = np.float32(0.5), np.float32(0.125)
    return Problem(
        size=f"{n}x{n}",
        buffers={"in": a, "out": np.zeros_like(a)},
        launches=[Launch("stencil5", (n, n), (64, 4),
                         (Buf("in"), Buf("out"), np.int32(n), np.int32(n), centre, neighbour))],
        reference=lambda: {"out": stencil(a, centre, neighbour)},
        numpy=lambda: stencil(a, centre, neighbour, np.float32),
        bytes=8 * n * n, flops=6 * n * n)


CASES = [
    Case("copyBuffer", "stream", "001 listing 15-1", "stream.cl", copy_setup,
         quick=1 << 16, full=1 << 24, tolerance=EXACT),
    Case("saxpy", "stream", "BLAS level 1", "stream.cl", saxpy_setup,
         quick=1 << 16, full=1 << 24, tolerance=Tolerance(rtol=1e-6, atol=1e-6)),
    Case("transpose", "stream", "000 Table 1 MatrixTranspose (SDK)", "transpose.cl", transpose_setup,
         quick=256, full=4096, tolerance=EXACT),
    Case("stencil5", "stream", "Parboil/SHOC stencil, 2D", "stream.cl", stencil_setup,
         quick=256, full=4096, tolerance=Tolerance(rtol=1e-5, atol=1e-6)),
]
