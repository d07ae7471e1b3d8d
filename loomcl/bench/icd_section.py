"""The bench's ICD section: launches and pyopencl.array calls through pyopencl on loomcl's ICD, beside
pyopencl on PoCL and loomcl's own API, with numpy for reference.

Each target runs in a worker process of its own (icd_worker.py). Every op, at every size, is first set
up and checked against numpy on each target; then timed in rounds, each asking every target in turn
for a batch of calls (the order reversed every other round, as runner.py does, so that load drifting
on the machine is shared); a last check follows. A cell is the median µs of one call + queue.finish(),
on a queue made as users make one (no profiling). The ICD library is built (or found) by
loomcl.icd.build, as `python -m loomcl icd` does.
"""
from __future__ import annotations

import statistics
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

import numpy as np

from .icd_child import Child, ChildFailed, target_env
from .icd_ops import OPS, Op, inputs

TARGETS = {"loomcl": "loomcl", "icd": "pyopencl→loomcl", "pocl": "pyopencl→PoCL"}
SPLIT = "icd-split"     # the worker that tells pyopencl→loomcl's time inside loomcl from the rest
SIZES, QUICK_SIZES = (1 << 10, 1 << 20), (1 << 10,)
PREPARE_S = 600.0        # the first call compiles pyopencl's kernels
MIN_CALLS, MAX_CALLS = 3, 5000


@dataclass
class Cell:
    """One op at one size on one target. status: ok, mismatch, error."""
    status: str
    reason: str = ""
    us: list[float] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return self.status == "ok" and bool(self.us)

    @property
    def median_us(self) -> float:
        return statistics.median(self.us)


@dataclass
class IcdRow:
    op: Op
    n: int | None                       # None for the launches
    cells: dict[str, Cell]              # by target name (TARGETS' values)
    numpy_us: float | None = None
    split_us: tuple[float, float] | None = None     # pyopencl→loomcl: (median call, median inside loomcl)

    @property
    def inside_share(self) -> float | None:
        """The part of a pyopencl→loomcl call spent inside loomcl's entry points (the rest is pyopencl's
        Python and C++, the loader and the crossing into Python)."""
        return self.split_us[1] / self.split_us[0] if self.split_us else None


@dataclass
class IcdSection:
    devices: dict[str, str]             # target name -> device, for the targets that opened
    unavailable: list[str]
    rows: list[IcdRow]
    settings: dict


def vendor_file() -> tuple[Path | None, str]:
    """loomcl's vendor file (the ICD library built if needed), or (None, why not)."""
    from ..icd.build import IcdUnavailable, build_library, write_vendor_file
    try:
        library = build_library()
    except IcdUnavailable as exc:
        return None, str(exc).splitlines()[0]
    return write_vendor_file(library, library.parent), ""


def open_children(targets: list[str], threads: int | None, log) -> tuple[dict[str, Child], dict[str, str], list[str]]:
    """The targets' workers that opened (by name), their devices, and a line for each that did not."""
    children, devices, unavailable = {}, {}, []
    vendor, why = vendor_file() if any(t.startswith("icd") for t in targets) else (None, "")
    for target in targets:
        name = TARGETS.get(target, target)
        if target.startswith("icd") and vendor is None:
            unavailable.append(f"{name} not available: no ICD: {why}")
            continue
        log(f"icd: starting {name}")
        child = Child(target, target_env(target, vendor, threads))
        try:
            hello = child.hello()
        except ChildFailed as exc:
            child.close()
            unavailable.append(f"{name} not available: {exc}")
            continue
        if hello.get("status") != "ok":
            child.close()
            unavailable.append(f"{name} not available: {hello.get('reason')}")
            continue
        children[name], devices[name] = child, hello["device"]
    return children, devices, unavailable


def run(targets: list[str], sizes=SIZES, rounds: int = 5, batch_s: float = 0.05, threads: int | None = None,
        log: Callable[[str], None] = lambda message: None) -> IcdSection:
    """Measure every op on the targets (keys of TARGETS) that open; `batch_s` is each target's time per
    round on one op."""
    children, devices, unavailable = open_children(targets, threads, log)
    split = None
    if TARGETS["icd"] in children:
        opened, _, lines = open_children([SPLIT], threads, log)
        split, unavailable = opened.get(SPLIT), unavailable + lines
    rows = []
    try:
        for op in OPS if children else ():
            able = {name: c for name, c in children.items() if op.array is False or c.target != "loomcl"}
            for n in sizes if op.sized else (None,):
                log(f"icd: {op.name}" + (f" ({n})" if n else ""))
                row = measure(op, n, able, rounds, batch_s)
                icd = row.cells.get(TARGETS["icd"])
                if split and icd and icd.ok:
                    row.split_us = measure_split(op, n, split, len(icd.us))
                rows.append(row)
    finally:
        for child in [*children.values(), *([split] if split else [])]:
            child.close()
    settings = {"sizes": list(sizes), "rounds": rounds, "batch_s": batch_s, "threads": threads}
    return IcdSection(devices, unavailable, rows, settings)


def measure(op: Op, n: int | None, children: dict[str, Child], rounds: int, batch_s: float) -> IcdRow:
    size = n or 1
    cells, counts, timeouts = {}, {}, {}
    for name, child in children.items():
        answer = _ask(child, {"cmd": "prepare", "op": op.name, "n": size}, PREPARE_S)
        cells[name] = Cell(answer["status"], answer.get("reason", ""))
        if cells[name].status == "ok":
            counts[name] = int(min(MAX_CALLS, max(MIN_CALLS, batch_s / max(answer["seconds"], 1e-7))))
            timeouts[name] = 120 + 20 * counts[name] * answer["seconds"]
    timed = [name for name in children if cells[name].status == "ok"]
    for round_ in range(rounds):
        for name in timed if round_ % 2 == 0 else reversed(timed):
            if cells[name].status != "ok":
                continue
            command = {"cmd": "time", "op": op.name, "n": size, "count": counts[name]}
            answer = _ask(children[name], command, timeouts[name])
            if answer["status"] == "ok":
                cells[name].us.extend(answer["us"])
            else:
                cells[name] = Cell(answer["status"], answer.get("reason", ""))
    for name in timed:
        if cells[name].status == "ok":
            answer = _ask(children[name], {"cmd": "check", "op": op.name, "n": size}, PREPARE_S)
            if answer["status"] != "ok":
                cells[name] = Cell(answer["status"], "after the timed calls: " + answer.get("reason", ""))
    numpy_us = time_numpy(op, n, rounds, batch_s) if op.numpy and n else None
    return IcdRow(op, n, cells, numpy_us)


def measure_split(op: Op, n: int | None, child: Child, count: int) -> tuple[float, float] | None:
    """(median µs of a call, median µs of it inside loomcl) on the split worker, as many calls as the
    ICD's column timed; None if it could not (the ICD's own column says why)."""
    command = {"cmd": "prepare", "op": op.name, "n": n or 1}
    if _ask(child, command, PREPARE_S)["status"] != "ok":
        return None
    answer = _ask(child, {**command, "cmd": "time", "count": count}, PREPARE_S)
    if answer["status"] != "ok":
        return None
    return statistics.median(answer["us"]), statistics.median(answer["inside_us"])


def _ask(child: Child, command: dict, timeout_s: float) -> dict:
    """The worker's answer; a worker that died or hung answers as an error from now on."""
    if child.failed:
        return {"status": "error", "reason": child.failed}
    try:
        return child.ask(command, timeout_s)
    except ChildFailed as exc:
        child.failed = str(exc)
        return {"status": "error", "reason": child.failed}


def time_numpy(op: Op, n: int, rounds: int, batch_s: float) -> float:
    """Median µs of the op's numpy expression, called as the targets are (a budget per round)."""
    a, b = inputs(n)
    out = np.empty_like(a)
    op.numpy(a, b, out)
    times = []
    for _ in range(rounds):
        spent = 0.0
        while spent < batch_s or len(times) < MIN_CALLS:
            start = time.perf_counter()
            op.numpy(a, b, out)
            elapsed = time.perf_counter() - start
            times.append(elapsed * 1e6)
            spent += elapsed
    return float(np.median(times))
