"""vectorize-work-items (whole-function vectorization, K&H sec. 3): lane shapes, the vector form it
leaves (masks only where control flow is varying, uniform loops as scalar control flow, consecutive
accesses as lane loads and stores), the reasons it gives where it does not apply, the text form of
the lane operations, and semantics: the work-group function, vectorized, computes in the interpreter
what the work-item interpreter (OpenCL semantics) computes, at local sizes with and without a
remainder, on 16 lanes (the cost model's choice) and on 4 (`wfv_everywhere`)."""
import numpy as np
import pytest

from loomcl.analysis.loops import LoopInfo
from loomcl.analysis.uniformity import Kind
from loomcl.driver.compiler import build
from loomcl.ir import instructions as ins
from loomcl.ir.printer import print_function
from loomcl.ir.reader import read_function
from loomcl.options import CompilerOptions
from loomcl.transforms.pipeline import work_group_function
from loomcl.transforms.wfv_shapes import LaneShapes

from . import interp

ON = CompilerOptions(verify_each=True)
EVERYWHERE = CompilerOptions(verify_each=True, wfv_everywhere=True)
OFF = CompilerOptions(verify_each=True, wfv=False)

MANDEL = r"""
__kernel void mandel(__global int *out, int max_iter) {
  int g = get_global_id(0);
  float x0 = -2.0f + 0.05f * (float)(g % 40), y0 = -1.0f + 0.1f * (float)(g / 40);
  float x = x0, y = y0;
  int it = 0;
  while (x * x + y * y <= 4.0f && it < max_iter) {
    float t = x * x - y * y + x0;
    y = 2.0f * x * y + y0; x = t; it++;
  }
  out[g] = it;
}"""

KERNELS = {
    "mandel": (MANDEL, "int", [("max_iter", 50)]),
    "uniform_loop": (r"""
__kernel void uniform_loop(__global float *out, __global const float *in, int n) {
  int g = get_global_id(0);
  float acc = 0.0f;
  for (int k = 0; k < n; k++) acc = acc * 0.5f + in[k] * (float)(g + k);
  out[g] = acc;
}""", "float", [("in", None), ("n", 7)]),
    "divergent_if_in_loop": (r"""
__kernel void divergent_if_in_loop(__global int *out, __global const int *in, int n) {
  int g = get_global_id(0), acc = 0;
  for (int k = 0; k < n; k++) {
    if ((g + k) % 3 == 0) acc += in[(g + k) % 64];
    else if (g & 1) acc -= k;
    else { acc ^= g; continue; }
    acc *= 3;
  }
  out[g] = acc;
}""", "int", [("in", None), ("n", 9)]),
    "varying_nested": (r"""
__kernel void varying_nested(__global int *out, __global const int *in) {
  int g = get_global_id(0), acc = 0;
  for (int i = 0; i < g % 5; i++)
    for (int j = i; j < g % 7; j++) {
      if (j == 4 && (g & 2)) break;
      acc += in[(i * 7 + j + g) % 64];
    }
  out[g] = acc;
}""", "int", [("in", None)]),
    "early_return": (r"""
__kernel void early_return(__global int *out, __global const int *in) {
  int g = get_global_id(0);
  out[g] = -1;
  int acc = 0;
  for (int k = 0; k < 10; k++) {
    acc += in[(g * 3 + k) % 64];
    if (acc > 200 + g) return;
  }
  out[g] = acc;
}""", "int", [("in", None)]),
    "store_in_varying_loop": (r"""
__kernel void store_in_varying_loop(__global int *out, __global const int *in) {
  int g = get_global_id(0), k = 0;
  do { out[g] += in[(g + k) % 64]; k++; } while (k < (g % 4) + 1);
}""", "int", [("in", None)]),
    "switches": (r"""
__kernel void switches(__global int *out, __global const int *in, int n) {
  int g = get_global_id(0), acc = 1;
  for (int k = 0; k < n; k++) {
    switch ((g + k) % 4) {
      case 0: acc += in[(g * k) % 64]; break;
      case 2: acc *= 3; /* falls through */
      case 3: acc -= k; break;
      default: acc ^= 5;
    }
    switch (k % 3) { case 1: acc += 100; break; default: acc -= 1; }
  }
  out[g] = acc;
}""", "int", [("in", None), ("n", 6)]),
    "uniform_if_in_varying_loop": (r"""
__kernel void uniform_if_in_varying_loop(__global float *out, __global const float *in, int flag) {
  int g = get_global_id(0);
  float x = (float)(g % 9);
  int it = 0;
  while (x > 0.5f && it < 30) {
    if (flag > 0) x = x * 0.5f + in[it % 64] * 0.01f;
    else x = x - 1.0f;
    it++;
  }
  out[g] = x + (float)it;
}""", "float", [("in", None), ("flag", 1)]),
    "mixed_types": (r"""
__kernel void mixed_types(__global double *out, __global const char *c, __global const float *f) {
  int g = get_global_id(0);
  double acc = 0.0;
  char m = c[g % 64];
  for (int k = 0; k < (m & 7); k++) acc += (double)f[(g + k) % 64] * (double)m;
  out[g] = acc;
}""", "double", [("c", "char"), ("f", "float")]),
    # tests/difftest/reported/workgroup/fuzz_7100111: a helper's loop with a `break`, on a uniform
    # argument, is a uniform loop with two exits; taken for a varying one, it left a per-lane value
    # where the lane shapes promised a scalar (an AttributeError out of the build)
    "uniform_loop_with_break": (r"""
uint leading_zeros(uint x) { uint n = 0u; for (int i = 31; i >= 0; i--) { if ((x >> i) & 1u) break; n++; } return n; }
__kernel void uniform_loop_with_break(__global int *out, __global const int *in, int n) {
  int g = get_global_id(0);
  uint u = n > 100 ? (uint)n * 3u : leading_zeros((uint)n & 0xf0f0u);
  int acc = (int)u;
  for (int k = 0; k < g % 5; k++) acc += in[(g + k) % 64];
  out[g] = acc;
}""", "int", [("in", None), ("n", 40)]),
    "uniform_loop_two_exit_targets": (r"""
__kernel void uniform_loop_two_exit_targets(__global int *out, __global const int *in, int n) {
  int g = get_global_id(0), acc = g % 7, k = 0;
  for (; k < 64; k++) {
    if (in[k] > n) break;
    if (in[k] < -n) { acc = -acc; k += 100; break; }
    acc += in[(g + k) % 64];
  }
  for (int j = 0; j < g % 3; j++) acc += k;
  out[g] = acc * 3 + k;
}""", "int", [("in", None), ("n", 45)]),
    "uniform_return_in_loop": (r"""
__kernel void uniform_return_in_loop(__global int *out, __global const int *in, int n) {
  int g = get_global_id(0), acc = 0;
  for (int j = 0; j < g % 4; j++) acc += j * g;
  for (int k = 0; k < 64; k++) {
    if (in[k] > n) { out[g] = acc; return; }
    acc += in[(g * 5 + k) % 64];
  }
  out[g] = -acc;
}""", "int", [("in", None), ("n", 45)]),
}


def _arrays(kind, size, rng):
    if kind == "char":
        return rng.integers(-100, 100, size, dtype=np.int8)
    if kind == "float":
        return rng.standard_normal(size).astype(np.float32)
    return rng.integers(-50, 50, size, dtype=np.int32)


def _args(name, items, rng):
    src, out_kind, extra = KERNELS[name]
    out = np.zeros(items, {"int": np.int32, "float": np.float32, "double": np.float64}[out_kind])
    if name == "store_in_varying_loop":
        out = rng.integers(-5, 5, items, dtype=np.int32)
    args = [out]
    for arg, value in extra:
        if value is None or isinstance(value, str):
            args.append(_arrays(value or ("float" if out_kind == "float" else "int"), 64, rng))
        else:
            args.append(value)
    return src, args


@pytest.mark.parametrize("options", [ON, EVERYWHERE], ids=["wfv", "everywhere"])
@pytest.mark.parametrize("local", [1, 3, 17, 32, 33, 100])
@pytest.mark.parametrize("name", list(KERNELS))
def test_vectorized_form_computes_what_the_work_items_compute(name, local, options):
    rng = np.random.default_rng(local)
    groups = 2
    src, args = _args(name, local * groups, rng)
    module = build(src).module
    expected = [a.copy() if isinstance(a, np.ndarray) else a for a in args]
    interp.run_work_items(module.functions[name], expected, (groups,), (local,))
    function = work_group_function(module, name, (local,), options)
    if options is EVERYWHERE and local >= 4:
        assert any(b.name == "wfv.x" for b in function.blocks)
    got = [a.copy() if isinstance(a, np.ndarray) else a for a in args]
    interp.run_work_groups(function, got, (groups,))
    np.testing.assert_array_equal(got[0], expected[0])


TAIL = r"""
__kernel void tail(__global float *out, __global const float *in, int n) {
  int g = get_global_id(0);
  if (g < n) {
    float x = in[g];
    int it = 0;
    while (x > 1.0f && it < 40) { x = x * 0.5f + 0.25f; it++; }
    out[g] = x + (float)it;
  }
}"""


@pytest.mark.parametrize("options", [ON, EVERYWHERE], ids=["wfv", "everywhere"])
@pytest.mark.parametrize("n", [1, 5, 16, 31, 47])
def test_masked_lanes_touch_no_memory_past_a_buffer(n, options):
    """Exact-size buffers: the interpreter raises on any access past their end, so a masked lane of
    the last vector (g >= n) must neither load nor store."""
    module = build(TAIL).module
    data = (np.arange(n, dtype=np.float32) * 3.5).astype(np.float32)
    expected = [np.zeros(n, np.float32), data.copy(), n]
    groups = (n + 15) // 16
    interp.run_work_items(module.functions["tail"], expected, (groups,), (16,))
    function = work_group_function(module, "tail", (16,), options)
    assert any(b.name == "wfv.x" for b in function.blocks)
    got = [np.zeros(n, np.float32), data.copy(), n]
    interp.run_work_groups(function, got, (groups,))
    np.testing.assert_array_equal(got[0], expected[0])


def _form(src, name, local=64, options=ON):
    return work_group_function(build(src).module, name, (local,), options)


def test_mandelbrot_runs_until_every_lane_is_done():
    f = _form(MANDEL, "mandel")
    text = print_function(f)
    assert any(b.name == "wfv.x" for b in f.blocks)
    assert "any.lane" in text  # the loop's exit test: is any lane still iterating
    assert "lane.store" in text and "gather" not in text
    assert f.work_item_loops == []  # 64 work-items: no remainder loop is left


def test_uniform_loop_stays_scalar_control_flow_with_vector_accumulators():
    src = KERNELS["uniform_loop"][0]  # (with register-blocking the interchange takes this loop: see ilb)
    text = print_function(_form(src, "uniform_loop", options=CompilerOptions(verify_each=True, register_blocking=False)))
    assert "any.lane" not in text  # uniform: a scalar exit test, no masks
    assert "phi <16 x f32>" in text  # the accumulator lives in a vector register
    loop = text.split("wfv.loop:")[1].split("wfv.loop.exit:")[0]
    assert "phi i32" in loop and "phi <16 x i32>" not in loop  # k is one scalar
    assert "lane.store" not in loop and "gather" not in loop  # in[k]: a scalar load


def test_remainder_loop_keeps_the_rest_and_says_so():
    f = _form(MANDEL, "mandel", local=40)
    (loop,) = f.work_item_loops
    assert loop.note == "wfv: 16 lanes in wfv.x, this loop runs the rest"
    assert "; wfv: 16 lanes" in print_function(f)


@pytest.mark.parametrize("src, name, reason", [
    (r"""__kernel void k(__global int *out) { int g = get_global_id(0); out[g] = g * 2; }""", "k",
     "no long loop inside"),
    (r"""__kernel void k(__global int *out, int n) {
      int g = get_global_id(0); for (int i = 0; i < g % 3; i++) atomic_add(out, i); }""", "k", "atomics"),
    (r"""__kernel void k(__global int *out, __global const int *a, int n) {
      int g = get_global_id(0), s = 0; for (int i = 0; i < n; i++) s += a[g * n + i]; out[g] = s; }""", "k",
     "gathers to"),
])
def test_where_it_does_not_apply_it_says_why(src, name, reason):
    f = _form(src, name)
    notes = [loop.note for loop in f.work_item_loops]
    assert any(reason in note for note in notes), notes
    assert not any(b.name.startswith("wfv.") for b in f.blocks)


def test_off_switch_leaves_the_loops_alone():
    f = _form(MANDEL, "mandel", options=OFF)
    assert not any(b.name.startswith("wfv.") for b in f.blocks)
    assert all(loop.note == "" for loop in f.work_item_loops)


def test_lane_shapes_of_a_small_kernel():
    src = r"""
__kernel void k(__global float *out, __global const float *in, int n) {
  int g = get_global_id(0);
  float acc = 0.0f;
  for (int i = 0; i < n; i++) acc += in[i] * in[g];
  out[g] = acc;
}"""
    f = _form(src, "k", options=CompilerOptions(wfv=False, horizontal_loops=False))
    (loop,) = f.work_item_loops
    shapes = LaneShapes(f, loop, LoopInfo(f))
    loads = [i for b in loop.blocks for i in b.instructions if isinstance(i, ins.Load)]
    kinds = sorted(shapes.shape(load.pointer).kind.name for load in loads)
    assert kinds == ["CONSECUTIVE", "UNIFORM"]  # in[g] steps 4 bytes a lane, in[i] is one address
    assert shapes.shape(loop.counter).kind is Kind.CONSECUTIVE
    phis = [p for b in loop.blocks if b is not loop.header for p in b.phis]
    shapes_of_phis = {p.type.__class__.__name__: shapes.shape(p).kind for p in phis}
    assert shapes_of_phis["IntType"] is Kind.UNIFORM  # i: the same in every lane
    assert shapes_of_phis["FloatType"] is Kind.VARYING  # acc


def test_varying_loop_keeps_uniform_induction_variables_scalar():
    src = r"""
__kernel void k(__global float *out, __global const int *len, __global const float *v) {
  int g = get_global_id(0); float acc = 0.0f;
  for (int d = 0; d < len[g]; d++) acc += v[d * 64 + g];
  out[g] = acc;
}"""
    text = print_function(_form(src, "k"))
    assert "any.lane" in text  # a varying loop
    assert "lane.load <16 x f32>" in text  # v[d * 64 + g]: consecutive, since d is uniform inside
    assert "gather" not in text


def test_lane_operations_print_and_read_back():
    f = _form(MANDEL, "mandel", local=40, options=EVERYWHERE)
    text = print_function(f)
    assert "broadcast 4," in text and "any.lane" in text
    assert print_function(read_function(text)) == text


REGIONS = r"""
__kernel void regions(__global int *out, __local int *t, int n) {
  int l = get_local_id(0), g = get_global_id(0), acc = 0;
  for (int s = 0; s < n; s++) {
    int k = 0;
    while (k < (g + s) % 5) { acc += k * s + 1; k++; }
    t[l] = acc;
    barrier(CLK_LOCAL_MEM_FENCE);
    acc += t[(l + 1) % get_local_size(0)];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  out[g] = acc;
}"""


@pytest.mark.parametrize("structured", [True, False], ids=["structured", "cbs"])
@pytest.mark.parametrize("local", [(5,), (16,), (33,), (8, 2)])
def test_regions_between_barriers_where_the_work_items_choose_the_next_one(local, structured):
    """In the plain CBS form each region's work-item loop ends in phis naming the next region (all
    work-items agree); after vectorization they come from the vector loop or from the rest loop."""
    module = build(REGIONS).module
    items = int(np.prod(local))
    args = lambda: [np.zeros(items * 2, np.int32), np.zeros(items, np.int32), 3]  # noqa: E731
    expected = args()
    interp.run_work_items(module.functions["regions"], expected, (2,), local)
    options = CompilerOptions(verify_each=True, wfv_everywhere=True, structured=structured)
    function = work_group_function(module, "regions", local, options)
    assert any(b.name == "wfv.x" for b in function.blocks)
    got = args()
    interp.run_work_groups(function, got, (2,))
    np.testing.assert_array_equal(got[0], expected[0])
