"""Checked mode: a barrier reached by part of a work-group, or different barriers reached by
different work-items, raises BarrierDivergenceError (the default mode silently skips code)."""
from __future__ import annotations

import numpy as np

import loomcl as cl

from safety_helpers import WORK_ITEM, buffer, lines

REQUIREMENT = "OpenCL requires every work-item of a group to reach the same barriers"


def test_barrier_reached_by_part_of_the_group(checked_error):
    src = """__kernel void part(__global int *out) {
    int l = get_local_id(0);
    if (l < 3) {
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    out[get_global_id(0)] = l;
}"""
    error = checked_error(src, "part", (16,), (8,), np.zeros(16, np.int32), error=cl.BarrierDivergenceError)
    assert lines(error) == [
        "<kernel>:4:9: error: barrier divergence in kernel 'part': this work-item went on to the end of the "
        "kernel, but another work-item of its group went on to the barrier at <kernel>:4:9; " + REQUIREMENT,
        "        barrier(CLK_LOCAL_MEM_FENCE);",
        "        ^",
        WORK_ITEM.format("3, 0, 0", "3, 0, 0", "0, 0, 0"),
    ]


def test_different_barriers(checked_error):
    src = """__kernel void two(__global int *out) {
    int l = get_local_id(0);
    if (l < 4) {
        barrier(CLK_LOCAL_MEM_FENCE);
    } else {
        barrier(CLK_GLOBAL_MEM_FENCE);
    }
    out[get_global_id(0)] = l;
}"""
    error = checked_error(src, "two", (16,), (8,), np.zeros(16, np.int32), error=cl.BarrierDivergenceError)
    assert lines(error) == [
        "<kernel>:6:9: error: barrier divergence in kernel 'two': this work-item went on to the barrier at "
        "<kernel>:6:9, but another work-item of its group went on to the barrier at <kernel>:4:9; " + REQUIREMENT,
        "        barrier(CLK_GLOBAL_MEM_FENCE);",
        "        ^",
        WORK_ITEM.format("4, 0, 0", "4, 0, 0", "0, 0, 0"),
    ]


def test_barrier_in_a_loop_with_varying_trip_count(checked_error):
    src = """__kernel void loops(__global int *out) {
    int l = get_local_id(0);
    for (int k = 0; k < l; k++) {
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    out[get_global_id(0)] = l;
}"""
    error = checked_error(src, "loops", (4, 2), (2, 2), np.zeros(8, np.int32), error=cl.BarrierDivergenceError)
    assert "this work-item went on to the barrier at <kernel>:4:9, but another work-item of its group went on " \
           "to the end of the kernel" in lines(error)[0]
    assert lines(error)[3] == WORK_ITEM.format("1, 0, 0", "1, 0, 0", "0, 0, 0")


def test_group_dependent_divergence_names_the_group(checked_error):
    src = """__kernel void late(__global int *out) {
    if (get_group_id(0) == 2 && get_local_id(0) == 5) {
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    out[get_global_id(0)] = 1;
}"""
    error = checked_error(src, "late", (32,), (8,), np.zeros(32, np.int32), error=cl.BarrierDivergenceError)
    # the first work-item of group 2 went to the kernel's end; work-item 5 is the one that differs
    assert lines(error)[3] == WORK_ITEM.format("21, 0, 0", "5, 0, 0", "2, 0, 0")


def test_convergent_barriers_in_varying_loops_pass(ctx, queue):
    """Every work-item runs the barrier the same number of times, inside a loop of varying length
    (hipSYCL listing 3.3): legal, so checked mode must not complain."""
    src = """__kernel void legal(__global int *acc, __local int *scratch) {
    int lid = get_local_id(0);
    scratch[lid] = lid;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int i = 0; i < 2 + lid; i++) {
        scratch[lid] += i;
        if (i < 2) barrier(CLK_LOCAL_MEM_FENCE);
    }
    acc[get_global_id(0)] = scratch[lid];
}"""
    kernel = cl.Program(ctx, src).build(options="-loomcl-check").legal
    out = buffer(ctx, np.zeros(32, np.int32))
    kernel(queue, (32,), (16,), out, cl.LocalMemory(16 * 4))
    host = np.empty(32, np.int32)
    cl.enqueue_copy(queue, host, out)
    lid = np.arange(32) % 16
    np.testing.assert_array_equal(host, lid + (1 + lid) * (2 + lid) // 2)
