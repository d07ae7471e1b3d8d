"""register-blocking: which group-level loops it strips, the form it gives them (a strip loop around
the kernel loop, the nest reduced to one x loop of 16 work-items), and semantics: the work-group
function computes what the work-item interpreter computes, at local sizes it transforms (1D, 2D, 3D,
several strips per row) and ones it leaves alone, with the pass on and off."""
import numpy as np
import pytest

from loomcl.analysis.loops import LoopInfo
from loomcl.driver.compiler import build
from loomcl.ir import instructions as ins
from loomcl.ir.values import Constant
from loomcl.options import CompilerOptions
from loomcl.transforms.pipeline import work_group_function
from loomcl.transforms.register_blocking import STRIP_WORK_ITEMS

from . import interp

# wfv off: whole-function vectorization takes the loops without memory accesses (chains, ids3) first
ON = CompilerOptions(verify_each=True, wfv=False)
OFF = CompilerOptions(verify_each=True, register_blocking=False, wfv=False)

KERNELS = {
    # several values carried per work-item, read after the loop
    "chains": r"""
__kernel void chains(__global int *out, int iters) {
  int g = get_global_id(0), a = g, b = g + 1, c = 3;
  for (int i = 0; i < iters; i++) { a = a * 3 + b; b = b * 5 + c; c = c + a; }
  out[g] = a + b + c;
}""",
    # 2D and 3D ids inside the loop; the result is stored through the global id of every dimension
    "ids3": r"""
__kernel void ids3(__global int *out, int iters) {
  int x = get_local_id(0), y = get_local_id(1), z = get_local_id(2);
  int lin = (get_global_id(2) * get_global_size(1) + get_global_id(1)) * get_global_size(0) + get_global_id(0);
  int acc = lin;
  for (int i = 0; i < iters; i++) acc = acc * 7 + x * 100 + y * 10 + z + i;
  out[lin] = acc;
}""",
    # a private array indexed by the loop: private storage, kept in the strip's context slots
    "private_array": r"""
__kernel void private_array(__global int *out, int iters) {
  int g = get_global_id(0), p[4] = {g, 1, 2, 3};
  for (int i = 0; i < iters; i++) p[i & 3] += p[(i + 1) & 3] * (g + i);
  out[g] = p[0] + p[1] * 3 + p[2] * 5 + p[3] * 7;
}""",
    # a uniform break, and work-items of the same strip reading each other's inputs
    "uniform_break": r"""
__kernel void uniform_break(__global int *out, __global const int *in, int n, int stop) {
  int g = get_global_id(0), acc = 0;
  for (int i = 0; i < n; i++) {
    if (i == stop) break;
    acc += in[i] * (g + 1);
  }
  out[g] = acc;
}""",
    # the loop inside a barrier loop: the strips run inside each of its iterations
    "in_barrier_loop": r"""
__kernel void in_barrier_loop(__global int *out, __local int *t, int n, int m) {
  int lid = get_local_id(0), g = get_global_id(0), acc = 0;
  for (int s = 0; s < n; s++) {
    t[lid] = g + s;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int k = 0; k < m; k++) acc += t[k % get_local_size(0)] * (lid + 1);
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  out[g] = acc;
}""",
    # a guard on the local id around the loop's body: fold-local-id-guards narrows the nest, which
    # this pass then leaves alone
    "guard_inside": r"""
__kernel void guard_inside(__global int *out, int iters, int s) {
  int g = get_global_id(0), lid = get_local_id(0), acc = 1;
  for (int i = 0; i < iters; i++) { if (lid < s) acc = acc * 3 + i; }
  out[g] = acc;
}""",
}

SIZE = 512


def _args(name):
    out = np.zeros(SIZE, np.int32)
    if name == "uniform_break":
        inp = np.arange(9, dtype=np.int32) - 4
        return lambda: [out.copy(), inp.copy(), 9, 6]
    if name == "in_barrier_loop":
        return lambda: [out.copy(), np.zeros(256, np.int32), 3, 5]
    if name == "guard_inside":
        return lambda: [out.copy(), 6, 21]
    return lambda: [out.copy(), 6]


def _run(name, local_size, num_groups, options):
    module = build(KERNELS[name]).module
    f = work_group_function(module, name, local_size, options)
    got, want = _args(name)(), _args(name)()
    interp.run_work_groups(f, got, num_groups, work_dim=3 if local_size[2] > 1 else 2 if local_size[1] > 1 else 1)
    interp.run_work_items(module.functions[name], want, num_groups, local_size)
    np.testing.assert_array_equal(got[0], want[0], err_msg=f"{name} {local_size} {options}")
    return f


def _strip_phis(f):
    return [p for b in f.blocks for p in b.phis if p.name == "strip"]


@pytest.mark.parametrize("name", list(KERNELS))
@pytest.mark.parametrize("local", [(32, 1, 1), (16, 2, 1), (16, 2, 2), (48, 1, 1), (32, 2, 1), (16, 1, 1),
                                   (24, 1, 1), (8, 4, 1)])
def test_semantics(name, local):
    groups = (2, 2 if local[1] > 1 else 1, 1)
    for options in (ON, OFF):
        _run(name, local, groups, options)


STRIPPED = ["chains", "ids3", "private_array", "uniform_break", "in_barrier_loop"]


@pytest.mark.parametrize("name", list(KERNELS))
def test_which_loops_are_stripped(name):
    f = work_group_function(build(KERNELS[name]).module, name, (32, 2, 1), ON)
    assert bool(_strip_phis(f)) == (name in STRIPPED)


@pytest.mark.parametrize("local", [(32, 1, 1), (16, 2, 1), (16, 2, 2), (64, 4, 1)])
def test_form(local):
    """One strip loop over all strips of the group, around the kernel loop; the nest inside the
    kernel loop is one x loop of 16 trips (the y and z loops became the strip's row)."""
    f = work_group_function(build(KERNELS["ids3"]).module, "ids3", local, ON)
    (strip,) = _strip_phis(f)
    (following,) = [v for v, _ in strip.incoming if not isinstance(v, Constant)]
    (test,) = [u for u in following.users if isinstance(u, ins.Compare)]
    assert test.rhs.value == local[0] * local[1] * local[2] // STRIP_WORK_ITEMS
    kernel_loop = _blocks_of_loop_with(f, "i")
    (inner,) = [w for w in f.work_item_loops if w.header in kernel_loop]
    assert inner.dim == 0 and inner.lower.value == 0 and inner.upper.value == STRIP_WORK_ITEMS
    assert strip.block not in kernel_loop


def _blocks_of_loop_with(f, phi_name):
    (phi,) = [p for b in f.blocks for p in b.phis if p.name == phi_name]
    return next(lp for lp in LoopInfo(f).loops if lp.header is phi.block).blocks


@pytest.mark.parametrize("local", [(16, 1, 1), (24, 1, 1), (8, 4, 1), (1, 1, 1)])
def test_left_alone(local):
    """One strip or none (x not a multiple of 16): nothing to gain or no constant-width strip."""
    f = work_group_function(build(KERNELS["chains"]).module, "chains", local, ON)
    assert not _strip_phis(f)


def test_not_a_loop_with_a_barrier_of_its_own():
    src = r"""
__kernel void own_barrier(__global int *out, __local int *t, int n) {
  int lid = get_local_id(0), acc = 0;
  for (int i = 0; i < n; i++) { t[lid] = acc + i; barrier(CLK_LOCAL_MEM_FENCE); acc += t[(lid + 1) % 32]; }
  out[get_global_id(0)] = acc;
}"""
    f = work_group_function(build(src).module, "own_barrier", (32, 1, 1), ON)
    assert not _strip_phis(f)


def test_not_where_work_items_stream_memory():
    """sgemmNaive's shape: B[k * n + col] per work-item; strips would lose the rows' shared reads."""
    src = r"""
__kernel void matmul(__global const float *A, __global const float *B, __global float *C, int n) {
  int col = get_global_id(0), row = get_global_id(1);
  float acc = 0.0f;
  for (int k = 0; k < n; k++) acc += A[row * n + k] * B[k * n + col];
  C[row * n + col] = acc;
}"""
    f = work_group_function(build(src).module, "matmul", (16, 16, 1), ON)
    assert not _strip_phis(f)
    assert any(not w.blocks.isdisjoint(_blocks_of_loop_with(f, "k")) for w in f.work_item_loops)  # still BFO


def test_off_switch():
    f = work_group_function(build(KERNELS["chains"]).module, "chains", (64, 1, 1), OFF)
    assert not _strip_phis(f)
