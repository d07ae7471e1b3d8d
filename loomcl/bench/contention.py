"""`loomcl bench --contention N`: the suite on a quiet machine, then again beside N CPU-bound
processes, and each implementation's slowdown per case (loaded median / quiet median).

Users' machines are rarely idle, and a runtime whose workers spin, or whose launches wait for a
preempted worker, loses far more than its share of the cores when other processes compete
(engine/contention.py says what loomcl's pool does about it). Medians, not minima: under load the
minimum is the run that happened to find the cores free. The busy processes are plain Python
loops, started before the loaded pass and killed after it.
"""
from __future__ import annotations

import statistics
import subprocess
import sys

from .noise import geomean

BUSY_LOOP = "while True: pass"


class Background:
    """N busy processes for the duration of a `with` block."""

    def __init__(self, count: int) -> None:
        self.count = count
        self._procs: list[subprocess.Popen] = []

    def __enter__(self) -> "Background":
        self._procs = [subprocess.Popen([sys.executable, "-c", BUSY_LOOP], stdin=subprocess.DEVNULL)
                       for _ in range(self.count)]
        return self

    def __exit__(self, *exc) -> None:
        for proc in self._procs:
            proc.kill()
        for proc in self._procs:
            proc.wait()


def _median(row, name: str) -> float | None:
    result = row.results.get(name)
    return statistics.median(result.wall_ms) if result is not None and result.ok and result.wall_ms else None


def slowdowns(quiet_rows, loaded_rows, names: list[str]) -> dict[str, dict[str, float]]:
    """{case: {implementation: loaded median / quiet median}} where both ran."""
    table: dict[str, dict[str, float]] = {}
    for quiet, loaded in zip(quiet_rows, loaded_rows):
        for name in names:
            q, lo = _median(quiet, name), _median(loaded, name)
            if q and lo:
                table.setdefault(f"{quiet.case.name} {quiet.size}".strip(), {})[name] = lo / q
    return table


def summary(table: dict[str, dict[str, float]], names: list[str], busy: int) -> str:
    """The slowdown table, one row per case and a geomean row."""
    width = max([len(case) for case in table] + [8])
    lines = [f"slowdown beside {busy} busy processes (loaded median / quiet median; lower is better)",
             f"{'case':<{width}}  " + "  ".join(f"{name:>10}" for name in names)]
    for case, row in table.items():
        lines.append(f"{case:<{width}}  " + "  ".join(
            f"{row[name]:>9.2f}x" if name in row else f"{'-':>10}" for name in names))
    means = [geomean(row.get(name) for row in table.values()) for name in names]
    lines.append(f"{'geomean':<{width}}  " + "  ".join(f"{m:>9.2f}x" if m else f"{'-':>10}" for m in means))
    return "\n".join(lines)
