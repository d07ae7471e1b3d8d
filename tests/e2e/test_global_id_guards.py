"""Guards on the global id (`if (i < n)`), which narrow-work-item-ids and fold-local-id-guards turn
into work-item loop bounds: checked at the edges (bounds below, inside and above the group's ids,
negative bounds, global offsets) against numpy, and checked to be folded."""
from __future__ import annotations

import numpy as np
import pytest

import loomcl as cl
from loomcl.driver import compiler
from loomcl.ir import print_function

SOURCE = """
__kernel void below(__global int *out, int n, int off)
{
    int i = get_global_id(0);
    if (i < n)
        out[i - off] = 1;
}

__kernel void at_least(__global int *out, int n, int off)
{
    int i = get_global_id(0);
    if (n <= i)
        out[i - off] = 1;
}

__kernel void below_unsigned(__global int *out, ulong n, ulong off)
{
    if (get_global_id(0) < n)
        out[get_global_id(0) - off] = 1;
}
"""

EXPECTED = {
    "below": lambda ids, n: ids < n,
    "at_least": lambda ids, n: ids >= n,
    "below_unsigned": lambda ids, n: ids.astype(np.uint64) < np.uint64(n % (1 << 64)),
}


@pytest.fixture(scope="module")
def program(ctx):
    return cl.Program(ctx, SOURCE).build()


@pytest.mark.parametrize("kernel", list(EXPECTED))
@pytest.mark.parametrize("offset", [0, 1000])
@pytest.mark.parametrize("n", [-5, 0, 1, 37, 64, 200, 1100, 1 << 20])
def test_guard_on_global_id_matches_numpy(ctx, queue, program, kernel, offset, n):
    if kernel == "below_unsigned" and n < 0:
        n = n % (1 << 64)  # a huge unsigned bound: every id passes
    size, local = 200, 64  # a remainder group of 8 too
    out = np.zeros(size, np.int32)
    buf = cl.Buffer(ctx, cl.mem_flags.READ_WRITE | cl.mem_flags.COPY_HOST_PTR, hostbuf=out)
    scalar = np.uint64 if kernel == "below_unsigned" else np.int32
    getattr(program, kernel)(queue, (size,), (local,), buf, scalar(n), scalar(offset), global_offset=(offset,))
    cl.enqueue_copy(queue, out, buf)
    ids = np.arange(size, dtype=np.int64) + offset
    np.testing.assert_array_equal(out, EXPECTED[kernel](ids, n).astype(np.int32))


@pytest.mark.parametrize("kernel", list(EXPECTED))
def test_guard_on_global_id_is_folded_when_ids_fit_in_int(kernel):
    built = compiler.build(SOURCE)
    folded = print_function(built.work_group_ir(kernel, (64, 1, 1), ids_fit_int=True))
    assert "guard.shifted" in folded and "branch %guard.any" in folded
    if kernel != "below_unsigned":  # without the promise, (int) of a global id is not exact
        plain = print_function(built.work_group_ir(kernel, (64, 1, 1), ids_fit_int=False))
        assert "guard.shifted" not in plain and "trunc nuw nsw" not in plain


SHIFTED = """
__kernel void shifted(__global int *out, long k, long n)
{
    if ((long)get_local_id(0) + k < n)
        out[get_global_id(0)] = 1;
}
"""


@pytest.mark.parametrize("k", [-10, 0, 7])
@pytest.mark.parametrize("n", [-5, 3, 40])
def test_guard_on_local_id_plus_an_arbitrary_term(ctx, queue, k, n):
    prg = cl.Program(ctx, SHIFTED).build()
    out = np.zeros(128, np.int32)
    buf = cl.Buffer(ctx, cl.mem_flags.READ_WRITE | cl.mem_flags.COPY_HOST_PTR, hostbuf=out)
    prg.shifted(queue, (128,), (64,), buf, np.int64(k), np.int64(n))
    cl.enqueue_copy(queue, out, buf)
    lid = np.arange(128) % 64
    np.testing.assert_array_equal(out, (lid + k < n).astype(np.int32))
