"""The calls the ICD section times: kernel launches, and what pyopencl.array users do in loops.

An `Op` is data: how to set it up in a `Session` (an OpenCL module with a context and a queue), the
numpy result it must agree with, and the numpy expression timed beside it. Each timed call is the
operation followed by queue.finish(), so that an implementation that enqueues and returns early pays
for the work as one that finishes it before returning does. The launch ops run on every target
(loomcl's own API too); the array ops need pyopencl.array, so they run on pyopencl only.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import numpy as np

from .case import KERNEL_DIR, Tolerance

LAUNCH_ITEMS = (64 * 64, 64)       # the touch kernel: 64 work-groups of 64 (as machine.py measures)
FLOAT_SUM = Tolerance(rtol=1e-4)   # a float32 sum or dot in another order than numpy's
SIN = Tolerance(rtol=1e-6, atol=1e-6)


class Session:
    """One implementation's OpenCL module, context and queue, and what the ops share on it."""

    def __init__(self, cl, context, queue):
        self.cl, self.context, self.queue = cl, context, queue
        self._machine = None
        self._elementwise = None

    @property
    def machine(self):
        """machine.cl, the launch-cost probes' program (built once)."""
        if self._machine is None:
            self._machine = self.cl.Program(self.context, (KERNEL_DIR / "machine.cl").read_text()).build()
        return self._machine

    @property
    def affine(self):
        """pyopencl's ElementwiseKernel for out = 2*x + 1 (built once)."""
        if self._elementwise is None:
            from pyopencl.elementwise import ElementwiseKernel
            self._elementwise = ElementwiseKernel(self.context, "float *out, const float *x",
                                                  "out[i] = 2*x[i] + 1", "affine")
        return self._elementwise

    def to_device(self, host: np.ndarray):
        import pyopencl.array as cla
        return cla.to_device(self.queue, host)


@dataclass
class Ready:
    """An op set up on one session: `run()` is the timed call; `read(result)` brings its outcome back."""
    run: Callable[[], object]
    read: Callable[[object], np.ndarray]


@dataclass(frozen=True)
class Op:
    name: str
    setup: Callable[[Session, np.ndarray, np.ndarray], Ready]
    reference: Callable[[np.ndarray, np.ndarray], np.ndarray]
    numpy: Callable[[np.ndarray, np.ndarray, np.ndarray], object] | None = None   # (a, b, out): out as the op
    tolerance: Tolerance = Tolerance()
    array: bool = True     # needs pyopencl.array (else: any pyopencl-like API, loomcl's own included)

    @property
    def sized(self) -> bool:
        """Whether the op's work grows with the array size (the launches' does not)."""
        return self.array


def _launch_empty(s: Session, a, b) -> Ready:
    kernel = s.machine.empty
    out = s.cl.Buffer(s.context, s.cl.mem_flags.READ_WRITE | s.cl.mem_flags.COPY_HOST_PTR,
                      hostbuf=np.zeros(1, np.int32))
    return Ready(lambda: kernel(s.queue, (1,), (1,), out), lambda _: _read(s, out, 1))


def _launch_touch(s: Session, a, b) -> Ready:
    kernel = s.machine.touch
    items, group = LAUNCH_ITEMS
    out = s.cl.Buffer(s.context, s.cl.mem_flags.READ_WRITE, items * 4)
    return Ready(lambda: kernel(s.queue, (items,), (group,), out), lambda _: _read(s, out, items))


def _read(s: Session, buffer, count: int) -> np.ndarray:
    host = np.empty(count, np.int32)
    s.cl.enqueue_copy(s.queue, host, buffer)
    s.queue.finish()
    return host


def _on_device(call: Callable) -> Callable[[Session, np.ndarray, np.ndarray], Ready]:
    """An op on device copies of the inputs whose result is a pyopencl array (read with .get())."""
    def setup(s: Session, a, b) -> Ready:
        x, y = s.to_device(a), s.to_device(b)
        return Ready(lambda: call(s, x, y), lambda result: np.asarray(result.get()).reshape(-1))
    return setup


def _affine(s: Session, a, b) -> Ready:
    import pyopencl.array as cla
    x = s.to_device(a)
    out = cla.empty_like(x)
    return Ready(lambda: s.affine(out, x), lambda _: out.get())


def _get(s: Session, a, b) -> Ready:
    x = s.to_device(a)
    return Ready(x.get, lambda result: result)


def _sum(s, x, y):
    import pyopencl.array as cla
    return cla.sum(x)


def _sin(s, x, y):
    import pyopencl.clmath as clmath
    return clmath.sin(x)


def _dot(s, x, y):
    import pyopencl.array as cla
    return cla.dot(x, y)


def _numpy_affine(a, b, out):
    """Into `out`, as the kernel writes its preallocated `out`: `2*a + 1` would allocate a temporary and
    a result, whose page faults cost more than the arithmetic at 1M elements."""
    np.multiply(a, 2, out=out)
    np.add(out, 1, out=out)


def _exact_sum(a, b):
    return np.array([a.astype(np.float64).sum()])


OPS: list[Op] = [
    Op("launch: empty kernel, 1 work-item", _launch_empty, lambda a, b: np.zeros(1, np.int32), array=False),
    Op("launch: trivial kernel, 64 groups of 64", _launch_touch,
       lambda a, b: np.arange(LAUNCH_ITEMS[0], dtype=np.int32) // LAUNCH_ITEMS[1], array=False),
    Op("x + y", _on_device(lambda s, x, y: x + y), lambda a, b: a + b, lambda a, b, out: a + b),
    Op("2*x + 1 (ElementwiseKernel)", _affine, lambda a, b: 2 * a + 1, _numpy_affine),
    Op("cla.sum(x)", _on_device(_sum), _exact_sum, lambda a, b, out: a.sum(), FLOAT_SUM),
    Op("clmath.sin(x)", _on_device(_sin), lambda a, b: np.sin(a), lambda a, b, out: np.sin(a), SIN),
    Op("x.get()", _get, lambda a, b: a, lambda a, b, out: a.copy()),
    Op("cla.to_device(queue, a)", lambda s, a, b: Ready(lambda: s.to_device(a), lambda r: r.get()),
       lambda a, b: a, lambda a, b, out: a.copy()),
    Op("cla.dot(x, y)", _on_device(_dot), lambda a, b: np.array([a.astype(np.float64) @ b]),
       lambda a, b, out: a @ b, FLOAT_SUM),
]
BY_NAME = {op.name: op for op in OPS}


def inputs(n: int) -> tuple[np.ndarray, np.ndarray]:
    """The two float32 operands every array op uses at size n (the same on every target)."""
    rng = np.random.default_rng(n)
    return rng.random(n, dtype=np.float32), rng.random(n, dtype=np.float32)
