"""The bench's Python twins (loomcl/bench/kernels/py/), each run on its OpenCL C twin's quick problem
and checked against that problem's numpy reference, with the bench's tolerance."""
import numpy as np
import pytest

import loomcl as cl
from loomcl.bench import runner
from loomcl.bench.impls import open_device
from loomcl.bench.suite import python_twins, select


@pytest.fixture(scope="module")
def impl():
    return open_device("loomcl", "loomcl", cl, cl.get_platforms()[0].get_devices()[0], "")


def test_the_issue_s_ten_kernels_have_twins():
    assert {c.name for c in python_twins.C_TWINS} == {
        "saxpy", "reduce", "sgemmTiled", "stencil5", "mandelbrot", "nbody", "histogram256", "scan", "transpose",
        "blackScholes"}


@pytest.mark.parametrize("case", python_twins.CASES, ids=[c.name for c in python_twins.CASES])
def test_twin_agrees_with_numpy(impl, case):
    problem = case.setup(case.quick, np.random.default_rng(1))
    prepared = runner.Prepared(impl, case, problem)
    prepared.run()
    agreement = prepared.check(problem.reference(), case.tolerance)
    assert agreement.ok, agreement.message


def test_python_family_selects_each_twin_beside_its_c_twin():
    names = [c.name for c in select("python")]
    assert names[names.index("saxpy") + 1] == "saxpy.py" and len(names) == 20
    assert [c.name for c in select("nbody.py")] == ["nbody.py"]
    assert "saxpy.py" not in [c.name for c in select("saxpy")]
