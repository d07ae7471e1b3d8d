"""What a benchmark row is: a `Case` (the kernel, where it comes from, its sizes and tolerance) and the
`Problem` its setup builds for one size (buffers, launches, numpy reference, bytes and flops).

A case is data, not code that talks to OpenCL: the runner turns a `Problem` into buffers and launches on
each implementation, so that every implementation runs exactly the same launches on the same inputs.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Callable

import numpy as np

KERNEL_DIR = Path(__file__).parent / "kernels"


@dataclass(frozen=True)
class Buf:
    """A kernel argument that names one of the problem's buffers."""
    name: str


@dataclass(frozen=True)
class Local:
    """A `__local` pointer argument of `nbytes` (pyopencl's LocalMemory)."""
    nbytes: int


@dataclass(frozen=True)
class Launch:
    """One NDRange launch: kernel name, global and local size, arguments (Buf, Local or numpy scalars)."""
    kernel: str
    global_size: tuple[int, ...]
    local_size: tuple[int, ...] | None
    args: tuple


@dataclass(frozen=True)
class Tolerance:
    """|result - reference| <= atol + rtol * |reference|, elementwise; `max_bad_fraction` of the elements
    may fail that (for kernels whose float rounding legitimately flips a few outputs, like Mandelbrot's
    escape counts near the set's boundary)."""
    rtol: float = 0.0
    atol: float = 0.0
    max_bad_fraction: float = 0.0


EXACT = Tolerance()


@dataclass
class Problem:
    """One case at one size, ready to run.

    buffers: initial contents of every buffer (all are allocated READ_WRITE and filled from these).
    launches: enqueued in order for one run; a run's time is all of them.
    reference: numpy computation of the expected contents of the checked buffers (name -> array); a
        buffer is compared on its first `expected.size` elements.
    numpy: a numpy computation doing the same job, timed for the numpy column (None if numpy has no
        equivalent: a reference written as a slow loop is not a fair comparison).
    reset: buffers the kernels update in place; re-uploaded before every run, outside the timing.
    bytes, flops: memory traffic and floating-point operations of one run, for GB/s, GFLOP/s, roofline.
    rate: an extra unit of the field, e.g. ("MP/s", pixels): shown as count / time.
    """
    size: str
    buffers: dict[str, np.ndarray]
    launches: list[Launch]
    reference: Callable[[], dict[str, np.ndarray]]
    bytes: float
    flops: float
    numpy: Callable[[], object] | None = None
    reset: tuple[str, ...] = ()
    rate: tuple[str, float] | None = None
    options: str = ""


@dataclass(frozen=True)
class Case:
    """One row of the suite.

    seed: where the kernel comes from (a seed paper section, or the SDK/suite the pattern is known from).
    source: the .cl file under kernels/.  setup(size, rng) -> Problem, for size = quick or full.
    needs: language features beyond scalars, work-item functions, barriers, the basic math builtins and
        32-bit atomics (e.g. "float4", "rsqrt", "fp64"); informational, the build decides.
    """
    name: str
    family: str
    seed: str
    source: str
    setup: Callable[[int, np.random.Generator], Problem]
    quick: int
    full: int
    tolerance: Tolerance
    needs: tuple[str, ...] = ()
    note: str = ""

    def source_path(self) -> Path:
        return KERNEL_DIR / self.source

    def source_text(self) -> str:
        return self.source_path().read_text()
