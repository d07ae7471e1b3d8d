"""Runs generated programs through every check, in worker processes that may crash.

One program (a seed) is the unit of work. A worker process generates it, builds it once for the
interpreter (front end only), runs the reference, checks the work-group form of the pipeline
configurations in the interpreter and launches the native configurations through the public
runtime. Native code runs in the worker: before each native build and launch the worker tells the
parent which (seed, configuration) it starts, so when a worker dies (a segfault in generated code,
an LLVM assertion) or falls silent (a miscompiled infinite loop) the parent records a `crash` or
`hang` finding for exactly that configuration, starts a new worker, and goes on.

Which configurations each program gets is `Plan`'s choice: all of them, or a sample that rotates
with the seed so that a run covers every configuration evenly (`--native sample`, the default:
the default build options plus one other per program; see __main__.py for why). A share of the
programs (one in three by default) is also rendered as Python kernels and checked in the same
configurations against the same reference output (python_check.py).
"""
from __future__ import annotations

import multiprocessing as mp
import os
import time
import traceback
from dataclasses import dataclass, field
from multiprocessing.connection import wait

from .check import INTERP_CONFIGS, NATIVE_CONFIGS, Finding

PYTHON_SHARE = 3  # one program in three also runs as Python kernels
PYTHON_SHIFT = 21  # ... the third that moves on by one seed every PYTHON_SHIFT seeds


def shared_twin(seed: int) -> bool:
    """Whether `python="share"` checks this seed as Python kernels too: every third seed, the choice
    moving on by one every PYTHON_SHIFT seeds. Plain every-third-seed twins would meet only a third of
    the configurations that rotate with the seed wherever their number is a multiple of three."""
    return (seed + seed // PYTHON_SHIFT) % PYTHON_SHARE == 0


@dataclass(frozen=True)
class Plan:
    interp: str = "all"  # all | sample | cover | none
    native: str = "sample"  # all | sample | one | cover | none
    python: str = "share"  # all | share (a third of the seeds) | none | seeds: also the Python-kernel twin
    python_seeds: frozenset = frozenset()  # python="seeds": exactly these
    crash_seeds: tuple = ()  # the tester's own tests: these seeds abort the worker natively
    cover: int = 1  # cover: `cover` consecutive seeds share every configuration out between them

    def interp_configs(self, seed: int) -> list[str]:
        """sample: the default and two others, rotating with the seed; cover: the default and this
        seed's share of the others."""
        names = list(INTERP_CONFIGS)
        if self.interp == "all":
            return names
        if self.interp == "sample":
            others = names[1:]
            return [names[0], others[seed % len(others)], others[(seed + 2) % len(others)]]
        if self.interp == "cover":
            return [names[0], *names[1:][seed % self.cover::self.cover]]
        return []

    def native_configs(self, seed: int) -> list[str]:
        """sample: the default options and one other, rotating; one: a single one, rotating; cover:
        this seed's share of them all."""
        if self.native == "all":
            return list(NATIVE_CONFIGS)
        if self.native == "sample":
            others = NATIVE_CONFIGS[1:]
            return [NATIVE_CONFIGS[0], others[seed % len(others)]]
        if self.native == "one":
            return [NATIVE_CONFIGS[seed % len(NATIVE_CONFIGS)]]
        if self.native == "cover":
            return NATIVE_CONFIGS[seed % self.cover::self.cover]
        return []

    def python_twin(self, seed: int) -> bool:
        """Whether the program is also checked as Python kernels (python_check.py)."""
        if self.python == "seeds":
            return seed in self.python_seeds
        return self.python == "all" or self.python == "share" and shared_twin(seed)


@dataclass
class Result:
    seed: int
    findings: list = field(default_factory=list)
    times: dict = field(default_factory=dict)  # phase -> seconds
    program: object = None  # the Program, when there are findings (to save it)
    expected: object = None  # the reference output, when known
    python: str | None = None  # the Python twin: "compared", "skipped: REASON", or None (not tried)


# -- the worker side -------------------------------------------------------------------------------------


def _worker_environment() -> None:
    os.environ.setdefault("LOOMCL_THREADS", "1")  # parallelism comes from the worker processes
    os.environ["LOOMCL_CACHE_SIZE"] = "0"  # unique programs: never cache them


def check_program(seed: int, plan: Plan, native=None, report=lambda *a: None) -> Result:
    """Every check of one generated program; `report(seed, config)` is called before each native
    configuration starts (the parent's crash attribution)."""
    from loomcl.driver import compiler

    from . import check
    from .generator import PRELUDE, generate

    result = Result(seed)
    t = time.perf_counter()

    def phase(name):
        nonlocal t
        now = time.perf_counter()
        result.times[name] = result.times.get(name, 0.0) + now - t
        t = now

    program = generate(seed)
    source = PRELUDE + program.source
    case = check.case_of(program)
    phase("generate")
    try:
        module = compiler.build(source).module
    except Exception as e:  # noqa: BLE001 - a generator bug or a front-end bug: report either
        result.findings.append(Finding(seed, "frontend", "error", f"{type(e).__name__}: {str(e)[:500]}"))
        result.program = program
        return result
    phase("frontend")
    try:
        expected = check.reference(module, case)
    except check.InvalidProgram as e:
        result.findings.append(Finding(seed, "reference", "invalid program", str(e)))
        result.program = program
        return result
    phase("reference")
    configs = {name: INTERP_CONFIGS[name] for name in plan.interp_configs(seed)}
    result.findings += check.interp_check(module, case, expected, configs)
    phase("interp")
    for options in plan.native_configs(seed):
        config = f"native:{options or 'default'}"
        report(seed, config)
        if seed in plan.crash_seeds:
            os.abort()
        try:
            native = native or check.Native()
            got = native.launch(native.build(source, options), case)
        except Exception as e:  # noqa: BLE001
            result.findings.append(check._error(case, config, e))
            continue
        found = check.compare(case, config, got, expected)
        if found:
            result.findings.append(found)
    phase("native")
    if plan.python_twin(seed):
        from .python_check import python_findings

        native = native or (check.Native() if plan.native_configs(seed) else None)
        result.python, found = python_findings(program, case, expected, configs, plan.native_configs(seed), native,
                                               report)
        result.findings += found
        phase("python")
    if result.findings:
        result.program, result.expected = program, expected
    return result


def _worker(connection, plan: Plan) -> None:
    _worker_environment()
    from . import check

    native = check.Native() if plan.native != "none" else None
    while True:
        seed = connection.recv()
        if seed is None:
            return
        try:
            result = check_program(seed, plan, native, lambda s, c: connection.send(("start", s, c)))
        except Exception:  # noqa: BLE001 - a bug of the tester itself: report, keep going
            result = Result(seed, [Finding(seed, "tester", "error", traceback.format_exc()[-800:])])
        connection.send(("done", result))


# -- the parent side -------------------------------------------------------------------------------------


class _Slot:
    """A worker process, its pipe, and what it is doing."""

    def __init__(self, context, plan: Plan) -> None:
        parent, child = context.Pipe()
        self.process = context.Process(target=_worker, args=(child, plan), daemon=True)
        self.process.start()
        child.close()
        self.connection = parent
        self.seed = None
        self.config = "generate/interp"
        self.since = time.monotonic()

    def give(self, seed: int) -> None:
        self.seed, self.config, self.since = seed, "generate/interp", time.monotonic()
        self.connection.send(seed)

    def stop(self) -> None:
        try:
            self.connection.send(None)
        except OSError:
            pass
        self.process.join(timeout=5)
        if self.process.is_alive():
            self.process.kill()

    def kill(self) -> None:
        self.process.kill()
        self.process.join()


def run(seeds, plan: Plan, jobs: int, on_result, timeout: float = 300.0) -> None:
    """Check every seed on `jobs` worker processes; `on_result(Result)` gets each, in completion
    order. A worker that dies or exceeds `timeout` seconds on one configuration gives a finding."""
    context = mp.get_context("spawn")
    pending = list(seeds)[::-1]
    slots = [_Slot(context, plan) for _ in range(max(1, min(jobs, len(pending))))]
    try:
        for slot in slots:
            if pending:
                slot.give(pending.pop())
        while any(slot.seed is not None for slot in slots):
            busy = [s for s in slots if s.seed is not None]
            ready = wait([s.connection for s in busy] + [s.process.sentinel for s in busy], timeout=1.0)
            for k, slot in enumerate(slots):
                if slot.seed is None:
                    continue
                if slot.connection in ready:
                    if not _receive(slot, on_result):
                        slots[k] = _replace(context, plan, slot, on_result, "crash", pending)
                        continue
                elif slot.process.sentinel in ready and not slot.connection.poll():
                    slots[k] = _replace(context, plan, slot, on_result, "crash", pending)
                    continue
                elif time.monotonic() - slot.since > timeout:
                    slot.kill()
                    slots[k] = _replace(context, plan, slot, on_result, "hang", pending)
                    continue
                if slots[k].seed is None and pending:
                    slots[k].give(pending.pop())
    finally:
        for slot in slots:
            slot.stop()


def _receive(slot: _Slot, on_result) -> bool:
    """Handle every message waiting from a worker; False when the worker is gone."""
    while slot.connection.poll():
        try:
            message = slot.connection.recv()
        except (EOFError, OSError):
            return False
        if message[0] == "start":
            slot.config, slot.since = message[2], time.monotonic()
        else:
            on_result(message[1])
            slot.seed = None
    return True


_RETRIED: set = set()


def _replace(context, plan, slot: _Slot, on_result, kind: str, pending) -> _Slot:
    slot.process.join(timeout=5)
    code = slot.process.exitcode
    if kind == "crash" and code in (-15, -9) and slot.seed not in _RETRIED:
        # SIGTERM/SIGKILL come from outside (someone stopping processes), not from generated code:
        # run the seed again once instead of reporting it
        _RETRIED.add(slot.seed)
        pending.append(slot.seed)
        fresh = _Slot(context, plan)
        fresh.give(pending.pop())
        return fresh
    detail = (f"worker killed after {time.monotonic() - slot.since:.0f} s without progress" if kind == "hang"
              else f"worker process died (exit code {code}{', signal ' + str(-code) if code and code < 0 else ''})")
    on_result(Result(slot.seed, [Finding(slot.seed, slot.config, kind, detail)], program="regenerate"))
    fresh = _Slot(context, plan)
    if pending:
        fresh.give(pending.pop())
    return fresh
