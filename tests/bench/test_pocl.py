"""Every case agrees with numpy on PoCL at its quick size (skipped where pyopencl or PoCL is absent).
Not a timing test: one warm-up run and the agreement check only."""
import pytest

from loomcl.bench import runner
from loomcl.bench.suite import CASES

pytest.importorskip("pyopencl")
pytestmark = pytest.mark.slow  # every case on PoCL, the comparison point: the slow tier


@pytest.fixture(scope="module")
def pocl():
    from loomcl.bench import impls
    impl = impls.open_pocl()
    if isinstance(impl, str):
        pytest.skip(impl)
    return impl


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_case_agrees_with_numpy_on_pocl(pocl, case):
    row = runner.run_case(case, [pocl], repeat=0, quick=True)
    result = row.results["PoCL"]
    assert result.status == "ok", result.reason
