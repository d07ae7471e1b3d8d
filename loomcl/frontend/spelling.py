"""Spelling suggestions for diagnostics: the known name closest to a misspelled one.

Closeness is the Levenshtein edit distance (insertions, deletions and substitutions of one
character each cost 1), computed row by row. Like clang's typo correction, a name is suggested only
within (length + 2) // 3 edits of the typo, so that short typos do not get far-fetched advice;
among equally close names the alphabetically first wins, which keeps messages stable.
"""
from __future__ import annotations

from typing import Iterable


def edit_distance(a: str, b: str) -> int:
    previous = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        current = [i]
        for j, cb in enumerate(b, 1):
            current.append(min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (ca != cb)))
        previous = current
    return previous[-1]


def closest_name(typo: str, names: Iterable[str]) -> str | None:
    """The name nearest to typo within clang's limit, or None."""
    limit = (len(typo) + 2) // 3
    scored = ((edit_distance(typo, name), name) for name in set(names)
              if abs(len(name) - len(typo)) <= limit)
    distance, name = min(scored, default=(limit + 1, None))
    return name if distance <= limit else None
