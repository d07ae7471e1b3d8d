"""The analysis manager: computed on demand, cached, dropped on invalidation except what is preserved."""
import pytest

from loomcl.analysis.manager import CFG_ANALYSES, UNIFORMITY, Analyses
from loomcl.ir.reader import read_function

LOOP = """kernel @k(ptr.global %p, i64 %n) {
entry:
  %lid = local_id 0
  jump head
head:
  %i = phi i64 [i64 0, entry], [%i1, head]
  %i1 = add %i, i64 1
  %more = cmp ult %i1, %n
  branch %more, head, done
done:
  store %i1, %p
  ret
}"""


def test_each_analysis_is_computed_once_until_invalidated():
    analyses = Analyses(read_function(LOOP))
    assert analyses.loops is analyses.loops
    assert analyses.uniformity is analyses.uniformity
    assert analyses.computed == {"dominators": 1, "loops": 1, "post_dominators": 1, "uniformity": 1}
    (loop,) = analyses.loops.loops
    assert loop.header.name == "head" and analyses.uniformity.is_uniform(analyses.function.blocks[1].phis[0])
    analyses.invalidate()
    assert analyses.loops is not None and analyses.computed["loops"] == 2


def test_preserved_analyses_survive_invalidation():
    analyses = Analyses(read_function(LOOP))
    dominators, uniformity = analyses.dominators, analyses.uniformity
    analyses.invalidate(CFG_ANALYSES)
    assert analyses.dominators is dominators and not analyses.is_cached(UNIFORMITY)
    assert analyses.uniformity is not uniformity


def test_unknown_analysis_names_are_refused():
    with pytest.raises(ValueError, match="unknown analyses"):
        Analyses(read_function(LOOP)).invalidate(frozenset({"dominator"}))
