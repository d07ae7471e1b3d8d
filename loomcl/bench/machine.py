"""The machine's limits, measured before the suite so that every row can say how close it comes.

Bandwidth: np.copyto, the copyBuffer kernel (seed 001 listing 15-1) and scaleInPlace on 16M floats,
counting the read and the write (8 bytes per element), best of several runs. A copy's store also reads
its destination line first, so copies read low; the in-place update moves what it counts.
Floating-point peak: native_peak.py's hand-written probe (vector fma chains on every core: the
machine's real limit), beside each implementation's OpenCL probes fma_peak (12 scalar fma chains per
work-item, machine.cl) and fma_peak8 (the same in float8, machine_vec.cl), which show what each
compiler makes of them. The machine's limit is the best of all, so a row's percentage is against what
this machine demonstrably does, not a datasheet; above 100 % would mean a probe falls short.

Launch cost: launch + queue.finish() of an empty kernel on one work-item and of a trivial kernel over
64 work-groups of 64, the median of many back-to-back launches (what a Python loop of small kernels
pays per call).
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field

import numpy as np

from .. import host
from . import native_peak
from .case import KERNEL_DIR
from .impls import Implementation, first_line

FMA_ITEMS = 1 << 16
FMA8_ITEMS = 1 << 13
FMA_ARGS = (np.float32(0.999), np.float32(0.001))     # a = a*0.999 + 0.001 stays near 1
LAUNCHES = 2000
MACHINE = "native probe"       # the fma_gflops entry of native_peak.py


@dataclass
class Limits:
    numpy_copy_gbs: float
    copy_gbs: dict[str, float] = field(default_factory=dict)    # per implementation
    fma_gflops: dict[str, float] = field(default_factory=dict)
    launch_us: dict[str, tuple[float, float]] = field(default_factory=dict)  # (empty 1 item, 64x64 groups)
    notes: dict[str, str] = field(default_factory=dict)

    def merge(self, other: "Limits") -> "Limits":
        """The best of two measurements (taken before and after the suite: a probe run while the machine
        is still waking its threads up reads low)."""
        def best(a, b):
            return {k: max(a.get(k, 0.0), b.get(k, 0.0)) for k in {*a, *b}}
        launch = {k: tuple(map(min, zip(self.launch_us.get(k, (float("inf"),) * 2),
                                        other.launch_us.get(k, (float("inf"),) * 2))))
                  for k in {*self.launch_us, *other.launch_us}}
        return Limits(max(self.numpy_copy_gbs, other.numpy_copy_gbs), best(self.copy_gbs, other.copy_gbs),
                      best(self.fma_gflops, other.fma_gflops), launch, {**other.notes, **self.notes})

    @property
    def bandwidth_gbs(self) -> float:
        return max([self.numpy_copy_gbs, *self.copy_gbs.values()])

    @property
    def peak_gflops(self) -> float:
        return max(self.fma_gflops.values(), default=float("nan"))


def numpy_copy_gbs(n: int, repeat: int) -> float:
    src = np.random.default_rng(1).random(n, dtype=np.float32)
    dst = np.empty_like(src)
    best = float("inf")
    for _ in range(repeat + 1):
        start = time.perf_counter()
        np.copyto(dst, src)
        best = min(best, time.perf_counter() - start)
    return 8 * n / best / 1e9


def _best_run(impl: Implementation, kernel, gsize, lsize, args, repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat + 1):
        start = time.perf_counter()
        kernel(impl.queue, gsize, lsize, *args)
        impl.queue.finish()
        best = min(best, time.perf_counter() - start)
    return best


def kernel_limits(impl: Implementation, n: int, fma_iters: int, repeat: int) -> tuple[float, float]:
    """(copy GB/s, fma GFLOP/s) of one implementation; the fma figure is the better of the two probes."""
    program = impl.build((KERNEL_DIR / "machine.cl").read_text())
    src = np.random.default_rng(1).random(n, dtype=np.float32)
    src_buf, dst_buf = impl.buffer(src), impl.buffer(np.empty_like(src))
    copy_s = _best_run(impl, program.copyBuffer, (n,), (256,), (src_buf, dst_buf), repeat)
    both = impl.buffer(np.ones(2 * n, np.float32))  # the copy's footprint, so both see the same caches
    update_s = _best_run(impl, program.scaleInPlace, (2 * n,), (256,), (both, np.float32(1.0)), repeat) / 2
    out_buf = impl.buffer(np.zeros(FMA_ITEMS, np.float32))
    args = (out_buf, *FMA_ARGS, np.int32(fma_iters))
    fma_s = _best_run(impl, program.fma_peak, (FMA_ITEMS,), (256,), args, repeat)
    gflops = 24 * fma_iters * FMA_ITEMS / fma_s / 1e9
    try:
        vec = impl.build((KERNEL_DIR / "machine_vec.cl").read_text())
        fma8_s = _best_run(impl, vec.fma_peak8, (FMA8_ITEMS,), (64,), args, repeat)
        gflops = max(gflops, 192 * fma_iters * FMA8_ITEMS / fma8_s / 1e9)
    except impl.cl.RuntimeError:
        pass    # no vector types yet: the scalar probe stands
    return 8 * n / min(copy_s, update_s) / 1e9, gflops


def _median_launch_us(impl: Implementation, kernel, gsize, lsize, args, count: int) -> float:
    times = []
    for _ in range(count):
        start = time.perf_counter()
        kernel(impl.queue, gsize, lsize, *args)
        impl.queue.finish()
        times.append(time.perf_counter() - start)
    return float(np.median(times)) * 1e6


def launch_costs(impl: Implementation, count: int = LAUNCHES) -> tuple[float, float]:
    """(µs for an empty one-work-item kernel, µs for a trivial kernel over 64 groups of 64)."""
    program = impl.build((KERNEL_DIR / "machine.cl").read_text())
    out = impl.buffer(np.zeros(64 * 64, np.int32))
    _median_launch_us(impl, program.empty, (1,), (1,), (out,), 10)  # warm-up: compile, wake threads
    _median_launch_us(impl, program.touch, (64 * 64,), (64,), (out,), 10)
    return (_median_launch_us(impl, program.empty, (1,), (1,), (out,), count),
            _median_launch_us(impl, program.touch, (64 * 64,), (64,), (out,), count))


def measure(impls: list[Implementation], n: int, fma_iters: int, repeat: int, threads: int) -> Limits:
    limits = Limits(numpy_copy_gbs(n, repeat))
    limits.fma_gflops[MACHINE] = native_peak.fma_peak_gflops(host.vector_bytes() // 4, threads)
    for impl in impls:
        try:
            impl.activate()     # its thread count (--threads, a config's): the suite's rows set it too
            limits.copy_gbs[impl.name], limits.fma_gflops[impl.name] = kernel_limits(impl, n, fma_iters, repeat)
            limits.launch_us[impl.name] = launch_costs(impl)
        except Exception as exc:  # noqa: BLE001 - a probe that cannot build only loses its column
            limits.notes[impl.name] = f"{type(exc).__name__}: {first_line(str(exc))}"
    return limits
