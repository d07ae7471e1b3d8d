"""grid-stride-loops: which loops get the group's trip count (pyopencl's elementwise shape and the
hand-written `for (i = get_global_id(0); i < n; i += get_global_size(0))`), which are left alone
(a barrier inside, a bound or step that is not uniform or not provably positive, an accumulator,
unsigned compares, a break, a start not affine in the local id), the form the pipeline then gives
them, and semantics: the work-group function computes what the work-item interpreter (OpenCL
semantics) computes for n = 0, n below, at and above the global size, start offsets, 2-D launches
and odd local sizes, in several pipeline configurations."""
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from loomcl.driver.compiler import build
from loomcl.options import CompilerOptions
from loomcl.transforms.pipeline import work_group_function

from . import interp

ON = CompilerOptions(verify_each=True, ids_fit_int=True)
CONFIGS = {
    "default": ON,
    "no-grid-stride": CompilerOptions(verify_each=True, ids_fit_int=True, grid_stride=False),
    "no-fold-guards": CompilerOptions(verify_each=True, ids_fit_int=True, fold_guards=False),
    "no-wfv": CompilerOptions(verify_each=True, ids_fit_int=True, wfv=False),
    "loop-order-bfo": CompilerOptions(verify_each=True, ids_fit_int=True, loop_order="bfo"),
    "no-register-blocking": CompilerOptions(verify_each=True, ids_fit_int=True, register_blocking=False),
    "wfv-everywhere": CompilerOptions(verify_each=True, ids_fit_int=True, wfv_everywhere=True),
    "not-ids-fit-int": CompilerOptions(verify_each=True),
}

# The shape of pyopencl's ElementwiseKernel (written here by hand): int ids, a long counter, the
# group's start from local_size * group_id, the step from the global size, the bound a long.
ELEMENTWISE = r"""
__kernel void elwise(__global int *z, __global const int *x, __global const int *y, int a, int b, long n)
{
  int lid = get_local_id(0);
  int gsize = get_global_size(0);
  int work_group_start = get_local_size(0)*get_group_id(0);
  long i;
  ;
  for (i = work_group_start + lid; i < n; i += gsize)
  {
    z[i] = a*x[i] + b*y[i];
  }
  ;
}"""

FIRES = {
    "elwise": ELEMENTWISE,
    "gid_offset_if": r"""
__kernel void gid_offset_if(__global int *out, __global const int *in, int off, int n) {
  int gsize = get_global_size(0);
  for (int i = (int)get_global_id(0) + off; i < n; i += gsize) {
    if (in[i] & 1) out[i] = in[i] + in[i + 1];   /* reads its neighbour: nobody writes `in` */
    else out[i] = -in[i];
  }
}""",
    "continue_2d": r"""
__kernel void continue_2d(__global int *out, __global const int *in, long n) {
  long row = get_global_id(1), step = get_global_size(0);
  for (long i = get_global_id(0); i < n; i += step) {
    if (in[i] % 3 == 0) continue;
    out[row * n + i] = in[i] * (int)(row + 1);
  }
}""",
    "local_size_step": r"""
__kernel void local_size_step(__global int *out, __global const int *in, int n) {
  /* each group strides over its own part: the step is the local size */
  int base = get_group_id(0) * n, ls = get_local_size(0);
  for (int i = get_local_id(0); i < n; i += ls)
    out[base + i] = in[base + i] * 2 + i;
}""",
}

CHECKED = {
    "size_t_step": r"""
__kernel void size_t_step(__global int *out, __global const int *in, long n) {
  /* long + size_t is unsigned arithmetic converted back: a wrap would be defined, so no `nsw`;
   * rewritten behind a run-time check that n + G cannot wrap */
  for (long i = get_global_id(0); i < n; i += get_global_size(0)) out[i] = in[i] + 1;
}""",
    "bound_in_header": r"""
__kernel void bound_in_header(__global int *out, __global const int *in, int n) {
  /* (long)(n - 7) is computed in the loop's header: hoisted */
  for (long i = get_global_id(0); i < n - 7; i += get_global_size(0)) out[i] = in[i] + 1;
}""",
    "int_size_t_step": r"""
__kernel void int_size_t_step(__global int *out, __global const int *in, int off, int n) {
  /* (int)((long)i + G): the hand-written OpenCL grid-stride loop */
  for (int i = (int)get_global_id(0) + off; i < n; i += get_global_size(0)) out[i - off] = in[i - off] + 1;
}""",
}

NESTED = {
    "nested": r"""
__kernel void nested(__global int *out, __global const int *in, int n) {
  /* a grid-stride loop inside another: the outer one is rewritten (the inner one is
   * under its varying exit then), the inner one keeps its per-work-item trip count */
  int gsize = get_global_size(0);
  for (int r = get_global_id(0); r < 3; r += gsize)
    for (int i = get_global_id(0); i < n; i += gsize)
      out[r * 20 + i] = in[i] * (r + 1);
}""",
}

NO_FIRE = {
    "barrier_inside": r"""
__kernel void barrier_inside(__global int *out, __global const int *in, __local int *t, int n) {
  int gsize = get_global_size(0);
  for (int i = get_global_id(0); i < n; i += gsize) {
    t[get_local_id(0)] = in[i];
    barrier(CLK_LOCAL_MEM_FENCE);
    out[i] = t[get_local_id(0)] + 1;
    barrier(CLK_LOCAL_MEM_FENCE);
  }
}""",
    "varying_bound": r"""
__kernel void varying_bound(__global int *out, __global const int *in, int n) {
  int m = in[get_global_id(0)] % n;
  for (int i = get_global_id(0); i < m; i += get_global_size(0)) out[i] = in[i] + 1;
}""",
    "varying_step": r"""
__kernel void varying_step(__global int *out, __global const int *in, int n) {
  for (int i = get_global_id(0); i < n; i += get_global_size(0) + (int)get_local_id(0)) out[i] = in[i] + 1;
}""",
    "step_not_positive": r"""
__kernel void step_not_positive(__global int *out, __global const int *in, int n, int s) {
  for (int i = get_global_id(0); i < n; i += s) out[i] = in[i] + 1;
}""",
    "accumulator": r"""
__kernel void accumulator(__global int *out, __global const int *in, int n) {
  int acc = 0;
  for (int i = get_global_id(0); i < n; i += get_global_size(0)) acc += in[i];
  out[get_global_id(0)] = acc;
}""",
    "unsigned_counter": r"""
__kernel void unsigned_counter(__global int *out, __global const int *in, uint n) {
  for (uint i = get_global_id(0); i < n; i += get_global_size(0)) out[i] = in[i] + 1;
}""",
    "break_inside": r"""
__kernel void break_inside(__global int *out, __global const int *in, int n) {
  for (int i = get_global_id(0); i < n; i += get_global_size(0)) { if (in[i] < 0) break; out[i] = in[i] + 1; }
}""",
    "start_not_affine": r"""
__kernel void start_not_affine(__global int *out, __global const int *in, int n) {
  for (int i = 2 * get_global_id(0); i < n; i += 2 * get_global_size(0)) out[i] = in[i] + 1;
}""",
    "used_after": r"""
__kernel void used_after(__global int *out, __global const int *in, int n) {
  int i;
  for (i = get_global_id(0); i < n; i += get_global_size(0)) out[i] = in[i] + 1;
  out[n + get_global_id(0)] = i;
}""",
    "size_t_start": r"""
__kernel void size_t_start(__global int *out, __global const int *in, int off, int n) {
  /* size_t + int, then narrowed: the start may wrap in 32 bits, so it is not `U + lid` exactly */
  for (int i = get_global_id(0) + off; i < n; i += get_global_size(0)) out[i] = in[i] + 1;
}""",
    "under_varying_if": r"""
__kernel void under_varying_if(__global int *out, __global const int *in, int n) {
  if (in[get_global_id(0)] > 0)
    for (int i = get_global_id(0); i < n; i += get_global_size(0)) out[i] = in[i] + 1;
}""",
}


def _wg(source, name, local_size=(8, 1, 1), options=ON):
    return work_group_function(build(source).module, name, local_size, options)


def _remarks(function):
    return [r for r in function.remarks if r.startswith("grid-stride")]


@pytest.mark.parametrize("name", list(FIRES))
def test_fires_and_the_work_item_loop_goes_inside(name):
    function = _wg(FIRES[name], name)
    assert len(_remarks(function)) == 1
    orders = [r for r in function.remarks if r.startswith("loop-order")]
    assert any(": bfo," in r.lower() for r in orders), orders


@pytest.mark.parametrize("name", list(CHECKED))
def test_fires_behind_a_check_when_the_step_may_wrap(name):
    function = _wg(CHECKED[name], name)
    assert [r for r in _remarks(function) if "when n + G cannot wrap" in r]
    orders = [r for r in function.remarks if r.startswith("loop-order")]
    assert any(": bfo," in r.lower() for r in orders), orders


@pytest.mark.parametrize("config", list(CONFIGS))
@pytest.mark.parametrize("n", [0, 3, 24, 61])
def test_checked_semantics(n, config):
    data = np.random.default_rng(n).integers(-50, 50, 80, dtype=np.int32)
    out = np.zeros(80, np.int32)
    got = _run_both(CHECKED["size_t_step"], "size_t_step", [out, data, n], (24,), (8,), 0, config)
    want = np.zeros(80, np.int32)
    want[:n] = data[:n] + 1
    np.testing.assert_array_equal(got, want)
    _run_both(CHECKED["int_size_t_step"], "int_size_t_step", [out, data, 5, n + 5], (15,), (5,), 0, config)


INT_MAX = 2**31 - 1


@pytest.mark.parametrize("config", list(CONFIGS))
def test_check_failing_takes_the_original_loop(config):
    """n > INT_MAX - G: the original loop runs (here no iteration: every start is at or above n)."""
    n = INT_MAX - 19
    data = np.arange(80, dtype=np.int32)
    out = np.full(80, 7, np.int32)
    got = _run_both(CHECKED["int_size_t_step"], "int_size_t_step", [out, data, n, n], (20,), (5,), 0, config)
    np.testing.assert_array_equal(got, np.full(80, 7, np.int32))


def test_pyopencl_shape_gets_a_folded_guard():
    """The work-item loop runs over min(L, n - j) work-items: no per-work-item guard is left."""
    from loomcl.ir.printer import print_function
    text = print_function(_wg(ELEMENTWISE, "elwise", (128, 1, 1)))
    assert "gs.active" not in text
    assert "math.umin i64 %gs.left, i64 128" in text


@pytest.mark.parametrize("name", list(NO_FIRE))
def test_declines(name):
    assert _remarks(_wg(NO_FIRE[name], name)) == []


def test_switch_turns_it_off():
    options = CompilerOptions(verify_each=True, ids_fit_int=True, grid_stride=False)
    assert _remarks(_wg(ELEMENTWISE, "elwise", options=options)) == []


def _run_both(source, name, args, global_size, local_size, output, config):
    module = build(source).module
    num_groups = tuple(g // l for g, l in zip(global_size, local_size))
    expected = [a.copy() if isinstance(a, np.ndarray) else a for a in args]
    interp.run_work_items(module.functions[name], expected, num_groups, local_size, checked=True)
    function = work_group_function(module, name, local_size, CONFIGS[config])
    got = [a.copy() if isinstance(a, np.ndarray) else a for a in args]
    interp.run_work_groups(function, got, num_groups, work_dim=len(local_size))
    np.testing.assert_array_equal(got[output], expected[output])
    return expected[output]


GLOBAL, LOCAL = 24, 8  # three groups; also 5-wide groups below


@pytest.mark.parametrize("config", list(CONFIGS))
@pytest.mark.parametrize("n", [0, 1, 7, GLOBAL - 1, GLOBAL, GLOBAL + 3, 3 * GLOBAL + 7])
def test_elementwise_semantics(n, config):
    rng = np.random.default_rng(n)
    x, y = rng.integers(-99, 99, 100, dtype=np.int32), rng.integers(-99, 99, 100, dtype=np.int32)
    z = np.full(100, 12345, np.int32)
    got = _run_both(ELEMENTWISE, "elwise", [z, x, y, 3, -2, n], (GLOBAL,), (LOCAL,), 0, config)
    want = z.copy()
    want[:n] = 3 * x[:n] - 2 * y[:n]
    np.testing.assert_array_equal(got, want)  # and against numpy


@pytest.mark.parametrize("config", list(CONFIGS))
@pytest.mark.parametrize("off,n", [(0, 0), (3, 2), (3, 40), (7, 97)])
def test_offset_start_and_neighbour_reads(off, n, config):
    data = np.random.default_rng(off + n).integers(-50, 50, 101, dtype=np.int32)
    out = np.zeros(100, np.int32)
    _run_both(FIRES["gid_offset_if"], "gid_offset_if", [out, data, off, n], (15,), (5,), 0, config)


@pytest.mark.parametrize("config", list(CONFIGS))
@pytest.mark.parametrize("n", [0, 5, 13, 50])
def test_2d_launch_strides_in_x_only(n, config):
    data = np.random.default_rng(n).integers(-50, 50, 64, dtype=np.int32)
    out = np.zeros(3 * 64, np.int32)
    _run_both(FIRES["continue_2d"], "continue_2d", [out, data, n], (8, 3), (4, 3), 0, config)


@pytest.mark.parametrize("config", list(CONFIGS))
@pytest.mark.parametrize("name", ["local_size_step", "bound_in_header", "nested", "accumulator", "used_after",
                                  "under_varying_if"])
def test_other_shapes_semantics(name, config):
    source = {**FIRES, **CHECKED, **NESTED, **NO_FIRE}[name]
    data = np.random.default_rng(3).integers(-50, 50, 80, dtype=np.int32)
    out = np.zeros(80, np.int32)
    _run_both(source, name, [out, data, 11], (12,), (4,), 0, config)


@settings(max_examples=40, deadline=None, derandomize=True)
@given(local=st.integers(1, 9), groups=st.integers(1, 4), n=st.integers(0, 90), off=st.integers(0, 20),
       checked=st.booleans())
def test_any_launch_and_bound(local, groups, n, off, checked):
    """Random local sizes, group counts, bounds and start offsets: the rewritten loop (nsw step, or
    size_t step behind its check) runs exactly the iterations of the original."""
    name = "int_size_t_step" if checked else "gid_offset_if"
    source = CHECKED[name] if checked else FIRES[name]
    data = np.random.default_rng(n).integers(-50, 50, 128, dtype=np.int32)
    out = np.zeros(128, np.int32)
    args = [out, data, off, n + off] if checked else [out, data, off, n]
    _run_both(source, name, args, (local * groups,), (local,), 0, "default")
