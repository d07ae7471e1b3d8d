"""The work-group form's structure (transforms/__init__.py), and linear code growth."""
from loomcl import ir
from loomcl.ir import types as ty
from loomcl.ir.reader import read_module
from loomcl.options import CompilerOptions
from loomcl.transforms.pipeline import work_group_function

from . import kernels as K

CBS = CompilerOptions(structured=False, fold_guards=False, transpose_private=False, verify_each=True)
ALL = [(K.SCALE, "scale"), (K.REDUCE, "reduce"), (K.UNIFORM_IF, "uniform_if"), (K.VARYING_TRIP, "varying_trip"),
       (K.BROADCAST, "broadcast"), (K.LOOP_IN_IF, "loop_in_if"), (K.EARLY_RETURN, "early_return"),
       (K.PRIVATE_ARRAY, "private_array"), (K.TRANSPOSE_2D, "reverse_2d")]


def form(text, name, local_size=(16, 1, 1), options=CBS):
    return work_group_function(read_module(text), name, local_size, options)


def test_work_group_form_contract():
    for options in (CBS, CompilerOptions(context_all=True, structured=False, verify_each=True), CompilerOptions(verify_each=True)):
        for text, name in ALL:
            f = form(text, name, (4, 2, 1), options)
            assert f.local_size == (4, 2, 1)
            for inst in f.instructions():
                assert not isinstance(inst, (ir.Call, ir.Barrier))
                if isinstance(inst, ir.WorkItemQuery):
                    assert inst.query not in (ir.Query.LOCAL_ID, ir.Query.LOCAL_SIZE)
            assert f.work_item_loops
            for loop in f.work_item_loops:
                assert loop.header in loop.blocks and loop.latch in loop.blocks
                assert loop.header in loop.latch.successors
            for inst in f.instructions():
                if isinstance(inst, ir.Alloca) and isinstance(inst.allocated_type, ty.ArrayType):
                    t = inst.allocated_type  # [8 x T], or a private array's transposed [K x [8 x T]]
                    assert 8 in (t.count, getattr(t.element, "count", None)) and inst.name.endswith(".context")


def test_barrier_free_kernel_is_one_loop_without_dispatch():
    f = form(K.SCALE, "scale", (64, 1, 1))
    assert len(f.work_item_loops) == 1
    assert not any(isinstance(i, (ir.Switch, ir.Alloca)) for i in f.instructions())
    assert len(f.blocks) == 4  # prologue, loop body, latch, exit


def test_reduction_keeps_uniform_stride_in_a_scalar_slot():
    f = form(K.REDUCE, "reduce")
    allocas = [i for i in f.instructions() if isinstance(i, ir.Alloca)]
    assert [a.allocated_type for a in allocas] == [ty.i64]
    f = form(K.REDUCE, "reduce", options=CompilerOptions(context_all=True, structured=False, verify_each=True))
    allocas = [i for i in f.instructions() if isinstance(i, ir.Alloca)]
    assert [a.allocated_type for a in allocas] == [ty.ArrayType(ty.i64, 16)]


def test_varying_values_across_barriers_use_context_arrays():
    f = form(K.LOOP_IN_IF, "loop_in_if")
    types = {i.allocated_type for i in f.instructions() if isinstance(i, ir.Alloca)}
    assert ty.ArrayType(ty.f32, 16) in types  # acc differs per work-item


def test_private_arrays_become_context_arrays():
    f = form(K.PRIVATE_ARRAY, "private_array")
    types = [i.allocated_type for i in f.instructions() if isinstance(i, ir.Alloca)]
    assert types == [ty.ArrayType(ty.ArrayType(ty.i32, 4), 16)]


def test_local_size_one_needs_no_loop():
    f = form(K.REDUCE, "reduce", (1, 1, 1))
    assert not f.work_item_loops


def sequential_barriers(n: int) -> str:
    """A kernel of n times `if (x > k) t[lid] = x; else t[lid] = -x; barrier; x = t[(lid+1) % L];`."""
    lines = ["kernel @chain(ptr.global %io) {", "  local @t : [64 x i32]", "entry:", K.GID,
             "  %p = elementptr i32, %io, %gid", "  %x0 = load i32, %p", "  %pt = elementptr i32, @t, %lid",
             "  %n1 = add %lid, i64 1", "  %nb = urem %n1, %lsz", "  %pn = elementptr i32, @t, %nb",
             "  jump b0"]
    for k in range(n):
        lines += [f"b{k}:", f"  %c{k} = cmp sgt %x{k}, i32 {k}", f"  branch %c{k}, then{k}, else{k}",
                  f"then{k}:", f"  store %x{k}, %pt", f"  jump join{k}",
                  f"else{k}:", f"  %m{k} = sub i32 0, %x{k}", f"  store %m{k}, %pt", f"  jump join{k}",
                  f"join{k}:", "  barrier 1", f"  %x{k + 1} = load i32, %pn", "  barrier 1", f"  jump b{k + 1}"]
    lines += [f"b{n}:", f"  store %x{n}, %p", "  ret", "}"]
    return "\n".join(lines)


def instruction_count(n: int, options=CBS) -> int:
    f = form(sequential_barriers(n), "chain", (16, 1, 1), options)
    return sum(len(b.instructions) for b in f.blocks)


def test_code_grows_linearly_with_the_number_of_barriers():
    for options in (CBS, CompilerOptions(verify_each=False)):
        counts = [instruction_count(n, options) for n in (4, 8, 16, 32)]
        steps = [(b - a) / d for a, b, d in zip(counts, counts[1:], (4, 8, 16))]
        assert max(steps) - min(steps) <= 1, counts  # the same cost per added if/else + barrier


STRUCTURED = CompilerOptions(verify_each=True)


def test_structured_reduction_keeps_the_uniform_loop_scalar_and_folds_guards():
    f = form(K.REDUCE, "reduce", (16, 1, 1), CompilerOptions(fold_guards=False, verify_each=True))
    assert not any(isinstance(i, (ir.Switch, ir.Alloca)) for i in f.instructions())  # no dispatch, no slots
    loop_blocks = set().union(*(loop.blocks for loop in f.work_item_loops))
    s = next(i for i in f.instructions() if isinstance(i, ir.Phi) and i.type is ty.i64 and i.block not in loop_blocks)
    assert s.block not in loop_blocks  # the stride is a group-level phi
    f = form(K.REDUCE, "reduce", (16, 1, 1), STRUCTURED)
    guards = [i for i in f.instructions() if isinstance(i, ir.MathCall)]
    assert [g.math_function for g in guards] == [ir.MathFunction.UMIN]  # 0..min(s, 16)
    compares = [i for i in f.instructions() if isinstance(i, ir.Compare)
                and any(i.lhs is loop.header.phis[0] for loop in f.work_item_loops)]
    assert not compares  # neither `lid < s` nor `lid == 0` is tested per work-item any more


def test_structured_form_falls_back_to_dispatch_for_divergent_barrier_loops():
    f = form(K.VARYING_TRIP, "varying_trip", (16, 1, 1), STRUCTURED)
    assert any(isinstance(i, ir.Switch) for i in f.instructions())


def test_accumulator_of_a_uniform_barrier_loop_is_demoted_not_dispatched():
    f = form(K.LOOP_IN_IF, "loop_in_if", (16, 1, 1), STRUCTURED)
    assert not any(isinstance(i, ir.Switch) for i in f.instructions())


def test_barrier_free_kernel_with_uniform_branches_stays_one_nest():
    text = """kernel @k(ptr.global %out, i32 %n) {
entry:
  %lid = local_id 0
  %none = cmp eq %n, i32 0
  branch %none, quit, work
quit:
  ret
work:
  %p = elementptr i32, %out, %lid
  %big = cmp sgt %n, i32 5
  branch %big, a, b
a:
  store %n, %p
  jump done
b:
  store i32 0, %p
  jump done
done:
  ret
}"""
    f = form(text, "k", (8, 1, 1), STRUCTURED)
    assert len(f.work_item_loops) == 1 and not any(isinstance(i, ir.Switch) for i in f.instructions())
