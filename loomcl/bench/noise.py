"""When two timings of a kernel differ by more than noise: the rule the ablation and baseline tables share
(and `geomean`, the summary every table gives).

A timing is one implementation's entry in a row of the JSON record (report.to_json: status, min_ms,
median_ms). Times compare by their best run (min_ms), as everywhere in the bench. The noise of a
comparison is the larger of a floor and each side's own repeat spread (median / best - 1: how far its
runs scatter in that run). The floor is `--noise` (10% by default): on this 2-core machine shared with
other work, whole runs of the same code differ by 10-20% between sessions (README, Speed), while a row's
repeats can agree closely because they ran within one second of each other.
"""
from __future__ import annotations

import math

NOISE_FLOOR = 0.10


def timed(entry: dict | None) -> bool:
    """Whether a record entry ran cleanly and has times."""
    return bool(entry and entry.get("status") == "ok" and entry.get("min_ms"))


def spread(entry: dict) -> float:
    """median / best - 1 of one entry's runs (0 when it recorded only its best)."""
    median = entry.get("median_ms") or entry["min_ms"]
    return max(0.0, median / entry["min_ms"] - 1.0)


def noise(entries, floor: float = NOISE_FLOOR) -> float:
    """The relative difference below which times of these entries are taken as equal."""
    return max([floor, *(spread(e) for e in entries)])


def verdict(factor: float, margin: float) -> int:
    """factor = one time / another: +1 when larger beyond the margin, -1 when smaller, 0 within it."""
    if factor > 1.0 + margin:
        return 1
    if factor < 1.0 / (1.0 + margin):
        return -1
    return 0


def geomean(values) -> float | None:
    values = [v for v in values if v and v > 0 and math.isfinite(v)]
    if not values:
        return None
    return math.exp(sum(math.log(v) for v in values) / len(values))
