"""Every kernel of reported/workgroup/ and of found/ (legal programs loomcl once got wrong)
must give its expected output: natively in every build-option configuration (each file in a child process, so a
crash fails its test instead of killing pytest), in the interpreter on the work-group form of every
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


@pytest.fixture(scope="module")
def native_results():
    """Native results of every file, computed two files at a time (child processes)."""
    if not FILES:
        return {}
    with ThreadPoolExecutor(2) as pool:
        return dict(zip(FILES, pool.map(lambda p: regressions.native_results(p, NATIVE_CONFIGS), FILES)))


@lru_cache(maxsize=None)
def _loaded(path):
    source, case, expected = regressions.load(path)
    return compiler.build(source).module, case, expected


@pytest.mark.parametrize("config", NATIVE_CONFIGS, ids=lambda c: c or "default")
@pytest.mark.parametrize("path", FILES, ids=_id)
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
