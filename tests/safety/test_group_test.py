"""Checked mode's fast path (codegen/check_ranges.py): which checks one per-group test may prove, and
that a group which fails the test still reports the exact work-item (the checked body runs)."""
from __future__ import annotations

import numpy as np
import pytest

import loomcl as cl
from loomcl.codegen.check_ranges import group_test
from loomcl.driver import compiler

from safety_helpers import WORK_ITEM, buffer, lines


def proven_lines(src: str, name: str, local_size=(8, 1, 1)) -> list[int]:
    """Source lines of the checks the group test proves, in order."""
    program = compiler.build(src, "-loomcl-check")
    function = program.work_group_ir(name, local_size, True)
    test = group_test(function)
    return [] if test is None else [p.check.loc.line for p in test.proven]


def test_affine_accesses_are_proven_and_the_others_are_not():
    src = """__kernel void mix(__global float *a, __global const int *idx, int k, __local float *t) {
    int i = get_global_id(0);
    a[i] = 1.0f;
    a[2 * i + 3] = 2.0f;
    a[idx[i]] = 3.0f;
    a[i * k] = 4.0f;
    t[get_local_id(0)] = a[i - 1];
    for (int j = 0; j < k; j++) a[j] += 1.0f;
}"""
    # line 3, 4: affine; 5: idx[i] is, a[idx[i]] is not (a loaded index); 6: i times a run-time
    # leaf; 7: both; 8: j is a loop variable, not a local id
    assert proven_lines(src, "mix") == [3, 4, 5, 6, 7, 7]


def test_a_row_times_a_run_time_width_is_proven():
    src = """__kernel void rows(__global float *a, int w) {
    int x = get_global_id(0), y = get_global_id(1);
    a[y * w + x] = 1.0f;
}"""
    assert proven_lines(src, "rows", (8, 4, 1)) == [3]


@pytest.mark.parametrize("w, local, where", [(17, (8, 4), ("13, 3, 0", "5, 3, 0", "1, 0, 0")),
                                             (1 << 26, (16, 4), ("0, 1, 0", "0, 1, 0", "0, 0, 0"))])
def test_a_two_dimensional_overrun_is_reported_exactly(checked_error, w, local, where):
    """w = 17 overruns in the last row of the second group only (the first passes the group test);
    a width too big for the test's bounds takes the checked body and still finds the first overrun."""
    src = """__kernel void rows(__global float *a, int w) {
    int x = get_global_id(0), y = get_global_id(1);
    a[y * w + x] = 1.0f;
}"""
    error = checked_error(src, "rows", (16, 4), local, np.zeros(64, np.float32), np.int32(w),
                          error=cl.OutOfBoundsError)
    assert lines(error)[3] == WORK_ITEM.format(*where)


def test_a_wide_coefficient_is_not_proven():
    src = """__kernel void far(__global float *a) { a[get_global_id(0) * 100000] = 1.0f; }"""
    assert proven_lines(src, "far") == []


@pytest.mark.parametrize("shift", [1, -1])
def test_a_group_the_test_rejects_reports_the_exact_work_item(checked_error, shift):
    src = """__kernel void shifted(__global float *a, int s) {
    int i = get_global_id(0);
    a[i + s] = 1.0f;
}"""
    error = checked_error(src, "shifted", (64,), (16,), np.zeros(64, np.float32), np.int32(shift),
                          error=cl.OutOfBoundsError)
    where = ("63, 0, 0", "15, 0, 0", "3, 0, 0") if shift == 1 else ("0, 0, 0", "0, 0, 0", "0, 0, 0")
    assert lines(error)[3] == WORK_ITEM.format(*where)


def test_narrow_arithmetic_that_wraps_takes_the_checked_body(ctx, queue):
    """(i + big) wraps in int for i >= 48; the test sees the range leave int and runs the checked
    body, which checks the address the machine really computes (two's complement: i again)."""
    src = """__kernel void wraps(__global float *a, int big) {
    int i = get_global_id(0);
    a[(i + big) - 2147483600] = 1.0f;
}"""
    program = compiler.build(src, "-loomcl-check")
    test = group_test(program.work_group_ir("wraps", (64, 1, 1), True))
    assert any(bits == 32 for _, bits in test.narrow)  # the sum's range is part of the test
    kernel = cl.Program(ctx, src).build(options="-loomcl-check").wraps
    data = buffer(ctx, np.zeros(64, np.float32))
    kernel(queue, (64,), (64,), data, np.int32(2147483600))
    host = np.empty(64, np.float32)
    cl.enqueue_copy(queue, host, data)
    assert host.tolist() == [1.0] * 64
