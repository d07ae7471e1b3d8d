"""Cooperative work-group patterns and multi-pass algorithms: reductions, scan, histogram, bitonic sort,
FloydWarshall, FastWalshTransform, and the barrier in a loop with a varying trip count.

Bytes of a multi-pass case add up the traffic of every launch."""
from __future__ import annotations

import math

import numpy as np

from ..case import EXACT, Buf, Case, Launch, Local, Problem, Tolerance
from .common import count_label, uniform

LOCAL = 256


def reduce_setup(n, rng):
    """reduce_sum again and again on the partial sums, SYCL-Bench style, until one value is left."""
    data = uniform(rng, n)
    buffers, launches, src, length, level = {"in": data}, [], "in", n, 0
    while length > 1:
        groups = (length + LOCAL - 1) // LOCAL
        dst = f"partial{level}"
        buffers[dst] = np.zeros(groups, np.float32)
        launches.append(Launch("reduce_sum", (groups * LOCAL,), (LOCAL,),
                               (Buf(src), Buf(dst), Local(4 * LOCAL), np.int32(length))))
        src, length, level = dst, groups, level + 1
    return Problem(
        size=count_label(n), buffers=buffers, launches=launches,
        reference=lambda: {src: np.array([data.sum(dtype=np.float64)])},
        numpy=lambda: data.sum(),
        bytes=4 * n, flops=n)


SCALAR_PROD_GROUPS = 96     # not a divisor of the pair count: groups loop 5 or 6 times


def scalar_prod_setup(length, rng, pairs=512):
    a, b = uniform(rng, (pairs, length)), uniform(rng, (pairs, length))
    return Problem(
        size=f"{pairs}x{count_label(length)}",
        buffers={"result": np.zeros(pairs, np.float32), "a": a, "b": b},
        launches=[Launch("scalar_prod", (SCALAR_PROD_GROUPS * LOCAL,), (LOCAL,),
                         (Buf("result"), Buf("a"), Buf("b"), Local(4 * LOCAL),
                          np.int32(pairs), np.int32(length)))],
        reference=lambda: {"result": np.einsum("ij,ij->i", a.astype(np.float64), b)},
        numpy=lambda: np.einsum("ij,ij->i", a, b),
        bytes=8 * pairs * length, flops=2.0 * pairs * length)


def scan_setup(n, rng):
    data = rng.integers(0, 4, n).astype(np.float32)     # small integers: float sums stay exact
    block = 2 * LOCAL

    def reference():
        blocks = data.reshape(-1, block).astype(np.float64)
        inclusive = np.cumsum(blocks, axis=1)
        return {"out": inclusive - blocks, "block_sums": inclusive[:, -1]}

    return Problem(
        size=count_label(n),
        buffers={"in": data, "out": np.zeros_like(data), "block_sums": np.zeros(n // block, np.float32)},
        launches=[Launch("scan_blelloch", (n // 2,), (LOCAL,),
                         (Buf("in"), Buf("out"), Buf("block_sums"), Local(4 * block)))],
        reference=reference,
        numpy=lambda: np.cumsum(data.reshape(-1, block), axis=1),
        bytes=8 * n, flops=2 * n)


HISTOGRAM_GROUPS = 64


def histogram_setup(words, rng):
    data = rng.integers(0, 1 << 32, words, dtype=np.uint64).astype(np.uint32)
    groups = HISTOGRAM_GROUPS
    return Problem(
        size=f"{count_label(4 * words)} bytes",
        buffers={"data": data, "partial": np.zeros(groups * 256, np.uint32),
                 "histogram": np.zeros(256, np.uint32)},
        launches=[Launch("histogram256", (groups * LOCAL,), (LOCAL,),
                         (Buf("data"), Buf("partial"), np.int32(words))),
                  Launch("histogram_merge", (256,), (64,), (Buf("partial"), Buf("histogram"), np.int32(groups)))],
        reference=lambda: {"histogram": np.bincount(data.view(np.uint8), minlength=256)},
        numpy=lambda: np.bincount(data.view(np.uint8), minlength=256),
        bytes=4 * words, flops=0)


def bitonic_setup(n, rng):
    keys = rng.integers(0, 1 << 32, n, dtype=np.uint64).astype(np.uint32)
    stages = int(math.log2(n))
    launches = [Launch("bitonic_pass", (n // 2,), (LOCAL,),
                       (Buf("keys"), np.uint32(stage), np.uint32(p), np.uint32(1)))
                for stage in range(stages) for p in range(stage + 1)]
    return Problem(
        size=f"{count_label(n)} keys, {len(launches)} passes",
        buffers={"keys": keys}, launches=launches,
        reference=lambda: {"keys": np.sort(keys)},
        numpy=lambda: np.sort(keys),
        reset=("keys",), bytes=8.0 * n * len(launches), flops=0)


def floyd_warshall(dist):
    d, path = dist.copy(), np.zeros_like(dist)
    for k in range(len(d)):
        through_k = d[:, k, None] + d[None, k, :]
        shorter = through_k < d
        d = np.where(shorter, through_k, d)
        path[shorter] = k
    return d, path


def floyd_setup(n, rng):
    dist = rng.integers(1, 1000, (n, n)).astype(np.uint32)
    np.fill_diagonal(dist, 0)

    def reference():
        d, path = floyd_warshall(dist)
        return {"dist": d, "path": path}

    launches = [Launch("floyd_warshall_pass", (n, n), (16, 16),
                       (Buf("dist"), Buf("path"), np.int32(n), np.int32(k))) for k in range(n)]
    return Problem(
        size=f"{n} nodes, {n} passes",
        buffers={"dist": dist, "path": np.zeros_like(dist)}, launches=launches,
        reference=reference, numpy=lambda: floyd_warshall(dist),
        reset=("dist", "path"), bytes=8.0 * n ** 3, flops=0)


def walsh(data, dtype=np.float64):
    t = data.astype(dtype)
    step = 1
    while step < len(t):
        pairs = t.reshape(-1, 2, step)
        a, b = pairs[:, 0, :].copy(), pairs[:, 1, :]
        pairs[:, 0, :] += b
        pairs[:, 1, :] = a - b
        step *= 2
    return t


def fwt_setup(n, rng):
    data = rng.integers(-1, 2, n).astype(np.float32)     # sums of +-1 stay exact in float
    steps = [1 << s for s in range(int(math.log2(n)))]
    launches = [Launch("fwt_pass", (n // 2,), (LOCAL,), (Buf("t"), np.int32(step))) for step in steps]
    return Problem(
        size=f"{count_label(n)}, {len(steps)} passes",
        buffers={"t": data}, launches=launches,
        reference=lambda: {"t": walsh(data)},
        numpy=lambda: walsh(data, np.float32),
        reset=("t",), bytes=8.0 * n * len(steps), flops=1.0 * n * len(steps))


def barrier_loop_reference(data):
    tile = data.reshape(-1, LOCAL).copy()
    trips = 2 + np.arange(len(tile)) % 7
    even = np.arange(LOCAL) % 2 == 0
    half, quarter = np.float32(0.5), np.float32(0.25)
    for i in range(trips.max()):
        rows = trips > i
        t = tile[rows]
        around = np.roll(t, 1, axis=1) + np.roll(t, -1, axis=1)
        tile[rows] = np.where(even, half * t + quarter * around, np.maximum(t, half * around))
    lanes = np.arange(LOCAL)
    acc = tile.astype(np.float64)
    for j in range(1, 5):
        acc += np.where(lanes % 5 >= j, tile[:, (lanes + j) % LOCAL], 0)
    return acc.reshape(-1)


def barrier_loop_setup(n, rng):
    data = uniform(rng, n)
    return Problem(
        size=count_label(n),
        buffers={"in": data, "out": np.zeros_like(data)},
        launches=[Launch("barrier_loop", (n,), (LOCAL,), (Buf("in"), Buf("out"), Local(4 * LOCAL)))],
        reference=lambda: {"out": barrier_loop_reference(data)},
        bytes=8 * n, flops=4.0 * 5 * n + 2 * n)


CASES = [
    Case("reduce", "reduction", "004 SYCL-Bench reduction", "reduce.cl", reduce_setup,
         quick=1 << 16, full=1 << 24, tolerance=Tolerance(rtol=1e-5)),
    Case("scalarProd", "reduction", "SDK scalarProd", "reduce.cl", scalar_prod_setup,
         quick=1 << 10, full=1 << 15, tolerance=Tolerance(rtol=1e-5)),
    Case("scan", "scan", "Blelloch work-group scan", "scan.cl", scan_setup,
         quick=1 << 16, full=1 << 24, tolerance=EXACT),
    Case("histogram256", "histogram", "000 Table 1 Histogram (SDK)", "histogram.cl", histogram_setup,
         quick=1 << 16, full=1 << 24, tolerance=EXACT),
    Case("bitonicSort", "sort", "000 Table 1 BitonicSort (SDK)", "bitonic.cl", bitonic_setup,
         quick=1 << 12, full=1 << 20, tolerance=EXACT),
    Case("floydWarshall", "graph", "000 Table 1 FloydWarshall (SDK)", "graph.cl", floyd_setup,
         quick=64, full=512, tolerance=EXACT),
    Case("fastWalsh", "transform", "000 Table 1 FastWalshTransform (SDK)", "graph.cl", fwt_setup,
         quick=1 << 14, full=1 << 23, tolerance=EXACT),
    Case("barrierLoop", "barrier", "004 listing 3.3 (legal form)", "barrier_loop.cl", barrier_loop_setup,
         quick=1 << 16, full=1 << 22, tolerance=Tolerance(rtol=1e-5, atol=1e-6)),
]
