"""Atomics on __local memory compile to plain read-modify-write code (a work-group runs on one thread,
in its own arena), global ones stay atomic; results are checked end to end in tests/e2e."""
from __future__ import annotations

from loomcl.driver import backend
from loomcl.driver import compiler

SOURCE = """
kernel void hist(global const uchar *data, global int *bins, local int *tmp)
{
    int lid = get_local_id(0);
    tmp[lid] = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    atomic_inc(&tmp[data[get_global_id(0)]]);
    atomic_max(&tmp[0], lid);
    atomic_cmpxchg(&tmp[1], 0, lid);
    barrier(CLK_LOCAL_MEM_FENCE);
    atomic_add(&bins[lid], tmp[lid]);
}
"""


def test_local_atomics_are_plain_and_global_ones_atomic():
    program = compiler.build(SOURCE)
    function = program.work_group_ir("hist", (256, 1, 1), ids_fit_int=True)
    text = backend.llvm_ir(function, program.kernels["hist"], program.options, optimized=False)
    assert text.count("atomicrmw") == 1  # bins[lid] only
    assert "cmpxchg" not in text and "@llvm.smax.i32" in text
