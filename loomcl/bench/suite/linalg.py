"""Dense and sparse linear algebra (Kim's BLAS set, seed 003 ch. 6; Parboil/SHOC spmv)."""
from __future__ import annotations

import numpy as np

from ..case import Buf, Case, Launch, Local, Problem, Tolerance
from .common import count_label, round_up, uniform

SGEMV_LOCAL = 256


def _gemm_problem(n, rng, kernel, local):
    a, b = uniform(rng, (n, n), -1, 1), uniform(rng, (n, n), -1, 1)
    return Problem(
        size=f"{n}x{n}",
        buffers={"A": a, "B": b, "C": np.zeros_like(a)},
        launches=[Launch(kernel, (n, n), local, (np.int32(n), Buf("A"), Buf("B"), Buf("C")))],
        reference=lambda: {"C": a.astype(np.float64) @ b},
        numpy=lambda: a @ b,
        bytes=12 * n * n, flops=2.0 * n ** 3)


def sgemm_naive_setup(n, rng):
    return _gemm_problem(n, rng, "sgemm_naive", (16, 16))


def sgemm_tiled_setup(n, rng):
    return _gemm_problem(n, rng, "sgemm_tiled", (16, 16))


def _gemv_problem(n, rng, launch):
    a, x = uniform(rng, (n, n), -1, 1), uniform(rng, n, -1, 1)
    return Problem(
        size=f"{n}x{n}",
        buffers={"A": a, "x": x, "y": np.zeros(n, np.float32)},
        launches=[launch],
        reference=lambda: {"y": a.astype(np.float64) @ x},
        numpy=lambda: a @ x,
        bytes=4 * n * n + 8 * n, flops=2.0 * n * n)


def sgemv_row_setup(n, rng):
    args = (np.int32(n), Buf("A"), Buf("x"), Buf("y"))
    return _gemv_problem(n, rng, Launch("sgemv_row", (n,), (64,), args))


def sgemv_group_setup(n, rng):
    args = (np.int32(n), Buf("A"), Buf("x"), Buf("y"), Local(4 * SGEMV_LOCAL))
    return _gemv_problem(n, rng, Launch("sgemv_group", (n * SGEMV_LOCAL,), (SGEMV_LOCAL,), args))


def column_sums_setup(n, rng):
    a = uniform(rng, (n, n), -1, 1)
    return Problem(
        size=f"{n}x{n}",
        buffers={"A": a, "sums": np.zeros(n, np.float32)},
        launches=[Launch("column_sums", (n,), (64,), (np.int32(n), Buf("A"), Buf("sums")))],
        reference=lambda: {"sums": a.astype(np.float64).sum(axis=0)},
        numpy=lambda: a.sum(axis=0),
        bytes=4 * n * n + 4 * n, flops=1.0 * n * n)


def dgemm_setup(n, rng):
    a, b, c = (rng.uniform(-1, 1, (n, n)) for _ in range(3))
    alpha, beta = np.float64(1.5), np.float64(-0.5)
    return Problem(
        size=f"{n}x{n}",
        buffers={"A": a, "B": b, "C": c},
        launches=[Launch("dgemm_blocked", (n, n // 4), (16, 4),
                         (np.int32(n), alpha, Buf("A"), Buf("B"), beta, Buf("C")))],
        reference=lambda: {"C": alpha * (a @ b) + beta * c},
        numpy=lambda: alpha * (a @ b) + beta * c,
        reset=("C",), bytes=32 * n * n, flops=2.0 * n ** 3)


def random_sparse(rows, rng, mean_length=16, band=2048):
    """Rows of 1 + geometric(1/mean) entries (a skewed length distribution, like real matrices), columns
    within +-band of the diagonal so that x stays in cache and the matrix streams."""
    lengths = np.minimum(rng.geometric(1.0 / mean_length, rows), 16 * mean_length).astype(np.int32)
    row_ptr = np.concatenate([[0], np.cumsum(lengths)]).astype(np.int32)
    owner = np.repeat(np.arange(rows), lengths)
    cols = ((owner + rng.integers(-band, band + 1, owner.size)) % rows).astype(np.int32)
    vals = uniform(rng, owner.size, -1, 1)
    return lengths, row_ptr, cols, vals


def to_jds(lengths, row_ptr, cols, vals):
    """Jagged diagonal storage: rows sorted by decreasing length; diagonal d holds the d-th entry of every
    row longer than d, rows in sorted order, starting at jd_ptr[d]."""
    perm = np.argsort(-lengths, kind="stable").astype(np.int32)
    sorted_len = lengths[perm]
    per_diagonal = np.array([np.count_nonzero(sorted_len > d) for d in range(sorted_len[0])])
    jd_ptr = np.concatenate([[0], np.cumsum(per_diagonal)[:-1]]).astype(np.int32)
    sorted_row = np.repeat(np.arange(len(perm)), sorted_len)
    sorted_start = np.concatenate([[0], np.cumsum(sorted_len)[:-1]])
    d = np.arange(sorted_row.size) - np.repeat(sorted_start, sorted_len)
    src = row_ptr[perm][sorted_row] + d
    dest = jd_ptr[d] + sorted_row
    jds_cols, jds_vals = np.empty_like(cols), np.empty_like(vals)
    jds_cols[dest], jds_vals[dest] = cols[src], vals[src]
    return jd_ptr, sorted_len.astype(np.int32), perm, jds_cols, jds_vals


def spmv(row_ptr, cols, vals, x, dtype=np.float64):
    return np.add.reduceat(vals.astype(dtype) * x[cols], row_ptr[:-1])


def spmv_csr_setup(rows, rng):
    lengths, row_ptr, cols, vals = random_sparse(rows, rng)
    x = uniform(rng, rows, -1, 1)
    return Problem(
        size=f"{count_label(rows)} rows, {vals.size / rows:.0f}/row",
        buffers={"row_ptr": row_ptr, "cols": cols, "vals": vals, "x": x, "y": np.zeros(rows, np.float32)},
        launches=[Launch("spmv_csr", (round_up(rows, 64),), (64,),
                         (np.int32(rows), Buf("row_ptr"), Buf("cols"), Buf("vals"), Buf("x"), Buf("y")))],
        reference=lambda: {"y": spmv(row_ptr, cols, vals, x.astype(np.float64))},
        numpy=lambda: spmv(row_ptr, cols, vals, x, np.float32),
        bytes=8 * vals.size + 12 * rows, flops=2.0 * vals.size)


def spmv_jds_setup(rows, rng):
    lengths, row_ptr, cols, vals = random_sparse(rows, rng)
    jd_ptr, row_len, perm, jds_cols, jds_vals = to_jds(lengths, row_ptr, cols, vals)
    x = uniform(rng, rows, -1, 1)
    return Problem(
        size=f"{count_label(rows)} rows, {vals.size / rows:.0f}/row",
        buffers={"jd_ptr": jd_ptr, "row_len": row_len, "perm": perm, "cols": jds_cols, "vals": jds_vals,
                 "x": x, "y": np.zeros(rows, np.float32)},
        launches=[Launch("spmv_jds", (round_up(rows, 64),), (64,),
                         (np.int32(rows), Buf("jd_ptr"), Buf("row_len"), Buf("perm"), Buf("cols"),
                          Buf("vals"), Buf("x"), Buf("y")))],
        reference=lambda: {"y": spmv(row_ptr, cols, vals, x.astype(np.float64))},
        numpy=lambda: spmv(row_ptr, cols, vals, x, np.float32),
        bytes=8 * vals.size + 16 * rows, flops=2.0 * vals.size)


GEMM = Tolerance(rtol=1e-3, atol=1e-3)

CASES = [
    Case("sgemmNaive", "blas", "003 ch. 6 (BLAS)", "linalg.cl", sgemm_naive_setup,
         quick=64, full=512, tolerance=GEMM),
    Case("sgemmTiled", "blas", "003 ch. 6 (BLAS); SDK tiled matmul", "linalg.cl", sgemm_tiled_setup,
         quick=64, full=512, tolerance=GEMM),
    Case("sgemvRow", "blas", "003 ch. 6 (BLAS)", "linalg.cl", sgemv_row_setup,
         quick=256, full=4096, tolerance=GEMM),
    Case("sgemvGroup", "blas", "003 ch. 6 (BLAS)", "linalg.cl", sgemv_group_setup,
         quick=256, full=4096, tolerance=GEMM),
    Case("colSums", "blas", "003 ch. 3 (a walk down the columns: BFO)", "linalg.cl", column_sums_setup,
         quick=256, full=4096, tolerance=GEMM),
    Case("dgemmBlocked", "blas", "003 ch. 6 (BLAS)", "dgemm.cl", dgemm_setup,
         quick=64, full=512, tolerance=Tolerance(rtol=1e-9, atol=1e-9), needs=("fp64",)),
    Case("spmvCSR", "sparse", "SHOC spmv (CSR scalar)", "spmv.cl", spmv_csr_setup,
         quick=1 << 12, full=1 << 20, tolerance=Tolerance(rtol=1e-4, atol=1e-4)),
    Case("spmvJDS", "sparse", "Parboil spmv (JDS)", "spmv.cl", spmv_jds_setup,
         quick=1 << 12, full=1 << 20, tolerance=Tolerance(rtol=1e-4, atol=1e-4)),
]
