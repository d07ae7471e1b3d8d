"""A side-effect-free loop the user wrote stays a loop: OpenCL C 1.2 is C99, which has no
forward-progress rule, so `while (flag[i] == 0) {}` may wait on memory that another agent sets and
must not be deleted (simplify's empty-work-item-loop removal did; codegen also no longer marks
work-item loops `mustprogress`, which would make an endless inner loop undefined)."""
from __future__ import annotations

import numpy as np

from loomcl.driver import backend, compiler
from loomcl.ir import print_function

SPIN = """
__kernel void spin(__global int *flag) {
    while (flag[get_global_id(0)] == 0) {}
}
"""


def test_spin_loop_survives_the_work_group_compiler():
    program = compiler.build(SPIN)
    function = program.work_group_ir("spin", (16, 1, 1), ids_fit_int=True)
    text = print_function(function)
    assert "load" in text, text  # the loop (and its read of the flag) is still there


def test_spin_loop_survives_llvm():
    program = compiler.build(SPIN)
    function = program.work_group_ir("spin", (16, 1, 1), ids_fit_int=True)
    optimized = backend.llvm_ir(function, program.kernels["spin"], program.options)
    assert "llvm.loop.mustprogress" not in optimized
    assert "load" in optimized, optimized  # the loop still reads the flag


def test_spin_loop_ends_when_the_flag_is_set(run_kernel):
    flags = np.arange(1, 33, dtype=np.int32)
    (after,) = run_kernel(SPIN, "spin", (32,), (8,), flags)
    np.testing.assert_array_equal(after, flags)
