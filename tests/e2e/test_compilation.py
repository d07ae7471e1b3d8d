"""The compiler as a whole: work-group IR that grows linearly with the number of barriers, and
barrier kernels that stay correct with each of loomcl's pipeline switches turned off."""
from __future__ import annotations

import numpy as np
import pytest

import loomcl as cl
from loomcl.driver import compiler

LOCAL = 64


def sequential_blocks(n_blocks: int) -> str:
    """N blocks `if (lid < k) {...} barrier(...)`, with a varying value (acc) live across all barriers."""
    body = []
    for b in range(n_blocks):
        k = LOCAL - 1 - (b * 7) % (LOCAL - 1)
        body.append(f"""
    if (lid < {k}) {{
        tmp[lid] += tmp[lid + 1] * {b % 5 + 1} - acc;
        acc += {b};
    }}
    barrier(CLK_LOCAL_MEM_FENCE);""")
    return f"""
__kernel void blocks(__global const int *in, __global int *out) {{
    __local int tmp[{LOCAL}];
    int lid = get_local_id(0);
    int acc = in[get_global_id(0)];
    tmp[lid] = acc;
    barrier(CLK_LOCAL_MEM_FENCE);{''.join(body)}
    out[get_global_id(0)] = tmp[lid] + acc;
}}
"""


def sequential_blocks_reference(data: np.ndarray, n_blocks: int) -> np.ndarray:
    out = np.empty_like(data)
    for start in range(0, data.size, LOCAL):
        acc = data[start:start + LOCAL].astype(np.int64)
        tmp = acc.copy()
        for b in range(n_blocks):
            k = LOCAL - 1 - (b * 7) % (LOCAL - 1)
            new = tmp.copy()
            new[:k] = tmp[:k] + tmp[1:k + 1] * (b % 5 + 1) - acc[:k]
            acc[:k] += b
            tmp = (new + (1 << 31)) % (1 << 32) - (1 << 31)
        out[start:start + LOCAL] = ((tmp + acc + (1 << 31)) % (1 << 32) - (1 << 31)).astype(np.int32)
    return out


def instruction_count(function) -> int:
    return sum(len(b.instructions) for b in function.blocks)


@pytest.mark.parametrize("options", ["", "-loomcl-no-structured -loomcl-no-fold-guards", "-loomcl-context-all"])
def test_work_group_ir_grows_linearly(options):
    counts = {}
    for n_blocks in (4, 8, 16, 32):
        program = compiler.build(sequential_blocks(n_blocks), options)
        counts[n_blocks] = instruction_count(program.work_group_ir("blocks", (LOCAL, 1, 1)))
    assert counts[4] < counts[8] < counts[16] < counts[32], counts
    assert counts[32] / counts[8] < 6, f"work-group IR grows faster than linearly: {counts}"
    assert counts[32] / counts[16] < 3, f"work-group IR grows faster than linearly: {counts}"


@pytest.mark.parametrize("n_blocks", [4, 32])
def test_sequential_barrier_blocks_run(run_kernel, rng, n_blocks):
    data = rng.integers(-1000, 1000, 4 * LOCAL).astype(np.int32)
    (_, out) = run_kernel(sequential_blocks(n_blocks), "blocks", (data.size,), (LOCAL,), data,
                          np.zeros_like(data))
    np.testing.assert_array_equal(out, sequential_blocks_reference(data, n_blocks))


SWITCHES = [
    "",
    "-loomcl-no-structured",
    "-loomcl-no-fold-guards",
    "-loomcl-no-structured -loomcl-no-fold-guards",
    "-loomcl-context-all",
    "-loomcl-no-vectorize -loomcl-no-parallel-metadata",
]

BARRIER_KERNELS = """
__kernel void reduce(__global const int *in, __global int *sums, __local int *tmp) {
    uint lid = get_local_id(0);
    tmp[lid] = in[get_global_id(0)];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint s = get_local_size(0) / 2; s > 0; s >>= 1) {
        if (lid < s)
            tmp[lid] += tmp[lid + s];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (lid == 0)
        sums[get_group_id(0)] = tmp[0];
}

__kernel void divergent_loop(__global int *acc, __global int *other, __local int *scratch) {
    int lid = get_local_id(0);
    int size = get_local_size(0);
    scratch[lid] = acc[get_global_id(0)];
    int seen = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int i = 0; i < 2 + lid; i++) {
        scratch[lid] += i;
        if (i < 2) {
            barrier(CLK_LOCAL_MEM_FENCE);
            seen += scratch[(lid + 1) % size];
            barrier(CLK_LOCAL_MEM_FENCE);
        }
    }
    acc[get_global_id(0)] = scratch[lid];
    other[get_global_id(0)] = seen;
}
"""


@pytest.mark.parametrize("options", SWITCHES)
def test_barrier_kernels_under_pipeline_switches(run_kernel, rng, options):
    local, n = 32, 32 * 5 + 16  # a ragged remainder group of 16
    data = rng.integers(-1000, 1000, n).astype(np.int32)
    groups = -(-n // local)
    (_, sums) = run_kernel(BARRIER_KERNELS, "reduce", (n,), (local,), data, np.zeros(groups, np.int32),
                           cl.LocalMemory(local * 4), options=options)
    np.testing.assert_array_equal(sums, [data[g * local:(g + 1) * local].sum() for g in range(groups)])
    (acc, other) = run_kernel(BARRIER_KERNELS, "divergent_loop", (n,), (local,), data, np.zeros(n, np.int32),
                              cl.LocalMemory(local * 4), options=options)
    lid = np.arange(n) % local
    np.testing.assert_array_equal(acc, data + (1 + lid) * (2 + lid) // 2)
    neighbour = np.concatenate([np.roll(data[s:s + local], -1) for s in range(0, n, local)])
    np.testing.assert_array_equal(other, 2 * neighbour + 1)
