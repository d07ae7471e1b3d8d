"""Stride analysis (Kim ch. 3.3): the byte stride of every access along the local ids and the loops,
on kernels as the work-group pipeline sees them (inlined, in SSA, simplified)."""
from loomcl.analysis.stride_values import Class, Poly
from loomcl.analysis.strides import Strides
from loomcl.driver.compiler import build
from loomcl.ir import instructions as ins
from loomcl.ir.reader import read_function
from loomcl.transforms import inline, mem2reg, simplify
from loomcl.transforms.clone import clone_module
from loomcl.transforms.passes import PassContext, run_pass


def analysed(src, name, local_size=(16, 16, 1)):
    module = clone_module(build(src).module)
    function = module.functions[name]
    analyses = PassContext(function, local_size=local_size, module=module)
    for pass_ in (inline, mem2reg, simplify):
        run_pass(pass_, function, analyses)
    return analyses.strides


def row(strides, access):
    """(str of the lid0, lid1, lid2 strides, (str of the loop strides, innermost first))"""
    loops = tuple(str(access.by_loop[loop]) for loop in strides.enclosing_loops(access.inst.block))
    return tuple(map(str, access.by_local_id)), loops


def table(strides):
    """{(kind, line): row} of accesses alone on their line."""
    return {(a.kind, a.inst.loc.line): row(strides, a) for a in strides.accesses}


def rows_at(strides, kind, line):
    return sorted(row(strides, a) for a in strides.accesses if a.kind == kind and a.inst.loc.line == line)


SGEMM = r"""kernel void k(int n, global const float *A, global const float *B, global float *C) {
  int col = get_global_id(0);
  int row = get_global_id(1);
  float acc = 0.0f;
  for (int k = 0; k < n; k++)
    acc += A[row * n + k] * B[k * n + col];
  C[row * n + col] = acc;
}"""


def test_sgemm_naive():
    s = analysed(SGEMM, "k")
    assert rows_at(s, "load", 6) == [(("0", "4*%n", "0"), ("4",)), (("4", "0", "0"), ("4*%n",))]
    assert rows_at(s, "store", 7) == [(("4", "4*%n", "0"), ())]


def test_pointer_arithmetic_row_of_a_matrix():
    src = r"""kernel void k(int n, global const float *A, global const float *x, global float *y) {
  int row = get_global_id(0);
  global const float *a = A + row * n;
  float acc = 0.0f;
  for (int j = 0; j < n; j++)
    acc += a[j] * x[j];
  y[row] = acc;
}"""
    s = analysed(src, "k", (64, 1, 1))
    a_load, x_load = [a for a in s.accesses if isinstance(a.inst, ins.Load)]
    (loop,) = s.loops.loops
    assert str(a_load.by_local_id[0]) == "4*%n" and a_load.classify(0) is Class.LARGE
    assert a_load.classify(loop) is Class.UNIT and x_load.classify(0) is Class.ZERO
    assert x_load.classify(loop) is Class.UNIT


def test_transpose_tile_strides():
    src = r"""kernel void k(global float *out, global const float *in, int width, int height) {
  local float tile[16][17];
  int lx = get_local_id(0), ly = get_local_id(1);
  int bx = get_group_id(0) * 16, by = get_group_id(1) * 16;
  tile[ly][lx] = in[(by + ly) * width + bx + lx];
  barrier(CLK_LOCAL_MEM_FENCE);
  out[(bx + ly) * height + by + lx] = tile[lx][ly];
}"""
    rows = table(analysed(src, "k"))
    assert rows[("load", 5)] == (("4", "4*%width", "0"), ())
    assert rows[("store", 5)] == (("4", "68", "0"), ())
    assert rows[("load", 7)] == (("68", "4", "0"), ())
    assert rows[("store", 7)] == (("4", "4*%height", "0"), ())


def test_stencil_2d_ids_and_casts():
    src = r"""kernel void k(global float *out, global const float *in, int w) {
  size_t x = get_global_id(0), y = get_global_id(1);
  long i = (long)y * w + x;
  out[i] = in[i - w] + in[i + 1] + (float)in[(int)(i - 1)];
}"""
    rows = table(analysed(src, "k"))
    assert {v for v in rows.values()} == {(("4", "4*%w", "0"), ())}


def test_loads_through_loaded_indices_are_irregular():
    src = r"""kernel void k(global float *y, global const int *col, global const float *v, global const float *x,
                     global const int *ptr) {
  int row = get_global_id(0);
  float acc = 0.0f;
  for (int j = ptr[row]; j < ptr[row + 1]; j++)
    acc += v[j] * x[col[j]];
  y[row] = acc;
}"""
    s = analysed(src, "k", (64, 1, 1))
    rows = table(s)
    assert rows[("load", 5)][0][0] == "4"  # ptr[row]
    inner = [a for a in s.accesses if a.by_loop]
    by_class = sorted((a.classify(0).value, a.classify(next(iter(a.by_loop))).value) for a in inner)
    # ptr[row + 1] in the loop's test: unit across work-items, invariant in the loop; v[j] and
    # col[j]: irregular across work-items (j starts at ptr[row]), unit along the loop; x[col[j]]:
    # irregular both ways
    assert by_class == [("1", "0"), ("?", "1"), ("?", "1"), ("?", "?")]


def test_loop_steps_kim_approximations_and_atomics():
    src = r"""kernel void k(global int *out, global int *hist, local int *t, int n, int s) {
  int lid = get_local_id(0), g = get_global_id(0);
  for (int i = 0; i < n; i += 4) {
    out[i * n + g] = t[i % 64] + t[lid / 2] + t[(lid * 8) >> 2];
    atomic_add(&hist[out[i]], 1);
  }
  for (int j = lid; j < n; j += s) out[j] = 0;
  for (int h = n; h > 0; h >>= 1) out[h] = 1;
}"""
    s = analysed(src, "k", (64, 1, 1))
    rows = table(s)
    assert rows[("store", 4)] == (("4", "0", "0"), ("16*%n",))
    t_strides = sorted((a.by_local_id[0].constant, next(iter(a.by_loop.values())).constant)
                       for a in s.accesses if a.inst.loc.line == 4 and isinstance(a.inst, ins.Load))
    assert t_strides == [(0, 16), (4, 0), (8, 0)]  # t[i % 64] keeps i's 4*4; lid / 2 counts as 1
    atomic = next(a for a in s.accesses if a.kind == "atomic")
    # hist[out[i]]: out[i] is one address for all work-items, another in each iteration
    assert atomic.by_local_id[0].is_zero and next(iter(atomic.by_loop.values())).is_irregular
    assert rows[("store", 7)] == (("4", "0", "0"), ("4*%s",))
    assert rows[("store", 8)][1] == ("irregular",)


def test_nested_loops_and_symbolic_local_size_without_a_known_size():
    text = """kernel @k(ptr.global %p, i64 %n) {
entry:
  %lid = local_id 0
  %ls = local_size 0
  jump outer
outer:
  %i = phi i64 [i64 0, entry], [%i.next, outer.latch]
  jump inner
inner:
  %j = phi i64 [%i, outer], [%j.next, inner]
  %row = mul %j, %ls
  %idx = add %row, %lid
  %ptr = elementptr f64, %p, %idx
  store f64 1.0, %ptr
  %j.next = add %j, i64 1
  %c = cmp slt %j.next, %n
  branch %c, inner, outer.latch
outer.latch:
  %i.next = add %i, i64 2
  %d = cmp slt %i.next, %n
  branch %d, outer, done
done:
  ret
}"""
    f = read_function(text)
    s = Strides(f)
    (store,) = s.accesses
    inner, outer = s.enclosing_loops(store.inst.block)
    assert str(store.by_local_id[0]) == "8"
    assert str(store.by_loop[inner]) == "8*%ls"
    assert str(store.by_loop[outer]) == "16*%ls"  # j starts at i, which steps by 2
    known = Strides(f, local_size=(32, 1, 1))
    assert [str(s) for s in known.accesses[0].by_loop.values()] == ["256", "512"]


def test_polynomials_compare_as_expressions():
    text = """kernel @k(i64 %n, i64 %m) {
entry:
  ret
}"""
    f = read_function(text)
    n, m = f.params
    a = Poly.symbol(n) * Poly.constant(4) + Poly.symbol(m)
    b = Poly.symbol(m) + Poly.constant(4) * Poly.symbol(n)
    assert a == b and str(a) == "%m + 4*%n"
    assert (a - b).is_zero and a.constant_value is None and Poly.constant(3).constant_value == 3
