"""The work-group form's guarantees, one per bug class it was built against (tests/difftest/
reported/workgroup): parallel copies across barriers, invariant code out of the work-item loops, and
parallel-access marks on shared memory only."""
import re

import numpy as np

from loomcl import ir
from loomcl.driver import backend
from loomcl.driver.compiler import build

from . import interp

SWAP = """
__kernel void swap(__global const float *x, __global const float *y, __global float *out, int n) {
    size_t gid = get_global_id(0);
    float a = x[gid], b = y[gid], c = 7.0f;
    for (int i = 0; i < n; i++) {
        float t = a; a = b; b = c; c = t;      /* a rotation: a lost copy would repeat one value */
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    out[3*gid] = a; out[3*gid+1] = b; out[3*gid+2] = c;
}"""


def loops_of(function):
    return {b for loop in function.work_item_loops for b in loop.blocks}


def test_values_rotated_across_a_barrier_keep_every_copy():
    program = build(SWAP)
    f = program.work_group_ir("swap", (4, 1, 1))
    x = np.arange(8, dtype=np.float32)
    y = 100 + x
    for n in range(4):
        out = np.zeros(24, np.float32)
        interp.run_work_groups(f, [x, y, out, n], (2,))
        columns = [x, y, np.full(8, 7.0, np.float32)]
        expected = np.stack(columns[n % 3:] + columns[:n % 3], 1).ravel()
        np.testing.assert_array_equal(out, expected, err_msg=f"n = {n}")


def test_a_uniform_division_under_a_varying_branch_leaves_the_work_item_loop():
    source = """
    __kernel void k(__global int *out, __global const int *in, uint n) {
        size_t gid = get_global_id(0);
        if (gid & 1) out[gid] = in[5u % n] + (int)(gid / n);
    }"""
    f = build(source).work_group_ir("k", (16, 1, 1))
    inside = loops_of(f)
    divisions = [i for i in f.instructions() if isinstance(i, ir.BinaryOp) and i.opcode.value in ("urem", "udiv")]
    urem = [i for i in divisions if i.opcode.value == "urem"]
    assert urem and all(i.block not in inside for i in urem)  # 5 % n: once per group
    assert any(i.block in inside for i in divisions if i.opcode.value == "udiv")  # gid / n varies


def test_only_shared_memory_carries_parallel_access_marks():
    source = """
    __kernel void k(__global int *out) {
        uint lid = get_local_id(0);
        uint pa[4] = {1u, 2u, (uint)get_global_id(0), lid};
        out[get_global_id(0)] = pa[lid & 3u] * 3u;
    }"""
    program = build(source)
    f = program.work_group_ir("k", (16, 1, 1))
    text = backend.llvm_ir(f, program.kernels["k"], optimized=False)
    stores = [line for line in text.splitlines() if line.strip().startswith("store ")]
    to_private = [line for line in stores if line.strip().startswith(("store i32 1,", "store i32 2,"))]
    to_out = stores[-1]  # out[gid] = ..., the last store of the loop
    assert len(to_private) == 2 and not any("llvm.access.group" in line for line in to_private)
    assert "llvm.access.group" in to_out


PREV_CUR = """
__kernel void k(__global int *out) {
    uint lid = get_local_id(0), gid = get_global_id(0);
    uint cur = lid, prev = lid * 7u;
    for (uint i = 0u; i < 2u; i++) {
        prev = cur;              /* an edge copy that reads cur's old value ... */
        cur = cur + 100u;
        barrier(CLK_LOCAL_MEM_FENCE);
        cur = cur >> 1;          /* ... after cur's new one is defined in the same block */
    }
    out[2u * gid] = (int)cur;
    out[2u * gid + 1u] = (int)prev;
}"""


def test_prev_and_cur_across_a_barrier_keep_the_old_value():
    """difftest seed 11387: the structured form stored `cur` right after its definition, and the copy
    `prev = cur` on the loop's back edge then read the new value."""
    f = build(PREV_CUR).work_group_ir("k", (3, 1, 1))
    out = np.zeros(12, np.int32)
    interp.run_work_groups(f, [out], (2,))
    lid = np.tile(np.arange(3), 2)
    cur1 = (lid + 100) >> 1
    np.testing.assert_array_equal(out[0::2], (cur1 + 100) >> 1)
    np.testing.assert_array_equal(out[1::2], cur1)
