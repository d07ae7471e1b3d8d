"""The analyses of one function, computed on demand and cached until the IR changes.

A pass asks `analyses.dominators` (or `post_dominators`, `loops`, `uniformity`,
`uniformity_along_x`, `strides`) and gets the cached result, computed the first time it is asked for. After a
pass that changed the function, the pipeline calls `invalidate(preserved)`: every analysis not named
in `preserved` is dropped and computed again when next asked for. A pass that changes the IR in the
middle of its own work and then needs fresh results invalidates them itself. Analyses never change
the IR, so asking is always safe; an analysis asked for after an unreported change is stale, which
is why the pipeline's `verify_each` mode checks that a pass reporting no change made none.

Analyses depend on each other (loops and uniformity use the dominator trees); a result is built from
the cached results it depends on, so `CFG_ANALYSES` may be preserved together by a pass that moves
or marks instructions but never adds, removes or redirects an edge.
"""
from __future__ import annotations

from typing import Callable

from ..ir.function import Function
from ..ir.dominators import DominatorTree, PostDominatorTree
from .loops import LoopInfo
from .strides import Strides
from .uniformity import Uniformity

DOMINATORS = "dominators"
POST_DOMINATORS = "post_dominators"
LOOPS = "loops"
UNIFORMITY = "uniformity"
UNIFORMITY_ALONG_X = "uniformity_along_x"
STRIDES = "strides"
ALL_ANALYSES = frozenset({DOMINATORS, POST_DOMINATORS, LOOPS, UNIFORMITY, UNIFORMITY_ALONG_X, STRIDES})
CFG_ANALYSES = frozenset({DOMINATORS, POST_DOMINATORS, LOOPS})
"""The analyses that depend only on the CFG's blocks and edges."""


class Analyses:
    """The cached analyses of `function`."""

    local_size: tuple[int, int, int] | None = None
    """The work-group size, when known (a PassContext knows it): strides then fold local sizes."""

    def __init__(self, function: Function) -> None:
        self.function = function
        self._cache: dict[str, object] = {}
        self.computed: dict[str, int] = {}
        """How many times each analysis was computed (for tests of the caching)."""

    def _get(self, name: str, compute: Callable[[], object]):
        if name not in self._cache:
            self._cache[name] = compute()
            self.computed[name] = self.computed.get(name, 0) + 1
        return self._cache[name]

    @property
    def dominators(self) -> DominatorTree:
        return self._get(DOMINATORS, lambda: DominatorTree(self.function))

    @property
    def post_dominators(self) -> PostDominatorTree:
        return self._get(POST_DOMINATORS, lambda: PostDominatorTree(self.function))

    @property
    def loops(self) -> LoopInfo:
        return self._get(LOOPS, lambda: LoopInfo(self.function, self.dominators))

    @property
    def uniformity(self) -> Uniformity:
        return self._get(UNIFORMITY, lambda: Uniformity(self.function, postdom=self.post_dominators))

    @property
    def uniformity_along_x(self) -> Uniformity:
        """Shapes along dimension 0 only: for cost models, never for legality (see Uniformity)."""
        return self._get(UNIFORMITY_ALONG_X,
                         lambda: Uniformity(self.function, along_x=True, postdom=self.post_dominators))

    @property
    def strides(self) -> Strides:
        """The strides of every memory access along the work-item ids and the loops (Kim ch. 3.3)."""
        return self._get(STRIDES, lambda: Strides(self.function, self.loops, self.local_size))

    def is_cached(self, name: str) -> bool:
        return name in self._cache

    def invalidate(self, preserved: frozenset[str] = frozenset()) -> None:
        """Forget every analysis not in `preserved` (after the function changed)."""
        unknown = set(preserved) - ALL_ANALYSES
        if unknown:
            raise ValueError(f"unknown analyses {sorted(unknown)}; known: {sorted(ALL_ANALYSES)}")
        self._cache = {name: result for name, result in self._cache.items() if name in preserved}
