"""Builtin calls: work-item queries, barriers and fences, math, integer functions, atomics."""
import pytest

from loomcl.ir import MathCall, MathFunction
from loomcl.ir import types as ty

from .util import kernel_ir, lower, ops


def math_functions(source: str) -> list[MathFunction]:
    module = lower(source)
    return [i.math_function for f in module.functions.values() for i in f.instructions()
            if isinstance(i, MathCall)]


def test_get_global_id_expands_to_group_local_and_offset():
    text = kernel_ir("out[get_global_id(1)] = 1;")
    for piece in ("group_id 1", "enqueued_local_size 1", "local_id 1", "global_offset 1"):
        assert piece in text
    assert ops(text)[:8][-3:] == ["mul", "add", "add"] or text.count("add") >= 2
    assert "global_id" not in text.replace("group_id", "")


@pytest.mark.parametrize("call, query", [
    ("get_local_id", "local_id"), ("get_group_id", "group_id"), ("get_local_size", "local_size"),
    ("get_enqueued_local_size", "enqueued_local_size"), ("get_num_groups", "num_groups"),
    ("get_global_size", "global_size"), ("get_global_offset", "global_offset"),
])
def test_work_item_queries(call, query):
    assert f"{query} 2" in kernel_ir(f"out[0] = {call}(2);")


def test_out_of_range_constant_dimension_gives_the_default():
    text = kernel_ir("out[0] = get_local_size(5) + get_local_id(7);")
    assert "local_size" not in text and "local_id" not in text
    assert "i64 1" in text


def test_variable_dimension_selects_over_all_three():
    text = kernel_ir("out[0] = get_local_id(out[1]);")
    assert text.count("select") == 3
    assert all(f"local_id {d}" in text for d in range(3))


def test_get_work_dim_is_uint():
    assert "trunc %work_dim to i32" in kernel_ir("out[0] = get_work_dim();")


def test_barrier_and_fences_keep_their_flags():
    text = kernel_ir("barrier(CLK_LOCAL_MEM_FENCE); barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);"
                     " mem_fence(CLK_GLOBAL_MEM_FENCE); read_mem_fence(1); write_mem_fence(2);")
    assert "barrier 1" in text and "barrier 3" in text
    assert "fence 2" in text and "fence 1" in text


def test_math_builtins_map_to_math_calls():
    found = math_functions("""__kernel void k(__global float *o) {
        float x = o[0];
        o[1] = sqrt(x) + fabs(x) + fmin(x, 1.0f) + fmax(x, 2.0f) + floor(x) + ceil(x) + exp(x)
             + log(x) + pow(x, 2.0f) + sin(x) + cos(x) + fma(x, x, x) + native_sqrt(x)
             + native_powr(x, 3.0f);
    }""")
    M = MathFunction
    assert found == [M.SQRT, M.FABS, M.FMIN, M.FMAX, M.FLOOR, M.CEIL, M.EXP, M.LOG, M.POW, M.SIN,
                     M.COS, M.FMA, M.SQRT, M.POW]


def test_mad_native_divide_and_recip_are_arithmetic():
    text = kernel_ir("float x = f[0]; f[1] = mad(x, x, 1.0f) + native_divide(x, 3.0f) + native_recip(x);",
                     "__global float *f")
    assert "fmul" in text and "fdiv" in text and "fdiv f32 1.0" in text
    assert "math." not in text


@pytest.mark.parametrize("type_, call, function", [
    ("int", "min", MathFunction.SMIN), ("uint", "min", MathFunction.UMIN),
    ("long", "max", MathFunction.SMAX), ("uchar", "max", MathFunction.UMAX),
    ("float", "min", MathFunction.FMIN), ("double", "max", MathFunction.FMAX),
])
def test_min_max_by_signedness(type_, call, function):
    source = f"__kernel void k(__global {type_} *o) {{ o[0] = {call}(o[1], o[2]); }}"
    assert math_functions(source) == [function]


def test_clamp_is_max_then_min():
    assert math_functions("__kernel void k(__global uint *o) { o[0] = clamp(o[1], 2u, 9u); }") == \
        [MathFunction.UMAX, MathFunction.UMIN]


def test_integer_abs_returns_unsigned():
    module = lower("__kernel void k(__global int *o) { o[0] = abs(o[1]); }")
    (call,) = [i for i in module.functions["k"].instructions() if isinstance(i, MathCall)]
    assert call.math_function is MathFunction.ABS and call.type is ty.i32


@pytest.mark.parametrize("call, opcode", [
    ("atomic_add(p, 2)", "add"), ("atomic_sub(p, 2)", "sub"), ("atomic_xchg(p, 2)", "xchg"),
    ("atomic_and(p, 2)", "and"), ("atomic_or(p, 2)", "or"), ("atomic_xor(p, 2)", "xor"),
    ("atomic_min(p, 2)", "smin"), ("atomic_max(p, 2)", "smax"), ("atomic_inc(p)", "add"),
    ("atomic_dec(p)", "sub"), ("atom_add(p, 1)", "add"),
])
def test_atomics_give_the_old_value(call, opcode):
    text = kernel_ir(f"__global int *p = out + 1; out[0] = {call};")
    assert f"atomic {opcode} %p" in text


def test_unsigned_atomic_min_and_cmpxchg_and_local_atomics():
    text = kernel_ir("""__local uint hist[16];
        hist[get_local_id(0)] = 0u;
        atomic_min(&hist[1], out[0]);
        out[1] = atomic_cmpxchg(&hist[2], 0u, 5u);
        atomic_inc(&hist[out[2] & 15]);""", "__global uint *out")
    assert "atomic umin" in text and "cmpxchg" in text and "atomic add" in text


def test_float_atomic_xchg():
    assert "atomic xchg %" in kernel_ir("f[0] = atomic_xchg(f + 1, 2.0f);", "__global float *f")


def test_constant_expressions_as_dimension_and_flags_are_folded():
    text = kernel_ir("int d = 1; barrier(d + 1); out[0] = get_local_id(2 - 1); mem_fence(1 | 2);")
    assert "barrier 3" in text and "local_id 1" in text and "select" not in text and "fence 3" in text
    assert "barrier 1" in kernel_ir("barrier((1 << 1) - 1);")


def test_local_id_truncation_to_int_is_marked_no_wrap():
    module = lower("__kernel void k(__global int *o) { int l = get_local_id(0); short s = get_local_id(0);"
                   " int g = get_global_id(0); o[l] = s + g; }")
    from loomcl.ir import Cast, CastOpcode
    truncs = [i for i in module.functions["k"].instructions()
              if isinstance(i, Cast) and i.opcode is CastOpcode.TRUNC]
    assert [getattr(t, "no_wrap", False) for t in truncs] == [True, False, False]
