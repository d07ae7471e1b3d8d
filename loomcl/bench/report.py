"""The outcome of a run: the table, the geometric mean of the speed ratios, the JSON record, the plot.

Speed ratio of a loomcl variant = PoCL time / loomcl time (min over runs): above 1, loomcl is faster.
A row's rate is GB/s against the measured copy bandwidth when the kernel's arithmetic intensity
(flops/byte) is below the machine's ridge point (peak GFLOP/s / bandwidth), else GFLOP/s against the
measured fma peak. Rows that did not run cleanly show their status, never a time.
"""
from __future__ import annotations

import json
import math
import platform
import statistics
import subprocess
import time
from pathlib import Path

from .machine import MACHINE, Limits
from .noise import geomean
from .report_math import math_table
from .runner import Row

SCHEMA = "loomcl-bench/1"
REFERENCE = "PoCL"
INTEL = "Intel"  # the second anchor, where its runtime is installed (impls.open_intel)
REFERENCES = (REFERENCE, INTEL)


def speed_ratio(row: Row, name: str, reference: str = REFERENCE) -> float | None:
    mine, theirs = row.results.get(name), row.results.get(reference)
    if mine and theirs and mine.ok and theirs.ok and mine.wall_ms and theirs.wall_ms:
        return theirs.min_ms / mine.min_ms
    return None


def ratio_geomeans(rows: list[Row], names: list[str], reference: str = REFERENCE) -> dict[str, float | None]:
    return {name: geomean(speed_ratio(row, name, reference) for row in rows)
            for name in names if name not in REFERENCES}


def rate(row: Row, ms: float, limits: Limits) -> str:
    seconds = ms * 1e-3
    gbs, gflops = row.bytes / seconds / 1e9, row.flops / seconds / 1e9
    bandwidth, peak = limits.bandwidth_gbs, limits.peak_gflops
    ridge = peak / bandwidth if math.isfinite(peak) and bandwidth else math.inf
    if row.flops and row.bytes and row.flops / row.bytes >= ridge or not row.bytes:
        text = f"{gflops:.1f} GFLOP/s {100 * gflops / peak:.0f}%"
    else:
        text = f"{gbs:.1f} GB/s {100 * gbs / bandwidth:.0f}%"
    if row.rate:
        unit, count = row.rate
        text += f" {count / seconds / 1e6:.0f} {unit}"
    return text


def cell(row: Row, name: str) -> str:
    result = row.results.get(name)
    if result is None:
        return "-"
    if result.ok:
        return f"{result.min_ms:.2f}" if result.wall_ms else "ok"
    return {"skipped": "skipped", "mismatch": "MISMATCH"}.get(result.status, "ERROR")


def table(rows: list[Row], names: list[str], limits: Limits) -> str:
    """A plain-text table, one line per row, the columns aligned."""
    loomcl = [n for n in names if n not in REFERENCES]
    pairs = [(n, ref) for ref in REFERENCES for n in loomcl]
    header = ["kernel", "size", *[f"{n} ms" for n in names], *[f"{n}/{ref}" for n, ref in pairs],
              *[f"{n} rate" for n in names], "numpy ms"]
    lines = [header]
    for row in rows:
        ratios = [speed_ratio(row, n, ref) for n, ref in pairs]
        rates = [rate(row, row.results[n].min_ms, limits) if _timed(row, n) else "" for n in names]
        lines.append([row.case.name, row.size, *[cell(row, n) for n in names],
                      *[f"{r:.2f}x" if r else "" for r in ratios], *rates,
                      f"{row.numpy_ms:.2f}" if row.numpy_ms is not None else ""])
    return aligned(lines, left=2)


def legend(names: list[str]) -> str:
    """What the table's columns mean, under it."""
    ratio = f"; NAME/PoCL: PoCL's time / NAME's (above 1: NAME is faster)" if REFERENCE in names else ""
    return ("ms: the best of the timed runs of one launch to its end" + ratio + "; rate: GB/s against the "
            "memory bandwidth, or GFLOP/s against the fma peak when the kernel computes more than it moves "
            "(% of that limit); numpy ms: the same computation in numpy, where there is one")


def probe_note(limits: Limits) -> list[str]:
    """Why the native probe (hand-written code at the machine's peak) can read below an OpenCL kernel:
    said when it does, since the percentages use the highest probe."""
    native = limits.fma_gflops.get(MACHINE)
    others = {n: v for n, v in limits.fma_gflops.items() if n != MACHINE and math.isfinite(v)}
    if native is None or not others:
        return []
    best = max(others, key=others.get)
    if native >= 0.95 * others[best]:
        return []
    return [f"(the native probe read below {best}'s fma kernel: it counts its threads' CPU time, so other load "
            f"does not lower it, but a core whose SMT sibling was busy or that clocked lower while it ran does; "
            f"the fma peak used is the highest probe)"]


def aligned(lines: list[list[str]], left: int, last_left: bool = False) -> str:
    """A header line and rows as text columns: the first `left` (and with `last_left` the last) to the left,
    the rest to the right, a rule under the header; a column nobody filled (only '' or '-') is left out,
    since it says nothing."""
    count = len(lines[0])
    to_left = [i < left or last_left and i == count - 1 for i in range(count)]
    filled = [i for i in range(count) if any(line[i] not in ("", "-") for line in lines[1:])]
    lines = [[line[i] for i in filled] for line in lines]
    to_left = [to_left[i] for i in filled]
    widths = [max(len(line[i]) for line in lines) for i in range(len(filled))]
    text = ["  ".join(v.ljust(w) if to_left[i] else v.rjust(w) for i, (v, w) in enumerate(zip(line, widths)))
            for line in lines]
    text.insert(1, "  ".join("-" * w for w in widths))
    return "\n".join(line.rstrip() for line in text)


def _timed(row: Row, name: str) -> bool:
    result = row.results.get(name)
    return bool(result and result.ok and result.wall_ms)


def problems(rows: list[Row]) -> list[str]:
    """One line per result that is not a time: skips with their reason, mismatches, errors."""
    return [f"{row.case.name} on {name}: {result.status}: {result.reason.removeprefix('skipped: ')}"
            for row in rows for name, result in row.results.items() if not result.ok]


def summary(rows: list[Row], names: list[str], limits: Limits, unavailable: list[str]) -> str:
    parts = [f"machine: memory {limits.bandwidth_gbs:.1f} GB/s (np.copyto {limits.numpy_copy_gbs:.1f}"
             + "".join(f", {n} {v:.1f}" for n, v in limits.copy_gbs.items())
             + f"), fma peak {limits.peak_gflops:.1f} GFLOP/s ("
             + ", ".join(f"{n} {v:.1f}" for n, v in limits.fma_gflops.items()) + ")",
             "launch + finish: " + ", ".join(f"{n} {one:.1f} µs (empty, 1 work-item) / {many:.1f} µs (64 groups of 64)"
                                           for n, (one, many) in limits.launch_us.items()),
             *probe_note(limits), "", table(rows, names, limits), legend(names), ""]
    if maths := math_table(rows, names):
        parts += [maths, ""]
    for reference in REFERENCES:
        for name, value in ratio_geomeans(rows, names, reference).items():
            if value is not None:
                count = sum(speed_ratio(row, name, reference) is not None for row in rows)
                parts.append(f"geometric mean {name}/{reference} speed ratio: {value:.2f}x over {count} kernels")
    parts += unavailable
    notes = problems(rows)
    if notes:
        parts += ["", *notes]
    return "\n".join(parts)


def git_commit() -> str | None:
    try:
        out = subprocess.run(["git", "rev-parse", "HEAD"], cwd=Path(__file__).parent,
                             capture_output=True, text=True, timeout=5)
        return out.stdout.strip() or None
    except (OSError, subprocess.SubprocessError):
        return None


def header(settings: dict) -> dict:
    """What every record starts with: the schema, when, which commit, on what, with which settings."""
    return {
        "schema": SCHEMA,
        "time": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
        "commit": git_commit(),
        "host": {"machine": platform.machine(), "processor": platform.processor(),
                 "python": platform.python_version()},
        "settings": settings,
    }


def to_json(rows: list[Row], names: list[str], limits: Limits, settings: dict, unavailable: list[str]) -> dict:
    """The tracking record. Schema 'loomcl-bench/1': times in ms; ratio = PoCL time / variant time."""
    return {
        **header(settings),
        "implementations": names,
        "unavailable": unavailable,
        "machine": {"copy_gbs": limits.bandwidth_gbs, "numpy_copy_gbs": limits.numpy_copy_gbs,
                    "peak_gflops": limits.peak_gflops, "copy_gbs_by_impl": limits.copy_gbs,
                    "fma_gflops_by_impl": limits.fma_gflops, "launch_us_by_impl": limits.launch_us,
                    "notes": limits.notes},
        "rows": [_row_json(row, names) for row in rows],
        "geomean_ratio": ratio_geomeans(rows, names),
        "geomean_ratio_intel": ratio_geomeans(rows, names, INTEL),
    }


def _row_json(row: Row, names: list[str]) -> dict:
    results = {}
    for name, r in row.results.items():
        entry = {"status": r.status, "reason": r.reason, "max_error": r.max_error}
        if r.ok and r.wall_ms:
            entry.update(min_ms=r.min_ms, median_ms=r.median_ms, event_min_ms=min(r.event_ms),
                         event_median_ms=statistics.median(r.event_ms), runs_ms=r.wall_ms)
        results[name] = entry
    return {"name": row.case.name, "family": row.case.family, "seed": row.case.seed, "size": row.size,
            "bytes": row.bytes, "flops": row.flops, "numpy_ms": row.numpy_ms, "needs": list(row.case.needs),
            "results": results, "ratio": {n: speed_ratio(row, n) for n in names if n not in REFERENCES},
            "ratio_intel": {n: speed_ratio(row, n, INTEL) for n in names if n not in REFERENCES}}


def write_json(path: str | Path, record: dict) -> None:
    Path(path).write_text(json.dumps(record, indent=1) + "\n")
