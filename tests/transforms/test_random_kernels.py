"""Differential tests: random race-free kernels give the same results in the work-item interpreter
(OpenCL semantics) and in the work-group form of every pipeline variant."""
import numpy as np
import pytest

from loomcl.ir.reader import read_module
from loomcl.options import CompilerOptions
from loomcl.transforms.pipeline import work_group_function

from . import interp
from .random_kernels import VARS, random_kernel

VARIANTS = [CompilerOptions(structured=False, fold_guards=False, verify_each=True),
            CompilerOptions(context_all=True, structured=False, fold_guards=False, verify_each=True),
            CompilerOptions(verify_each=True)]


@pytest.mark.parametrize("seed", range(40))
def test_random_kernel(seed):
    text = random_kernel(seed)
    groups = 2
    for L in (1, 3, 4):
        for n in (-1, 2, 5):
            inp = (np.arange(groups * L, dtype=np.int32) * 7 + seed) % 23
            expected = np.zeros(groups * L * VARS, np.int32)
            module = read_module(text)
            interp.run_work_items(module.functions["random"], [inp, expected, n], (groups,), (L,))
            for options in VARIANTS:
                f = work_group_function(module, "random", (L, 1, 1), options)
                got = np.zeros_like(expected)
                interp.run_work_groups(f, [inp.copy(), got, n], (groups,))
                np.testing.assert_array_equal(got, expected, err_msg=f"seed {seed} L {L} n {n} {options}")
