"""Features loomcl does not implement yet say so, by name, at their source location with a caret:
never "type specifier missing", a crash, or a silent miscompile."""
import pytest

from loomcl.frontend import unsupported

from .util import compile_log, compile_ok


def errors(source: str) -> list[str]:
    return [line.split(": error: ", 1)[1] for line in compile_log(source).splitlines() if ": error: " in line]


def test_read_write_images_report_the_qualifier_with_caret():
    log = compile_log("__kernel void k(read_write image2d_t img, __global float4 *out) {\n"
                      "    out[0] = read_imageh(img, (int2)(0, 0));\n}")
    assert log == (
        "t.cl:1:17: error: 'read_write': read_write images (OpenCL C 2.0) are not supported by loomcl yet\n"
        "__kernel void k(read_write image2d_t img, __global float4 *out) {\n"
        "                ^~~~~~~~~~\n"
        "t.cl:2:14: error: 'read_imageh': half-precision image functions (cl_khr_fp16) are not supported by "
        "loomcl yet\n"
        "    out[0] = read_imageh(img, (int2)(0, 0));\n"
        "             ^")


def test_depth_images_and_their_constants():
    assert errors("kernel void k(image2d_depth_t d, global int *a) { a[0] = CLK_DEPTH; }") == [
        "'image2d_depth_t': depth and multisample images are not supported by loomcl yet",
        "'CLK_DEPTH': depth and multisample images are not supported by loomcl yet"]


def test_pipes():
    assert errors("__kernel void k(__write_only pipe int p) { int x = 1; write_pipe(p, &x); }") == [
        "'pipe': pipes are not supported by loomcl yet",
        "'write_pipe': pipes are not supported by loomcl yet"]


def test_pipe_is_still_an_ordinary_name_in_opencl_c_1_2():
    compile_ok("kernel void k(global int *a) { int pipe = 3; a[0] = pipe; }")


def test_device_side_enqueue_and_blocks():
    log = compile_log("kernel void k(global int *a) {\n"
                      "    enqueue_kernel(get_default_queue(), CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(1),\n"
                      "                   ^{ a[0] = 1; });\n}")
    assert "t.cl:2:5: error: 'enqueue_kernel': device-side enqueue is not supported by loomcl yet" in log
    assert "t.cl:3:20: error: '^': blocks (device-side enqueue) are not supported by loomcl yet\n" \
           "                   ^{ a[0] = 1; });\n                   ^" in log
    assert "expected" not in log  # the block was skipped whole: no syntax errors after it


@pytest.mark.parametrize("declaration, name, feature", [
    ("queue_t q;", "queue_t", "device-side enqueue is"),
    ("clk_event_t e;", "clk_event_t", "device-side enqueue is"),
    ("ndrange_t r;", "ndrange_t", "device-side enqueue is"),
    ("reserve_id_t r;", "reserve_id_t", "pipes are"),
    ("atomic_int x;", "atomic_int", "OpenCL C 2.0 atomics are"),
    ("memory_order o;", "memory_order", "OpenCL C 2.0 atomics are"),
])
def test_unsupported_types_in_declarations(declaration, name, feature):
    assert errors(f"kernel void k(global int *a) {{ {declaration} }}") == [
        f"'{name}': {feature} not supported by loomcl yet"]


@pytest.mark.parametrize("call, feature", [
    ("to_global(p)", "casts out of the generic address space are"),
    ("to_private(p)", "casts out of the generic address space are"),
    ("atomic_load(p)", "OpenCL C 2.0 atomics are"),
    ("atomic_fetch_add_explicit(p, 1, memory_order_relaxed)", "OpenCL C 2.0 atomics are"),
    ("work_group_reduce_add(a[0])", "work-group collective functions are"),
    ("work_group_broadcast(a[0], 0)", "work-group collective functions are"),
    ("sub_group_reduce_add(a[0])", "sub-groups are"),
    ("get_sub_group_local_id()", "sub-groups are"),
    ("read_pipe(p, p)", "pipes are"),
])
def test_unsupported_builtins(call, feature):
    name = call.split("(")[0]
    found = errors(f"kernel void k(global int *a) {{ int *p = a; a[1] = {call}; }}")
    assert found[0] == f"'{name}': {feature} not supported by loomcl yet"


def test_the_generic_address_space_itself_works():
    compile_ok("kernel void k(global int *a) { __generic int *g = a; int x = 0; g = &x; a[0] = *g; }")


def test_an_implemented_builtin_or_a_user_function_shadows_the_table():
    compile_ok("int to_global(int x) { return x; }\nkernel void k(global int *a) { a[0] = to_global(1); }")
    compile_ok("typedef int sampler_t;\nkernel void k(global int *a) { sampler_t s = 1; a[0] = s; }")


def test_misspelled_names_still_get_spelling_help():
    assert errors("kernel void k(global float *a) { a[0] = sqrtt(a[0]); }") == [
        "use of undeclared function 'sqrtt'; did you mean 'sqrt'?"]


def test_every_table_entry_has_a_feature_sentence():
    for table in (unsupported.TYPES, unsupported.FUNCTIONS, unsupported.CONSTANTS):
        for name, feature in table.items():
            assert feature.endswith((" is", " are")), (name, feature)


def test_block_variables_are_named_too():
    assert errors("kernel void k(global int *a) { int (^b)(int) = ^(int x) { return x; }; a[0] = b(1); }") == [
        "'^': blocks (device-side enqueue) are not supported by loomcl yet",
        "'^': blocks (device-side enqueue) are not supported by loomcl yet"]


def test_static_function_scope_variables_are_refused_rather_than_made_private():
    log = compile_log("kernel void k(global int *a) {\n    static int calls = 0;\n    a[0] = ++calls;\n}")
    assert log == ("t.cl:2:5: error: variables in function scope cannot be declared static\n"
                   "    static int calls = 0;\n"
                   "    ^")
    compile_ok("static int twice(int x) { return 2 * x; }\nkernel void k(global int *a) { a[0] = twice(1); }")


def test_variadic_functions_are_refused_as_clang_does():
    assert errors("int f(int x, ...) { return x; }\nkernel void k(global int *a) { a[0] = f(1); }") == [
        "invalid prototype, variadic arguments are not allowed in OpenCL"]
