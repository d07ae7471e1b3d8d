"""The benchmark suite: every case, in table order, and selection by name."""
from __future__ import annotations

import fnmatch

from ..case import Case
from . import boxavg, compute, linalg, math, parallel, stream

CASES: list[Case] = [*stream.CASES, *boxavg.CASES, *compute.CASES, *linalg.CASES, *parallel.CASES,
                     *math.CASES]


def select(only: str | None, cases: list[Case] = CASES) -> list[Case]:
    """Cases whose name matches one of the comma-separated patterns (a glob, or else a case-insensitive
    substring), or whose family is one of them ("math"); all of them when `only` is empty."""
    if not only:
        return list(cases)
    patterns = [p.strip().lower() for p in only.split(",") if p.strip()]
    return [case for case in cases
            if any(_matches(case.name.lower(), p) or case.family == p for p in patterns)]


def _matches(name: str, pattern: str) -> bool:
    if any(ch in pattern for ch in "*?["):
        return fnmatch.fnmatchcase(name, pattern)
    return pattern in name
