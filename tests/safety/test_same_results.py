"""Checked mode changes nothing when nothing is wrong: correct kernels of the end-to-end suite give
bit-identical results with and without `-loomcl-check` (barriers, local memory arguments and
arrays, atomics, private arrays in the arena, structs, vectors, ragged NDRanges)."""
from __future__ import annotations

import os
import sys

import numpy as np
import pytest

import loomcl as cl

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "e2e"))

import test_barriers  # noqa: E402
import test_language  # noqa: E402
import test_local_memory  # noqa: E402
import test_private_memory  # noqa: E402
import test_structs  # noqa: E402

from safety_helpers import buffer  # noqa: E402

RNG = np.random.default_rng(7)
N = 256


def ints(n, low=-100, high=100, dtype=np.int32):
    return RNG.integers(low, high, n).astype(dtype)


CASES = {
    "reduce-local-arg": (test_barriers.REDUCE_ARG, "reduce", (N + 64,), (128,),
                         lambda: [ints(N + 64).astype(np.float32), np.zeros(N + 64, np.float32),
                                  np.full(N + 64, -1, np.int32), cl.LocalMemory(256 * 4)]),
    "reduce-static-local": (test_barriers.REDUCE_STATIC, "reduce", (N,), (64,),
                            lambda: [ints(N).astype(np.float32), np.zeros(N, np.float32), np.full(N, -1, np.int32)]),
    "scan": (test_barriers.SCAN, "scan", (N,), (32,), lambda: [ints(N), np.zeros(N, np.int32), cl.LocalMemory(32 * 4)]),
    "listing-3.3": (test_barriers.LISTING_3_3, "listing_3_3_while", (N + 13,), (32,),
                    lambda: [ints(N + 13), np.zeros(N + 13, np.int32), np.zeros(N + 13, np.int32),
                             cl.LocalMemory(256 * 4)]),
    "histogram": (test_local_memory.HISTOGRAM, "histogram", (128,), (64,),
                  lambda: [ints(5000, 0, 256, np.uint8), np.int32(5000), np.zeros(256, np.uint32)]),
    "private-arena": (test_private_memory.SOURCE, "scramble", (128,), (64,), lambda: [np.zeros(128, np.float32)]),
    "private-arrays": (test_language.PRIVATE_ARRAYS, "private_data", (N,), (16,),
                       lambda: [ints(N), np.zeros(N, np.int32), np.zeros(N, np.float32), np.int32(N)]),
    "records": (test_structs.RECORDS, "records", (48,), (16,),
                lambda: [np.zeros(48, test_structs.RECORD), _records(48), np.zeros(1, np.int32)]),
    "vectors": (test_language.VECTORS, "vectors", (N,), (16,),
                lambda: [RNG.random(4 * N).astype(np.float32), np.zeros(4 * N, np.float32),
                         np.zeros(4 * N, np.float32)]),
}


def _records(n):
    records = np.zeros(n, test_structs.RECORD)
    records["c"], records["d"] = ints(n), RNG.random(n)
    records["i"], records["s"] = ints(n, -1000, 1000), ints(n, -1000, 1000)
    return records


def run(ctx, queue, case, options):
    src, name, global_size, local_size, make_args = case
    args = make_args()
    kernel = getattr(cl.Program(ctx, src).build(options=options), name)
    buffers = [buffer(ctx, a) if isinstance(a, np.ndarray) else a for a in args]
    kernel(queue, global_size, local_size, *buffers)
    outputs = []
    for host, buf in zip(args, buffers):
        if isinstance(host, np.ndarray):
            out = np.empty_like(host)
            cl.enqueue_copy(queue, out, buf)
            outputs.append(out)
    return outputs


@pytest.mark.parametrize("case", sorted(CASES))
def test_checked_mode_gives_identical_results(ctx, queue, case):
    state = RNG.bit_generator.state
    plain = run(ctx, queue, CASES[case], "")
    RNG.bit_generator.state = state  # the same inputs
    checked = run(ctx, queue, CASES[case], "-loomcl-check")
    for a, b in zip(plain, checked):
        assert a.tobytes() == b.tobytes()


@pytest.mark.parametrize("options", ["", "-loomcl-check"])
def test_a_kernel_sees_a_sub_buffer_from_its_start(ctx, queue, options):
    parent = buffer(ctx, np.zeros(16, np.float32))
    src = "kernel void k(global float *a) { a[get_global_id(0)] = get_global_id(0) + 1; }"
    cl.Program(ctx, src).build(options=options).k(queue, (4,), None, parent[16:32])
    whole = np.empty(16, np.float32)
    cl.enqueue_copy(queue, whole, parent)
    assert whole.tolist() == [0] * 4 + [1, 2, 3, 4] + [0] * 8
