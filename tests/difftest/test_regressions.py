"""Every kernel of reported/workgroup/ and of found/ (legal programs loomcl once got wrong)
must give its expected output: natively in every build-option configuration (each file in a child process, so a
crash fails its test instead of killing pytest; the quick tier: the default options and a share of the others), in the interpreter on the work-group form of every
pipeline configuration, and in the work-item reference itself."""
from concurrent.futures import ThreadPoolExecutor
from functools import lru_cache

import numpy as np
import pytest

from loomcl.driver import compiler
from loomcl.transforms.pipeline import work_group_function

from . import regressions
from .check import INTERP_CONFIGS, NATIVE_CONFIGS, interp, interp_args, reference

FILES = regressions.files()


def _id(path):
    return path.stem


def _quick(index: int, config: str) -> bool:
    """The quick tier runs each file natively with the default options and its share of the others
    (configuration k for file k - 1 modulo the files: together they reach every one); the slow tier
    runs every file in every configuration."""
    k = NATIVE_CONFIGS.index(config)
    return k == 0 or (k - 1) % len(FILES) == index


@pytest.fixture(scope="module")
def native_results(request):
    """Native results of the (file, configuration) pairs this run selected, two files at a time (child
    processes)."""
    wanted: dict = {}
    for item in request.session.items:
        if item.originalname == "test_native":
            wanted.setdefault(item.callspec.params["path"], []).append(item.callspec.params["config"])
    with ThreadPoolExecutor(2) as pool:
        return dict(zip(wanted, pool.map(lambda p: regressions.native_results(p, wanted[p]), wanted)))


@lru_cache(maxsize=None)
def _loaded(path):
    source, case, expected = regressions.load(path)
    return compiler.build(source).module, case, expected


@pytest.mark.parametrize("path, config", [
    pytest.param(path, config, id=f"{path.stem}-{config or 'default'}",
                 marks=[] if _quick(index, config) else [pytest.mark.slow])
    for index, path in enumerate(FILES) for config in NATIVE_CONFIGS])
def test_native(path, config, native_results):
    ok, detail = native_results[path][config]
    assert ok, f"{path.name} with {config or 'default options'}: {detail}"


@pytest.mark.parametrize("config", list(INTERP_CONFIGS))
@pytest.mark.parametrize("path", FILES, ids=_id)
def test_work_group_form_in_interpreter(path, config):
    module, case, expected = _loaded(path)
    function = work_group_function(module, case.kernel, case.local_size, INTERP_CONFIGS[config])
    args = interp_args(case)
    interp.run_work_groups(function, args, case.num_groups, work_dim=len(case.local_size))
    np.testing.assert_array_equal(args[case.output].view(np.uint32), expected.view(np.uint32),
                                  err_msg=f"{path.name}, pipeline {config}")


@pytest.mark.parametrize("path", FILES, ids=_id)
def test_reference_agrees_with_expected_output(path):
    """The work-item reference (checked: legal program) computes out_expected."""
    module, case, expected = _loaded(path)
    got = reference(module, case)
    np.testing.assert_array_equal(got.view(np.uint32), expected.view(np.uint32))
