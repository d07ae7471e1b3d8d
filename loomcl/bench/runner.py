"""Running a case on every implementation: build, agreement with numpy, then interleaved timing.

For each case: build on every implementation (a loomcl build error is a missing feature: the row says
'skipped: <first line of the build log>'); one warm-up run each, whose results are compared with the
numpy reference (a mismatch is recorded, and that implementation is not timed); then `repeat` rounds,
each running every implementation once, alternating the order between rounds so that neither always
runs on a cache warmed by the other. A run is all the case's launches: its time is taken by
perf_counter around the enqueues and queue.finish(), and from the launches' profiling events (the sum
of end - start).
"""
from __future__ import annotations

import gc
import statistics
import time
from dataclasses import dataclass, field

import numpy as np

from .case import Buf, Case, Local, Problem, Tolerance
from .impls import Implementation, build_log_line, first_line
from .oracle import chosen_variants


@dataclass
class Result:
    """One case on one implementation. status: ok, skipped (build failed on loomcl), mismatch, error."""
    status: str
    reason: str = ""
    wall_ms: list[float] = field(default_factory=list)
    event_ms: list[float] = field(default_factory=list)
    max_error: float | None = None
    chosen: list[str] | None = None  # loomcl: the variants micro-profiling chose (bench/oracle.py)

    @property
    def ok(self) -> bool:
        return self.status == "ok"

    @property
    def min_ms(self) -> float:
        return min(self.wall_ms)

    @property
    def median_ms(self) -> float:
        return statistics.median(self.wall_ms)


@dataclass
class Row:
    """A case's outcome at one size (the problem's buffers are not kept)."""
    case: Case
    size: str
    bytes: float
    flops: float
    rate: tuple[str, float] | None
    results: dict[str, Result]
    numpy_ms: float | None = None


@dataclass
class Agreement:
    ok: bool
    message: str
    max_error: float


def compare(name: str, result: np.ndarray, expected: np.ndarray, tol: Tolerance) -> Agreement:
    """Elementwise |result - expected| <= atol + rtol*|expected|, allowing tol.max_bad_fraction misses."""
    expected = np.asarray(expected)
    got = np.asarray(result).reshape(-1)[:expected.size].astype(np.float64)
    want = expected.reshape(-1).astype(np.float64)
    if got.size != want.size:
        return Agreement(False, f"{name}: {got.size} elements, expected {want.size}", float("inf"))
    error = np.abs(got - want)
    error[np.isnan(got) != np.isnan(want)] = np.inf
    bad = ~(error <= tol.atol + tol.rtol * np.abs(want))
    bad &= ~(np.isnan(got) & np.isnan(want))
    max_error = float(np.nanmax(error)) if error.size else 0.0
    if np.count_nonzero(bad) <= tol.max_bad_fraction * want.size:
        return Agreement(True, "", max_error)
    i = int(np.argmax(bad))
    return Agreement(False, f"{name}: {np.count_nonzero(bad)} of {want.size} elements differ; first at "
                            f"[{i}]: got {got[i]!r}, expected {want[i]!r} (max error {max_error:.3g})",
                     max_error)


_SCRATCH: list[np.ndarray] = []
EVICT_BYTES = 64 << 20      # twice the 32 MiB L3 of the development machine


def evict_caches() -> None:
    if not _SCRATCH:
        _SCRATCH.append(np.zeros(EVICT_BYTES // 4, np.float32))
    np.add(_SCRATCH[0], 1.0, out=_SCRATCH[0])


class Prepared:
    """A problem's buffers, program and kernels on one implementation."""

    def __init__(self, impl: Implementation, case: Case, problem: Problem):
        self.impl, self.problem = impl, problem
        if case.source.endswith(".py"):  # a Python twin (suite/python_twins.py)
            self.program = impl.build_python(case.source_path(), problem.options)
        else:
            self.program = impl.build(case.source_text(), problem.options)
        names = {launch.kernel for launch in problem.launches}
        self.kernels = {name: getattr(self.program, name) for name in names}
        self.buffers = {name: impl.buffer(host) for name, host in problem.buffers.items()}
        self.launches = [(self.kernels[l.kernel], l.global_size, l.local_size, self._args(l.args))
                         for l in problem.launches]

    def _args(self, args):
        return tuple(self.buffers[a.name] if isinstance(a, Buf) else
                     self.impl.local(a.nbytes) if isinstance(a, Local) else a for a in args)

    def reset(self) -> None:
        """Re-upload the buffers updated in place, then push them out of the caches: the upload would
        otherwise leave up to an L3's worth of them cached, which no real caller of the kernel gets."""
        if not self.problem.reset:
            return
        for name in self.problem.reset:
            self.impl.cl.enqueue_copy(self.impl.queue, self.buffers[name], self.problem.buffers[name])
        self.impl.queue.finish()
        evict_caches()

    def run(self) -> tuple[float, float]:
        """One run of all launches: (wall seconds with finish, summed event seconds)."""
        queue = self.impl.queue
        self.impl.activate()
        start = time.perf_counter()
        events = [kernel(queue, gsize, lsize, *args) for kernel, gsize, lsize, args in self.launches]
        queue.finish()
        wall = time.perf_counter() - start
        return wall, sum(e.profile.end - e.profile.start for e in events) * 1e-9

    def read(self, name: str) -> np.ndarray:
        host = np.empty_like(self.problem.buffers[name])
        self.impl.cl.enqueue_copy(self.impl.queue, host, self.buffers[name])
        self.impl.queue.finish()
        return host

    def check(self, reference: dict[str, np.ndarray], tol: Tolerance) -> Agreement:
        worst = 0.0
        for name, expected in reference.items():
            agreement = compare(name, self.read(name), expected, tol)
            if not agreement.ok:
                return agreement
            worst = max(worst, agreement.max_error)
        return Agreement(True, "", worst)


def prepare(impl: Implementation, case: Case, problem: Problem) -> Prepared | Result:
    if case.source.endswith(".py") and impl.kind != "loomcl":
        return Result("skipped", "skipped: Python kernels run on loomcl only")
    try:
        return Prepared(impl, case, problem)
    except impl.cl.RuntimeError as exc:
        if impl.kind == "loomcl":
            return Result("skipped", f"skipped: {build_log_line(exc)}")
        return Result("error", f"build failed: {build_log_line(exc)}")
    except Exception as exc:  # noqa: BLE001 - a compiler crash is a bug to report, not a skip
        return Result("error", f"{type(exc).__name__}: {first_line(str(exc))}")


def warm_up(prepared: Prepared, reference, tol: Tolerance) -> Result:
    """Run once and compare with numpy: an ok Result to add times to, or why this one drops out."""
    try:
        prepared.reset()
        prepared.run()
        agreement = prepared.check(reference, tol)
    except Exception as exc:  # noqa: BLE001
        return Result("error", f"{type(exc).__name__}: {first_line(str(exc))}")
    if not agreement.ok:
        return Result("mismatch", agreement.message, max_error=agreement.max_error)
    if prepared.impl.kind == "loomcl":
        settle(prepared)
    return Result("ok", max_error=agreement.max_error)


SETTLE_RUNS = 16
SETTLE_SECONDS = 3.0


def settle(prepared: Prepared) -> None:
    """Run again while micro-profiling is still choosing a variant for one of the case's kernels
    (its rounds run on the first launches' groups): the timed runs then measure the kernel, not the
    choosing, as the warm-up leaves compile time out. Bounded: a launch with no room for a round
    never chooses."""
    deadline = time.perf_counter() + SETTLE_SECONDS
    for _ in range(SETTLE_RUNS):
        if "?" not in chosen_variants(prepared) or time.perf_counter() > deadline:
            return
        prepared.reset()
        prepared.run()


def measure(case: Case, problem: Problem, impls: list[Implementation], repeat: int) -> dict[str, Result]:
    reference = problem.reference()
    results: dict[str, Result] = {}
    ready: dict[str, Prepared] = {}
    for impl in impls:
        prepared = prepare(impl, case, problem)
        results[impl.name] = prepared if isinstance(prepared, Result) else warm_up(prepared, reference,
                                                                                   case.tolerance)
        if results[impl.name].ok:
            ready[impl.name] = prepared
    timed_rounds(ready, results, repeat)
    if repeat:
        final_check(ready, results, reference, case.tolerance)
    for name, prepared in ready.items():
        if prepared.impl.kind == "loomcl" and results[name].ok:
            results[name].chosen = chosen_variants(prepared)
    return results


def timed_rounds(ready: dict[str, Prepared], results: dict[str, Result], repeat: int) -> None:
    """`repeat` rounds of one run each, the order reversed every other round."""
    for round_ in range(repeat):
        order = list(ready.items())
        for name, prepared in order if round_ % 2 == 0 else reversed(order):
            try:
                prepared.reset()
                wall, event = prepared.run()
            except Exception as exc:  # noqa: BLE001
                results[name] = Result("error", f"{type(exc).__name__}: {first_line(str(exc))}")
                del ready[name]
                continue
            results[name].wall_ms.append(wall * 1e3)
            results[name].event_ms.append(event * 1e3)


def final_check(ready: dict[str, Prepared], results: dict[str, Result], reference, tol: Tolerance) -> None:
    """The last timed run must agree too: a launch that returned before its work was done, or a race
    that only shows now and then, must not leave times behind."""
    for name, prepared in ready.items():
        agreement = prepared.check(reference, tol)
        if not agreement.ok:
            results[name] = Result("mismatch", "after the timed runs: " + agreement.message,
                                   max_error=agreement.max_error)


def time_numpy(fn, repeat: int, budget_s: float = 2.0) -> float:
    """Best time of a numpy equivalent in ms: one warm-up, then up to `repeat` runs within the budget."""
    fn()
    best, spent = float("inf"), 0.0
    for _ in range(max(1, repeat)):
        start = time.perf_counter()
        fn()
        elapsed = time.perf_counter() - start
        best, spent = min(best, elapsed), spent + elapsed
        if spent > budget_s:
            break
    return best * 1e3


def run_case(case: Case, impls: list[Implementation], repeat: int, quick: bool, seed: int = 0) -> Row:
    rng = np.random.default_rng(seed)
    problem = case.setup(case.quick if quick else case.full, rng)
    results = measure(case, problem, impls, repeat)
    numpy_ms = time_numpy(problem.numpy, repeat) if problem.numpy else None
    row = Row(case, problem.size, problem.bytes, problem.flops, problem.rate, results, numpy_ms)
    del problem
    gc.collect()    # release this case's buffers before the next one allocates its own
    return row
