"""The suite definition: every case is complete and self-consistent (no OpenCL needed)."""
import re

import numpy as np
import pytest

from loomcl.bench import configs
from loomcl.bench.case import Buf, Launch, Local, Tolerance
from loomcl.bench.suite import CASES, select

IDS = [case.name for case in CASES]


def test_at_least_the_issue_s_kernels():
    assert len(CASES) >= 22
    names = set(IDS)
    for required in ["copyBuffer", "saxpy", "boxAvg1", "boxAvgH1V1", "boxAvgH4V3", "boxAvg2", "mandelbrot",
                     "blackScholes", "nbody", "transpose", "sgemmNaive", "sgemmTiled", "sgemvRow",
                     "sgemvGroup", "colSums", "dgemmBlocked", "reduce", "scalarProd", "scan", "histogram256",
                     "bitonicSort", "dct8x8", "spmvJDS", "spmvCSR", "stencil5", "floydWarshall",
                     "fastWalsh", "barrierLoop"]:
        assert required in names


def test_names_are_unique_and_have_no_spaces():
    assert len(set(IDS)) == len(IDS)
    assert all(" " not in name and "," not in name for name in IDS)


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_case_metadata(case):
    assert case.family and case.seed and case.source.endswith(".cl")
    assert isinstance(case.tolerance, Tolerance)
    assert 0 < case.quick <= case.full
    assert "kernel void" in case.source_text()


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_quick_problem_is_consistent(case):
    problem = case.setup(case.quick, np.random.default_rng(0))
    source = case.source_text()
    assert problem.bytes > 0 and problem.flops >= 0
    assert problem.launches
    for launch in problem.launches:
        assert isinstance(launch, Launch)
        assert re.search(rf"kernel\s+void\s+{launch.kernel}\s*\(", source), launch.kernel
        if launch.local_size is not None:
            assert len(launch.local_size) == len(launch.global_size)
            assert all(g % l == 0 for g, l in zip(launch.global_size, launch.local_size))
        for arg in launch.args:
            if isinstance(arg, Buf):
                assert arg.name in problem.buffers
            else:   # numpy scalars, so every implementation types them alike
                assert isinstance(arg, (Local, np.generic)), (launch.kernel, arg)
    assert set(problem.reset) <= set(problem.buffers)
    reference = problem.reference()
    assert reference, "a case needs a numpy reference"
    for name, expected in reference.items():
        assert name in problem.buffers
        assert np.asarray(expected).size <= problem.buffers[name].size


def test_select_by_substring_and_glob():
    assert [c.name for c in select("sgemv")] == ["sgemvRow", "sgemvGroup"]
    assert [c.name for c in select("boxavg*")] == ["boxAvg1", "boxAvgH1V1", "boxAvgH4V3", "boxAvg2"]
    assert [c.name for c in select("copyBuffer,SAXPY")] == ["copyBuffer", "saxpy"]
    assert select(None) == CASES
    assert select("nothing-like-this") == []


def test_configs_always_include_the_default():
    chosen = configs.parse("novec,1thread")
    assert [c.name for c in chosen] == ["default", "novec", "1thread"]
    assert chosen[1].options.startswith("-loomcl-")
    assert chosen[2].threads == 1
    with pytest.raises(ValueError):
        configs.parse("turbo")
