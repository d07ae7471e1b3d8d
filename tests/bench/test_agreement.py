"""Agreement with numpy: a wrong result is a mismatch, is never timed, and fails the run."""
import dataclasses
import types

import numpy as np
import pytest

from loomcl.bench import command as bench_main
from loomcl.bench import runner
from loomcl.bench.case import EXACT, Tolerance
from loomcl.bench.impls import Implementation, build_log_line

from .helpers import make_row


def test_compare_within_and_beyond_tolerance():
    want = np.array([1.0, 2.0, 3.0])
    assert runner.compare("x", np.float32(want), want, EXACT).ok
    assert runner.compare("x", want + 1e-6, want, Tolerance(rtol=1e-5)).ok
    wrong = runner.compare("x", want + [0, 0, 0.1], want, Tolerance(rtol=1e-5))
    assert not wrong.ok and "1 of 3" in wrong.message and "[2]" in wrong.message


def test_compare_checks_only_the_reference_s_elements_and_catches_nan():
    assert runner.compare("x", np.array([5.0, 99.0]), np.array([5.0]), EXACT).ok
    assert not runner.compare("x", np.array([np.nan]), np.array([1.0]), Tolerance(rtol=1.0)).ok


def test_compare_allows_a_fraction_of_bad_elements():
    want = np.zeros(1000)
    got = want.copy()
    got[:5] = 1
    assert runner.compare("x", got, want, Tolerance(max_bad_fraction=0.01)).ok
    assert not runner.compare("x", got, want, Tolerance(max_bad_fraction=0.001)).ok


def test_exit_status():
    assert bench_main.exit_status([make_row("a", {"loomcl": "skipped", "PoCL": [1.0]})]) == 0
    assert bench_main.exit_status([make_row("a", {"loomcl": "mismatch", "PoCL": [1.0]})]) == 1
    assert bench_main.exit_status([make_row("a", {"loomcl": [1.0], "PoCL": "error"})]) == 1


class FakeBuildError(Exception):
    pass


def fake_impl(kind, exc):
    cl = types.SimpleNamespace(RuntimeError=FakeBuildError)

    class Failing(Implementation):
        def build(self, source, options=""):
            raise exc

    return Failing("loomcl" if kind == "loomcl" else "PoCL", kind, cl, None, None, "fake")


def test_a_loomcl_build_error_is_a_skip_with_the_first_log_line():
    case = next(c for c in runner_cases() if c.name == "nbody")
    exc = FakeBuildError("clBuildProgram failed\n\nBuild on <device>:\n\n\nnbody.cl:6:47: error: float4 is not supported\nmore")
    result = runner.prepare(fake_impl("loomcl", exc), case, quick_problem(case))
    assert result.status == "skipped"
    assert result.reason == "skipped: nbody.cl:6:47: error: float4 is not supported"


def test_a_compiler_crash_is_an_error_not_a_skip():
    case = runner_cases()[0]
    result = runner.prepare(fake_impl("loomcl", KeyError("oops")), case, quick_problem(case))
    assert result.status == "error" and "KeyError" in result.reason


def test_build_log_line_without_a_log():
    assert build_log_line(RuntimeError("\n  unsupported: vectors\n")) == "unsupported: vectors"


def quick_problem(case):
    return case.setup(case.quick, np.random.default_rng(0))


def runner_cases():
    from loomcl.bench.suite import CASES
    return CASES


def test_a_wrong_result_on_pocl_is_a_mismatch_and_fails_the_run():
    pytest.importorskip("pyopencl")
    from loomcl.bench import impls
    pocl = impls.open_pocl()
    if isinstance(pocl, str):
        pytest.skip(pocl)
    from loomcl.bench.suite import stream
    wrong_copy = stream.CASES[0].setup

    def setup(n, rng):
        problem = wrong_copy(n, rng)
        right = problem.reference
        problem.reference = lambda: {"out": right()["out"] + 1.0}
        return problem

    broken = dataclasses.replace(stream.CASES[0], setup=setup)
    row = runner.run_case(broken, [pocl], repeat=2, quick=True)
    assert row.results["PoCL"].status == "mismatch"
    assert row.results["PoCL"].wall_ms == []
    assert bench_main.exit_status([row]) == 1


def test_build_log_line_when_build_on_is_mid_line():
    exc = RuntimeError("clBuildProgram failed: BUILD_PROGRAM_FAILURE - Build on <loomcl.Device 'cpu'>:\n\n"
                       "<kernel>:6:45: error: vector type 'float4' is not supported yet\n  kernel void ...")
    assert build_log_line(exc) == "<kernel>:6:45: error: vector type 'float4' is not supported yet"


def test_evict_caches_runs():
    runner.evict_caches()
    runner.evict_caches()
