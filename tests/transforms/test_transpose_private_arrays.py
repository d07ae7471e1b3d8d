"""transpose-private-arrays: which private arrays get an element-major context array, the form, and
semantics: the work-group function computes what the work-item interpreter computes, with the pass on
and off, for arrays indexed uniformly, per work-item, through pointers and with vector accesses."""
import numpy as np
import pytest

from loomcl.driver.compiler import build
from loomcl.ir import instructions as ins
from loomcl.ir import types as ty
from loomcl.options import CompilerOptions
from loomcl.transforms.pipeline import work_group_function

from . import interp

ON = CompilerOptions(verify_each=True)
OFF = CompilerOptions(verify_each=True, transpose_private=False)

TRANSPOSED = {
    # dgemmBlocked's accumulators: a uniform index, across a barrier
    "uniform_index": r"""
__kernel void uniform_index(__global int *out, __local int *t, int n) {
  int lid = get_local_id(0), acc[4];
  for (int w = 0; w < 4; w++) acc[w] = lid * (w + 1);
  t[lid] = lid;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int k = 0; k < n; k++)
    for (int w = 0; w < 4; w++) acc[w] += t[(k + w) % get_local_size(0)] * (w + 2);
  out[get_global_id(0)] = acc[0] + acc[1] * 3 + acc[2] * 5 + acc[3] * 7;
}""",
    # a per-work-item index, and a float array
    "varying_index": r"""
__kernel void varying_index(__global float *out, __local float *t, int n) {
  int lid = get_local_id(0);
  float h[5] = {0.0f, 0.0f, 0.0f, 0.0f, 0.0f};
  t[lid] = lid * 0.5f;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int k = 0; k < n; k++) h[(lid + k) % 5] += t[k % get_local_size(0)];
  out[get_global_id(0)] = h[0] - h[1] + h[2] * 2.0f + h[3] * 4.0f + h[4] * 8.0f;
}""",
    # a vector load of the array's elements: scalarize-vectors makes it element loads (without
    # scalarize-vectors a vector load is not an element access, and the array is kept)
    "vector_access": r"""
__kernel void vector_access(__global int *out, __local int *t) {
  int lid = get_local_id(0), a[4] = {lid, 1, 2, 3};
  t[lid] = lid;
  barrier(CLK_LOCAL_MEM_FENCE);
  a[lid & 3] += t[0];
  int4 v = vload4(0, a);
  out[get_global_id(0)] = v.x + v.y * 3 + v.z * 5 + v.w * 7;
}""",
}

KEPT = {
    # pointer arithmetic over the array: not the two-level pattern
    "walked": r"""
__kernel void walked(__global int *out, __local int *t) {
  int lid = get_local_id(0), a[4] = {lid, 1, 2, 3};
  int *p = a + 1;
  t[lid] = lid;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int k = 0; k < 3; k++) p[k] += t[(lid + k) % get_local_size(0)];
  out[get_global_id(0)] = a[0] + a[1] * 3 + a[2] * 5 + a[3] * 7;
}""",
}

KERNELS = {**TRANSPOSED, **KEPT}


def _context_types(f):
    return [i.allocated_type for i in f.entry.instructions
            if isinstance(i, ins.Alloca) and isinstance(i.allocated_type, ty.ArrayType)
            and isinstance(i.allocated_type.element, ty.ArrayType)]


@pytest.mark.parametrize("name", list(KERNELS))
def test_which_arrays_are_transposed(name):
    local = (16, 2, 1)
    f = work_group_function(build(KERNELS[name]).module, name, local, ON)
    types = _context_types(f)
    assert types
    transposed = [t for t in types if t.element.count == 32]
    assert bool(transposed) == (name in TRANSPOSED)
    for t in transposed:
        assert t.count in (4, 5) and t.element.element in (ty.i32, ty.f32)


def test_checked_mode_keeps_the_layout():
    f = work_group_function(build(KERNELS["uniform_index"]).module, "uniform_index", (8, 1, 1),
                            CompilerOptions(verify_each=True, checked=True))
    assert all(t.count == 8 for t in _context_types(f))


def _args(name):
    out = np.zeros(256, np.float32 if name == "varying_index" else np.int32)
    local = np.zeros(64, out.dtype)
    if name in ("uniform_index", "varying_index"):
        return lambda: [out.copy(), local.copy(), 7]
    return lambda: [out.copy(), local.copy()]


@pytest.mark.parametrize("name", list(KERNELS))
@pytest.mark.parametrize("local", [(1, 1, 1), (3, 1, 1), (16, 1, 1), (8, 2, 1), (4, 2, 3)])
def test_semantics(name, local):
    module = build(KERNELS[name]).module
    groups = (2, 1, 1)
    for options in (ON, OFF):
        f = work_group_function(module, name, local, options)
        got, want = _args(name)(), _args(name)()
        interp.run_work_groups(f, got, groups, work_dim=3 if local[2] > 1 else 2 if local[1] > 1 else 1)
        interp.run_work_items(module.functions[name], want, groups, local)
        np.testing.assert_array_equal(got[0], want[0], err_msg=f"{name} {local} {options}")
