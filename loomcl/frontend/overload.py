"""Overload resolution for builtin calls.

Rule (what clang applies to OpenCL's overloaded builtins, simplified to scalars): an overload is
viable if it has as many parameters as there are arguments and each argument converts implicitly to
its parameter. An exact match (every argument rank 0) wins. Otherwise the best viable overload is
the one whose every argument conversion is at least as good as the others' and one is strictly
better (ranks: exact < promotion < conversion < splat, conversions.conversion_rank). No viable overload, or
no single best one, is an error; the caller lists the candidates (for an ambiguity, the viable
overloads that no other viable overload beats).
"""
from __future__ import annotations

from dataclasses import dataclass

from . import types as T
from .builtins import Overload
from .conversions import conversion_rank


@dataclass
class Resolution:
    chosen: Overload | None
    ambiguous: list[Overload]       # when chosen is None and several tie
    candidates: tuple[Overload, ...]


def resolve(candidates: tuple[Overload, ...], args: list[T.Type]) -> Resolution:
    viable = []
    for overload in candidates:
        ranks = _ranks(overload, args)
        if ranks is not None:
            viable.append((overload, ranks))
    exact = [o for o, ranks in viable if not any(ranks)]
    if len(exact) == 1:
        return Resolution(exact[0], [], candidates)
    best = [o for o, ranks in viable if all(_better(ranks, other) for p, other in viable
                                            if p is not o)]
    if len(best) == 1:
        return Resolution(best[0], [], candidates)
    undominated = [o for o, ranks in viable if not any(_better(other, ranks) for p, other in viable
                                                       if p is not o)]
    return Resolution(None, undominated, candidates)


def _ranks(overload: Overload, args: list[T.Type]) -> list[int] | None:
    if len(overload.params) != len(args):
        return None
    ranks = []
    for arg, param in zip(args, overload.params):
        rank = conversion_rank(arg, param)
        if rank is None:
            return None
        ranks.append(rank)
    return ranks


def _better(ranks: list[int], other: list[int]) -> bool:
    """ranks is at least as good everywhere and strictly better somewhere."""
    return all(a <= b for a, b in zip(ranks, other)) and any(a < b for a, b in zip(ranks, other))
