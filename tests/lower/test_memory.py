"""Address spaces and storage: __local variables, __constant data, pointers between spaces."""

from loomcl.ir import types as ty
from loomcl.lower import LoweringError

from .util import ir, kernel_ir, lower


def test_local_variables_belong_to_the_kernel_with_unique_names():
    module = lower("""__kernel void k(__global float *o) {
        __local float tile[16][17];
        { __local int n; n = 1; }
        { __local int n; n = 2; }
        tile[1][2] = o[0];
    }""")
    k = module.functions["k"]
    names = [(v.name, str(v.value_type), v.address_space) for v in k.local_variables]
    assert names == [("tile", "[16 x [17 x f32]]", ty.AddressSpace.LOCAL),
                     ("n", "i32", ty.AddressSpace.LOCAL), ("n.1", "i32", ty.AddressSpace.LOCAL)]
    text = ir("__kernel void k(__global float *o) { __local float t[4]; t[1] = o[0]; }")
    assert "local @t : [4 x f32]" in text and "elementptr f32, @t, i64 1" in text


def test_two_dimensional_local_tile_indexes_rows_then_elements():
    text = kernel_ir("__local float t[8][9]; t[out[0]][out[1]] = 1.0f;", "__global int *out")
    assert "elementptr [9 x f32], @t" in text and "elementptr f32, %" in text


def test_program_scope_constants_with_flat_initializers():
    module = lower("""
        __constant float weights[2][3] = {{1.0f, 2.0f}, {3.0f}};
        __constant int answer = 42;
        __kernel void k(__global float *o) { o[0] = weights[1][0] + answer; }
    """)
    weights, answer = module.globals
    assert (weights.name, str(weights.value_type), weights.address_space) == \
        ("weights", "[2 x [3 x f32]]", ty.AddressSpace.CONSTANT)
    assert weights.initializer == [1.0, 2.0, 0.0, 3.0, 0.0, 0.0]
    assert answer.initializer == [42]
    assert "elementptr f32, @w, i64 1" in ir("""__constant float w[2] = {1.0f, 2.0f};
        __kernel void k(__global float *o) { o[0] = w[1]; }""")


def test_constant_initializer_folds_expressions():
    module = lower("""#define N 4
        __constant int t[3] = {N * 2, -N, 1 << N};
        __kernel void k(__global int *o) { o[0] = t[0]; }""")
    assert module.globals[0].initializer == [8, -4, 16]


def test_pointer_parameters_keep_their_address_space():
    text = ir("__kernel void k(__global float *g, __local float *l, __constant float *c) "
              "{ l[0] = g[0] + c[0]; }")
    assert text.startswith("kernel @k(ptr.global %g, ptr.local %l, ptr.constant %c)")


def test_generic_pointer_parameter_gets_an_addrspacecast():
    text = ir("void f(float *p) { *p = 1.0f; }\n"
              "__kernel void k(__global float *g) { f(g); }", "k")
    assert "addrspacecast %g.1 to ptr.generic" in text


def test_reqd_work_group_size_is_kept():
    module = lower("__kernel __attribute__((reqd_work_group_size(8, 4, 1))) "
                   "void k(__global int *o) { o[0] = 1; }")
    assert module.functions["k"].attributes.reqd_work_group_size == (8, 4, 1)
    assert module.functions["k"].is_kernel


def test_volatile_accesses_stay_volatile():
    text = kernel_ir("volatile int x = 1; x = x + 1; out[0] = x;")
    assert "load i32, %x volatile" in text and "volatile" in text.split("store i32 1")[1].split("\n")[0]


def test_lowering_error_is_a_compile_error_with_location():
    from loomcl.frontend import CompileError
    assert issubclass(LoweringError, CompileError)
