"""implicit-loop-barriers (horizontal inner-loop parallelization, pocl 4.6): which loops get
barriers, the form the pipeline then gives them (the loop at group level, the work-item loop inside),
and semantics: the work-group function computes what the work-item interpreter (OpenCL semantics)
computes, at several local sizes including 1 and non-powers of two, with the pass on and off."""
import numpy as np
import pytest

from loomcl.analysis.loops import LoopInfo
from loomcl.driver.compiler import build
from loomcl.ir import instructions as ins
from loomcl.ir.verifier import verify_function
from loomcl.options import CompilerOptions
from loomcl.transforms import implicit_loop_barriers as ilb
from loomcl.transforms import inline, mem2reg, simplify
from loomcl.transforms.clone import clone_module
from loomcl.transforms.passes import PassContext, run_pass
from loomcl.transforms.pipeline import work_group_function

from . import interp

ON = CompilerOptions(verify_each=True)
OFF = CompilerOptions(verify_each=True, horizontal_loops=False)

FIRES = {
    "matmul": r"""
__kernel void matmul(__global const int *A, __global const int *B, __global int *C, int n) {
  int col = get_global_id(0), row = get_global_id(1);
  int acc = 0;
  for (int k = 0; k < n; k++) acc += A[row * n + k] * B[k * n + col];
  C[row * n + col] = acc;
}""",
    "chain": r"""
__kernel void chain(__global int *out, int iters) {
  int a = get_global_id(0), b = a + 1, c = 3;
  for (int i = 0; i < iters; i++) { a = a * 3 + b; b = b * 5 + c; c = c + a; }
  out[get_global_id(0)] = a + b + c;
}""",
    "uniform_break": r"""
__kernel void uniform_break(__global int *out, __global const int *in, int n, int stop) {
  int g = get_global_id(0), acc = 0;
  for (int i = 0; i < n; i++) {
    if (i == stop) break;
    acc += in[i] * (g + 1);
  }
  out[g] = acc;
}""",
    "nested": r"""
__kernel void nested(__global int *out, int n, int m) {
  int g = get_global_id(0), acc = 0;
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++) acc += (g + i) * (j + 1);
  out[g] = acc;
}""",
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
    "do_while": r"""
__kernel void do_while(__global int *out, int n) {
  int g = get_global_id(0), acc = 1, i = 0;
  do { acc = acc * 3 + g; i++; } while (i < n);
  out[g] = acc;
}""",
    "uniform_if_around": r"""
__kernel void uniform_if_around(__global int *out, int n) {
  int g = get_global_id(0), acc = 0;
  if (n > 2) { for (int i = 0; i < n; i++) acc += g * i; }
  out[g] = acc;
}""",
}

NO_FIRE = {
    "varying_if": r"""
__kernel void varying_if(__global int *out, int n) {
  int g = get_global_id(0), acc = 0;
  if (g < n) { for (int i = 0; i < n; i++) acc += g * i; }
  out[g] = acc;
}""",
    "guarded_matmul": r"""
__kernel void guarded_matmul(__global const int *A, __global const int *B, __global int *C, int n) {
  int col = get_global_id(0), row = get_global_id(1);
  if (row < n && col < n) {
    int acc = 0;
    for (int k = 0; k < n; k++) acc += A[row * n + k] * B[k * n + col];
    C[row * n + col] = acc;
  }
}""",
    "early_return": r"""
__kernel void early_return(__global int *out, int n) {
  int g = get_global_id(0), acc = 0;
  if (g >= n) return;
  for (int i = 0; i < n; i++) acc += g * i;
  out[g] = acc;
}""",
    "varying_trip": r"""
__kernel void varying_trip(__global int *out, int n) {
  int g = get_global_id(0), acc = g, i = 0;
  while (acc < 1000 && i < n) { acc = acc * 2 + 1; i++; }
  out[g] = i;
}""",
    "varying_break": r"""
__kernel void varying_break(__global int *out, int n) {
  int g = get_global_id(0), acc = 0;
  for (int i = 0; i < n; i++) { if (i == g) break; acc += i; }
  out[g] = acc;
}""",
    "varying_outer": r"""
__kernel void varying_outer(__global int *out, int n) {
  int g = get_global_id(0), acc = 0;
  for (int i = 0; i < g % 3 + 1; i++)
    for (int j = 0; j < n; j++) acc += i * j + g;
  out[g] = acc;
}""",
    "has_barrier": r"""
__kernel void has_barrier(__global int *out, __local int *t, int n) {
  int lid = get_local_id(0), acc = 0;
  for (int i = 0; i < n; i++) { t[lid] = i + lid; barrier(CLK_LOCAL_MEM_FENCE); acc += t[0]; barrier(CLK_LOCAL_MEM_FENCE); }
  out[get_global_id(0)] = acc;
}""",
    "small_constant": r"""
__kernel void small_constant(__global int *out) {
  int g = get_global_id(0), acc = 0;
  for (int i = 0; i < 8; i++) acc += g * i;
  out[g] = acc;
}""",
    "local_size_bound": r"""
__kernel void local_size_bound(__global int *out, __local int *t) {
  int lid = get_local_id(0), acc = 0;
  t[lid] = lid;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int j = 0; j < get_local_size(0); j++) acc += t[j] * lid;
  out[get_global_id(0)] = acc;
}""",
    "row_gather": r"""
__kernel void row_gather(__global int *out, __global const int *A, int n) {
  int row = get_global_id(0), acc = 0;
  for (int j = 0; j < n; j++) acc += A[row * n + j] * j;
  out[row] = acc;
}""",
    "all_uniform": r"""
__kernel void all_uniform(__global int *out, int n) {
  int s = 0;
  for (int i = 0; i < n; i++) s += i * n;
  out[get_global_id(0)] = s + get_global_id(0);
}""",
}


def prepared(src, name, local_size=(4, 1, 1), options=CompilerOptions(wfv=False)):
    """The kernel as the pass sees it in the pipeline (inline, mem2reg, simplify), and its analyses
    (by default without whole-function vectorization, which takes some of its loops: see below)."""
    module = clone_module(build(src).module)
    function = module.functions[name]
    analyses = PassContext(function, options, local_size=local_size, module=module)
    for pass_ in (inline, mem2reg, simplify):
        run_pass(pass_, function, analyses)
    return function, analyses


def loops_changed(src, name, local_size=(4, 1, 1), options=CompilerOptions(wfv=False)):
    """How many loops got barriers (a barrier first in the header); the pass says whether any."""
    function, analyses = prepared(src, name, local_size, options)
    changed = ilb.run(function, analyses)
    verify_function(function)
    headers = [loop.header for loop in LoopInfo(function).loops]
    count = sum(isinstance(h.instructions[h.first_non_phi_index], ins.Barrier) for h in headers)
    assert changed == (count > 0)
    return count


@pytest.mark.parametrize("name", list(FIRES))
def test_fires_on_uniform_inner_loops(name):
    assert loops_changed(FIRES[name], name) == 1


@pytest.mark.parametrize("name", list(NO_FIRE))
def test_does_not_fire(name):
    assert loops_changed(NO_FIRE[name], name) == 0


def test_local_size_bound_fires_when_large():
    assert loops_changed(NO_FIRE["local_size_bound"], "local_size_bound", (64, 1, 1)) == 1


@pytest.mark.parametrize("name, options", [("chain", CompilerOptions()), ("nested", CompilerOptions()),
                                           ("matmul", CompilerOptions(register_blocking=False))])
def test_left_to_whole_function_vectorization_when_it_takes_the_x_loop(name, options):
    """With WFV on and a vector's worth of work-items in x, the loop stays inside the work-item loop,
    whose vectorized form keeps the loop's accumulators in vector registers; with fewer, or WFV off,
    the interchange happens as before. Loops with memory accesses stay with the interchange when
    register-blocking follows it (matmul)."""
    assert loops_changed(FIRES[name], name, (64, 1, 1), options) == 0
    assert loops_changed(FIRES[name], name, (8, 1, 1), options) >= 1
    assert loops_changed(FIRES[name], name, (64, 1, 1)) >= 1
    assert loops_changed(FIRES["matmul"], "matmul", (64, 1, 1), CompilerOptions()) >= 1


def test_not_for_a_group_of_one():
    assert loops_changed(FIRES["matmul"], "matmul", (1, 1, 1)) == 0


def test_nested_only_innermost_gets_barriers():
    function, analyses = prepared(FIRES["nested"], "nested")
    (loop,) = ilb.candidates(function, analyses)
    ilb.run(function, analyses)
    barriers = [i for b in function.blocks for i in b.instructions if isinstance(i, ins.Barrier)]
    assert len(barriers) == 2 and all(b.block in loop.blocks for b in barriers)


def test_barriers_after_header_phis_and_before_induction_update():
    function, analyses = prepared(FIRES["matmul"], "matmul")
    (loop,) = ilb.candidates(function, analyses)
    ilb.run(function, analyses)
    header = loop.header
    assert isinstance(header.instructions[header.first_non_phi_index], ins.Barrier)
    (latch,) = loop.latches
    i = next(i for i, inst in enumerate(latch.instructions) if isinstance(inst, ins.Barrier))
    tail = latch.instructions[i + 1:]
    assert len(tail) == 2 and isinstance(tail[0], ins.BinaryOp) and tail[-1].is_terminator


def _k_loop_is_group_level(src, name, local_size, options=ON):
    """The k-loop phi lies in a block that no work-item loop contains, and some work-item loop is
    inside the k loop (its blocks use k)."""
    f = work_group_function(build(src).module, name, local_size, options)
    in_wi = set().union(*(set(p.blocks) for p in f.work_item_loops))
    phis = [p for b in f.blocks for p in b.phis if p.name.startswith(("k", "i"))]
    return bool(phis) and all(p.block not in in_wi for p in phis)


def test_matmul_loop_becomes_group_level():
    assert _k_loop_is_group_level(FIRES["matmul"], "matmul", (4, 2, 1))
    assert not _k_loop_is_group_level(FIRES["matmul"], "matmul", (4, 2, 1), OFF)


def test_off_switch_and_cbs_form_leave_the_loop_alone():
    for options in (OFF, CompilerOptions(structured=False, verify_each=True), CompilerOptions(context_all=True, verify_each=True)):
        f = work_group_function(build(FIRES["matmul"]).module, "matmul", (4, 2, 1), options)
        assert not any(p.name.endswith(".context") for p in f.entry.instructions if isinstance(p, ins.Alloca))


# -- semantics -------------------------------------------------------------------------------------

N = 5


def _args(name, size):
    """Fresh arguments and the output indices of each kernel, for `size` work-items in total."""
    rng = np.random.default_rng(7)
    out = np.zeros(size, np.int32)
    if name in ("matmul", "guarded_matmul"):
        A = rng.integers(-9, 9, N * N).astype(np.int32)
        B = rng.integers(-9, 9, N * N).astype(np.int32)
        return lambda: [A.copy(), B.copy(), np.zeros(N * N, np.int32), N], [2]
    if name == "chain":
        return lambda: [out.copy(), 7], [0]
    if name == "uniform_break":
        inp = rng.integers(-9, 9, 8).astype(np.int32)
        return lambda: [out.copy(), inp.copy(), 8, 5], [0]
    if name in ("nested", "in_barrier_loop"):
        local = np.zeros(64, np.int32)
        return (lambda: [out.copy(), local.copy(), 3, 4]) if name == "in_barrier_loop" else (lambda: [out.copy(), 3, 4]), [0]
    if name in ("has_barrier", "local_size_bound"):
        local = np.zeros(64, np.int32)
        return (lambda: [out.copy(), local.copy(), 4]) if name == "has_barrier" else (lambda: [out.copy(), local.copy()]), [0]
    if name == "row_gather":
        A = np.arange(size * 4, dtype=np.int32) % 13
        return lambda: [out.copy(), A.copy(), 4], [0]
    if name == "small_constant":
        return lambda: [out.copy()], [0]
    return lambda: [out.copy(), 4], [0]


def _run(src, name, local_size, num_groups, options):
    module = build(src).module
    total = int(np.prod(local_size) * np.prod(num_groups))
    args_for, outputs = _args(name, max(total, N * N))
    f = work_group_function(module, name, local_size, options)
    got, want = args_for(), args_for()
    interp.run_work_groups(f, got, num_groups)
    interp.run_work_items(module.functions[name], want, num_groups, local_size)
    for i in outputs:
        np.testing.assert_array_equal(got[i], want[i], err_msg=f"{name} {local_size} {options}")


def _kernel_src(name):
    return FIRES.get(name) or NO_FIRE[name]


@pytest.mark.parametrize("name", [n for n in list(FIRES) + list(NO_FIRE) if n not in ("matmul", "guarded_matmul")])
@pytest.mark.parametrize("L", [1, 3, 4, 6])
def test_semantics_1d(name, L):
    for options in (ON, OFF):
        _run(_kernel_src(name), name, (L, 1, 1), (2, 1, 1), options)


@pytest.mark.parametrize("name", ["matmul", "guarded_matmul"])
@pytest.mark.parametrize("local", [(1, 1, 1), (5, 1, 1), (3, 2, 1), (2, 5, 1)])
def test_semantics_matmul_2d(name, local):
    groups = (-(-N // local[0]), -(-N // local[1]), 1)
    if name == "matmul":  # no guard: the launch must cover exactly n x n
        if N % local[0] or N % local[1]:
            pytest.skip("unguarded kernel needs a dividing local size")
    for options in (ON, OFF):
        _run(_kernel_src(name), name, local, groups, options)


def test_semantics_with_ids_fit_int_and_all_passes():
    for name in ("matmul", "chain"):
        _run(_kernel_src(name), name, (5, 1, 1) if name == "matmul" else (3, 1, 1), (1, 5, 1) if name == "matmul" else (2, 1, 1),
             CompilerOptions(verify_each=True, ids_fit_int=True))
