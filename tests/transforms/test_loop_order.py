"""loop-order (Kim ch. 3.4): which kernel loops get breadth-first order, and the remark that says why;
semantics of every order against numpy through the public runtime."""
import numpy as np
import pytest

import loomcl as cl
from loomcl.driver.compiler import build
from loomcl.options import DEFAULT_OPTIONS, CompilerOptions
from loomcl.transforms import implicit_loop_barriers as ilb
from loomcl.transforms import inline, mem2reg, simplify
from loomcl.transforms.clone import clone_module
from loomcl.transforms.loop_order import Order
from loomcl.transforms.passes import PassContext, run_pass
from loomcl.transforms.pipeline import work_group_function

KERNELS = r"""
kernel void matmul(int n, global const float *A, global const float *B, global float *C) {
  int col = get_global_id(0), row = get_global_id(1);
  float acc = 0.0f;
  for (int k = 0; k < n; k++) acc += A[row * n + k] * B[k * n + col];
  C[row * n + col] = acc;
}
kernel void row_dot(int n, global const float *A, global const float *x, global float *y) {
  int row = get_global_id(0);
  global const float *a = A + row * n;
  float acc = 0.0f;
  for (int j = 0; j < n; j++) acc += a[j] * x[j];
  y[row] = acc;
}
kernel void column_sums(int rows, int cols, global const float *A, global float *sums) {
  int col = get_global_id(0);
  float acc = 0.0f;
  for (int r = 0; r < rows; r++) acc += A[r * cols + col];
  sums[col] = acc;
}
kernel void row_dot4(int n, global const float *A, global const float *x, global float *y) {
  int row = get_global_id(0);
  global const float *a = A + row * n;
  float s0 = 0.0f, s1 = 0.0f;
  for (int j = 0; j < n; j += 2) { s0 += a[j] * x[j]; s1 += a[j + 1] * x[j + 1]; }
  y[row] = s0 + s1;
}
kernel void row_walk(int n, global float *A) {
  int row = get_global_id(0);
  for (int j = 1; j < n; j++) A[row * n + j] += A[row * n + j - 1];
}
kernel void chains(global float *out, int iters) {
  float a = get_global_id(0), b = 1.0f;
  for (int i = 0; i < iters; i++) { a = a * 0.5f + b; b = b * 0.25f + 1.0f; }
  out[get_global_id(0)] = a + b;
}
"""


NO_WFV = CompilerOptions(wfv=False)  # the stride rule alone: wfv would claim loops without memory accesses


def decisions(name, local_size=(16, 1, 1), options=NO_WFV):
    module = clone_module(build(KERNELS).module)
    function = module.functions[name]
    analyses = PassContext(function, options, local_size, module)
    for pass_ in (inline, mem2reg, simplify):
        run_pass(pass_, function, analyses)
    return ilb.decisions(function, analyses)


@pytest.mark.parametrize("name, order, why", [
    ("matmul", Order.BFO, "locality: votes BFO 2"),        # A W0L1, B W1LX
    ("column_sums", Order.BFO, "locality: votes BFO 1"),   # A[r*cols+col] W1LX: a walk down columns
    ("row_dot", Order.DFO, "BFO would gather"),            # a[j] WXL1 against x[j] W0L1: a tie
    ("row_dot4", Order.DFO, "BFO would gather"),           # 8-byte steps share lines: L1 like unit ones
    ("row_walk", Order.DFO, "locality: votes BFO 0"),      # every access WXL1: rows stream per work-item
    ("chains", Order.BFO, "BFO vectorizes across work-items, 1 carried"),  # b is uniform; no accesses: a tie
])
def test_orders(name, order, why):
    (decision,) = decisions(name)
    assert decision.order is order and why in decision.reason


def test_bfo_mode_takes_every_innermost_loop():
    (decision,) = decisions("row_walk", options=CompilerOptions(loop_order="bfo"))
    assert decision.order is Order.BFO


def test_remark_in_the_work_group_function():
    f = work_group_function(build(KERNELS).module, "row_dot", (16, 1, 1))
    assert f.remarks == [decisions("row_dot")[0].note()]
    assert "; loop-order for.cond: DFO, tie" in cl_text(f)


def cl_text(function):
    from loomcl.ir.printer import print_function
    return print_function(function)


def _run(name, global_size, local_size, args, out_index, options):
    ctx = cl.create_some_context()
    queue = cl.CommandQueue(ctx)
    prg = cl.Program(ctx, KERNELS).build(options=options)
    bufs = [cl.Buffer(ctx, cl.mem_flags.READ_WRITE | cl.mem_flags.COPY_HOST_PTR, hostbuf=a)
            if isinstance(a, np.ndarray) else a for a in args]
    getattr(prg, name)(queue, global_size, local_size, *bufs)
    out = np.empty_like(args[out_index])
    cl.enqueue_copy(queue, out, bufs[out_index])
    queue.finish()
    return out


ORDERS = ["", "-loomcl-loop-order-bfo", "-loomcl-no-horizontal-loops"]


@pytest.mark.parametrize("options", ORDERS)
def test_semantics_against_numpy(options):
    rng = np.random.default_rng(7)
    n, rows, cols = 48, 37, 64
    A = rng.random((n, n), dtype=np.float32)
    B = rng.random((n, n), dtype=np.float32)
    C = _run("matmul", (n, n), (16, 4), [np.int32(n), A, B, np.zeros((n, n), np.float32)], 3, options)
    np.testing.assert_allclose(C, A @ B, rtol=1e-5)
    x = rng.random(n, dtype=np.float32)
    y = _run("row_dot", (n,), (16,), [np.int32(n), A, x, np.zeros(n, np.float32)], 3, options)
    np.testing.assert_allclose(y, A @ x, rtol=1e-5)
    M = rng.random((rows, cols), dtype=np.float32)
    sums = _run("column_sums", (cols,), (16,), [np.int32(rows), np.int32(cols), M, np.zeros(cols, np.float32)],
                3, options)
    np.testing.assert_allclose(sums, M.sum(axis=0), rtol=1e-5)
    walked = _run("row_walk", (n,), (16,), [np.int32(n), A.copy()], 1, options)
    np.testing.assert_allclose(walked, np.cumsum(A, axis=1), rtol=1e-5)


def test_remarks_are_comments_to_the_reader():
    from loomcl.ir.printer import print_function
    from loomcl.ir.reader import read_function
    f = work_group_function(build(KERNELS).module, "matmul", (16, 4, 1))
    text = print_function(f)
    assert "; loop-order for.cond: BFO" in text
    assert print_function(read_function(text)) == print_function(f, remarks=False)


def test_a_loop_without_memory_accesses_is_left_to_whole_function_vectorization():
    (decision,) = decisions("chains", options=DEFAULT_OPTIONS)
    assert decision.order is Order.DFO and "whole-function vectorization" in decision.reason
