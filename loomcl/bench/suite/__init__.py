"""The benchmark suite: every case, in table order, and selection by name."""
from __future__ import annotations

import fnmatch

from ..case import Case
from . import boxavg, compute, linalg, math, parallel, python_twins, stream

CASES: list[Case] = [*stream.CASES, *boxavg.CASES, *compute.CASES, *linalg.CASES, *parallel.CASES,
                     *math.CASES]


def select(only: str | None, cases: list[Case] = CASES) -> list[Case]:
    """Cases whose name matches one of the comma-separated patterns (a glob, or else a case-insensitive
    substring), or whose family is one of them ("math"); all of them when `only` is empty. The Python
    twins (python_twins.py) only when asked for: "python" (each beside its OpenCL C twin) or a
    pattern ending in ".py"."""
    if not only:
        return list(cases)
    patterns = [p.strip().lower() for p in only.split(",") if p.strip()]
    chosen = [case for case in cases
              if any(_matches(case.name.lower(), p) or case.family == p for p in patterns)]
    if python_twins.FAMILY in patterns:  # every Python twin, beside its OpenCL C twin
        chosen += [c for c in python_twins.C_TWINS if c not in chosen]
        twins = {case.name: twin for case, twin in zip(python_twins.C_TWINS, python_twins.CASES)}
        return [row for case in chosen for row in ([case, twins[case.name]] if case.name in twins else [case])]
    return chosen + [twin for twin in python_twins.CASES if any(_matches(twin.name.lower(), p) for p in patterns
                                                               if p.endswith(".py"))]


def _matches(name: str, pattern: str) -> bool:
    if any(ch in pattern for ch in "*?["):
        return fnmatch.fnmatchcase(name, pattern)
    return pattern in name
