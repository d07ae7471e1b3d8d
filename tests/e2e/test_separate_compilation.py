"""Separate compilation (clCompileProgram, clLinkProgram through pyopencl's Program.compile and
link_program): functions resolved across units, static helpers kept apart, libraries, binaries of
every type, program info along the way, and the errors of each step."""
import numpy as np
import pytest

import loomcl as cl

USER = r"""
float scale(float x);                       /* defined in LIBRARY */
void smooth(__local float *tile, __global float *a);
static float helper(float x) { return x + 1.0f; }
__constant float offset[2] = {0.5f, 0.25f};
__kernel void apply(__global float *a) {
    int i = get_global_id(0);
    a[i] = scale(helper(a[i])) + offset[i & 1];
}
__kernel void smoothed(__global float *a, __local float *tile) { smooth(tile, a); }
"""
LIBRARY = r"""
static float helper(float x) { return x * 3.0f; }       /* the same name as USER's: no clash */
static __constant float offset[2] = {100.0f, 200.0f};   /* likewise (a static is the unit's own) */
float scale(float x) { return helper(x) * 2.0f + offset[0]; }
void smooth(__local float *tile, __global float *a) {   /* a barrier in another unit */
    size_t l = get_local_id(0), n = get_local_size(0), g = get_global_id(0);
    tile[l] = a[g];
    barrier(CLK_LOCAL_MEM_FENCE);
    a[g] = tile[l] + tile[(l + 1) % n];
}
"""


def expected_apply(a):
    return ((a + 1) * 3 * 2 + 100) + np.where(np.arange(a.size) % 2, 0.25, 0.5).astype(np.float32)


def expected_smooth(a, local):
    tiles = a.reshape(-1, local)
    return (tiles + np.roll(tiles, -1, axis=1)).ravel()


def run(queue, prg, name, a, local=None, *extra):
    buf = cl.Buffer(queue.context, cl.mem_flags.READ_WRITE | cl.mem_flags.COPY_HOST_PTR, hostbuf=a)
    getattr(prg, name)(queue, a.shape, local, buf, *extra)
    out = np.empty_like(a)
    cl.enqueue_copy(queue, out, buf)
    queue.finish()
    return out


@pytest.fixture
def data():
    return np.random.default_rng(7).random(256).astype(np.float32)


@pytest.fixture
def objects(ctx):
    return cl.Program(ctx, USER).compile(), cl.Program(ctx, LIBRARY).compile()


def build_type(prg):
    return prg.get_build_info(prg.context.devices[0], cl.program_build_info.BINARY_TYPE)


def test_compile_and_link_two_units(ctx, queue, objects, data):
    user, library = objects
    assert build_type(user) == build_type(library) == cl.program_binary_type.COMPILED_OBJECT
    prg = cl.link_program(ctx, [user, library])
    assert build_type(prg) == cl.program_binary_type.EXECUTABLE
    assert prg.get_build_info(ctx.devices[0], cl.program_build_info.STATUS) == cl.build_status.SUCCESS
    assert prg.num_kernels == 2 and sorted(prg.kernel_names.split(";")) == ["apply", "smoothed"]
    np.testing.assert_allclose(run(queue, prg, "apply", data), expected_apply(data), rtol=1e-6)
    out = run(queue, prg, "smoothed", data, (64,), cl.LocalMemory(64 * 4))
    np.testing.assert_allclose(out, expected_smooth(data, 64), rtol=1e-6)


def test_units_link_in_either_order_and_through_program_link(ctx, queue, objects, data):
    user, library = objects
    prg = cl.Program.link(ctx, [library, user])
    np.testing.assert_allclose(run(queue, prg, "apply", data), expected_apply(data), rtol=1e-6)


def test_header_programs_are_included_by_name(ctx, queue, data):
    header = cl.Program(ctx, "#define FACTOR 3.0f\nfloat triple(float x);\n")
    user = cl.Program(ctx, '#include "tools/triple.h"\n'
                           "__kernel void k(__global float *a) { int i = get_global_id(0); a[i] = triple(a[i]); }")
    user.compile(headers=[("tools/triple.h", header)])
    tools = cl.Program(ctx, '#include "triple.h"\nfloat triple(float x) { return FACTOR * x; }')
    tools.compile(options="-D UNUSED=1", headers=[("triple.h", header)])
    prg = cl.link_program(ctx, [user, tools])
    np.testing.assert_allclose(run(queue, prg, "k", data), 3 * data, rtol=1e-6)


def test_a_library_links_later_and_has_no_kernels(ctx, queue, objects, data):
    user, library = objects
    lib = cl.link_program(ctx, [library], options="-create-library -enable-link-options")
    assert build_type(lib) == cl.program_binary_type.LIBRARY
    with pytest.raises(cl.LogicError, match="INVALID_PROGRAM_EXECUTABLE.*is a library"):
        lib.kernel_names
    prg = cl.link_program(ctx, [user, lib], options=["-cl-fast-relaxed-math"])
    assert prg.get_build_info(ctx.devices[0], cl.program_build_info.OPTIONS) == "-cl-fast-relaxed-math"
    np.testing.assert_allclose(run(queue, prg, "apply", data), expected_apply(data), rtol=1e-5)


def test_binaries_of_objects_libraries_and_executables_round_trip(ctx, queue, objects, data):
    user, library = objects
    devices = ctx.devices
    user_again = cl.Program(ctx, devices, user.binaries)
    assert build_type(user_again) == cl.program_binary_type.COMPILED_OBJECT
    lib = cl.link_program(ctx, [library], options="-create-library")
    lib_again = cl.Program(ctx, devices, lib.binaries)
    assert build_type(lib_again) == cl.program_binary_type.LIBRARY
    prg = cl.link_program(ctx, [user_again, lib_again])
    np.testing.assert_allclose(run(queue, prg, "apply", data), expected_apply(data), rtol=1e-6)
    exe_again = cl.Program(ctx, devices, prg.binaries).build()
    assert exe_again.binaries == prg.binaries
    np.testing.assert_allclose(run(queue, exe_again, "apply", data), expected_apply(data), rtol=1e-6)
    sizes = prg.get_info(cl.program_info.BINARY_SIZES)
    assert sizes == [len(b) for b in prg.get_info(cl.program_info.BINARIES)] and sizes[0] > 0


def test_building_a_compiled_objects_binary_makes_an_executable(ctx, queue, data):
    whole = cl.Program(ctx, "static float h(float x) { return -x; }\n"
                            "__kernel void k(__global float *a) { a[get_global_id(0)] = h(a[get_global_id(0)]); }")
    prg = cl.Program(ctx, ctx.devices, whole.compile().binaries).build()
    assert build_type(prg) == cl.program_binary_type.EXECUTABLE
    np.testing.assert_array_equal(run(queue, prg, "k", data), -data)


def test_program_info_follows_the_steps(ctx, objects):
    device = ctx.devices[0]
    fresh = cl.Program(ctx, USER)
    assert build_type(fresh) == cl.program_binary_type.NONE and fresh.binaries == [b""]
    assert fresh.get_build_info(device, cl.program_build_info.STATUS) == cl.build_status.NONE
    user, _ = objects
    assert user.get_build_info(device, cl.program_build_info.GLOBAL_VARIABLE_TOTAL_SIZE) == 0
    with pytest.raises(cl.LogicError, match="INVALID_PROGRAM_EXECUTABLE.*compiled object"):
        user.get_info(cl.program_info.NUM_KERNELS)
    with pytest.raises(cl.LogicError, match="INVALID_PROGRAM_EXECUTABLE"):
        user.apply


def test_an_undefined_function_fails_the_link_naming_it(ctx, objects):
    user, _ = objects
    with pytest.raises(cl.RuntimeError, match="LINK_PROGRAM_FAILURE") as info:
        cl.link_program(ctx, [user])
    assert "undefined function 'scale'" in str(info.value)
    failed = info.value.program
    assert failed.get_build_info(ctx.devices[0], cl.program_build_info.STATUS) == cl.build_status.ERROR
    log = failed.get_build_info(ctx.devices[0], cl.program_build_info.LOG)
    assert "undefined function 'scale'" in log and "'smooth'" in log


def test_duplicate_and_conflicting_definitions_fail_the_link(ctx, objects):
    _, library = objects
    again = cl.Program(ctx, LIBRARY).compile()
    with pytest.raises(cl.RuntimeError, match="duplicate symbol 'scale': defined in unit 0 and in unit 1"):
        cl.link_program(ctx, [library, again])
    caller = cl.Program(ctx, "double scale(double x);\n"
                             "__kernel void k(__global double *a) { a[0] = scale(a[0]); }").compile()
    with pytest.raises(cl.RuntimeError, match=r"conflicting types for 'scale'.*f64 \(f64\).*f32 \(f32\)"):
        cl.link_program(ctx, [caller, library])


def test_a_compile_error_is_compile_program_failure_with_the_diagnostics(ctx):
    prg = cl.Program(ctx, "float f(float x) { return x +; }")
    with pytest.raises(cl.RuntimeError, match="COMPILE_PROGRAM_FAILURE") as info:
        prg.compile()
    log = prg.get_build_info(ctx.devices[0], cl.program_build_info.LOG)
    assert "1:30: error: expected expression" in log and "^" in log and log in str(info.value)
    assert prg.get_build_info(ctx.devices[0], cl.program_build_info.STATUS) == cl.build_status.ERROR
    assert build_type(prg) == cl.program_binary_type.NONE


def test_undefined_functions_are_still_an_error_of_build_and_of_static_declarations(ctx):
    with pytest.raises(cl.RuntimeError, match="(?s)BUILD_PROGRAM_FAILURE.*'g' is declared but never defined"):
        cl.Program(ctx, "float g(float);\n__kernel void k(__global float *a) { a[0] = g(1); }").build()
    with pytest.raises(cl.RuntimeError, match="(?s)COMPILE_PROGRAM_FAILURE.*static function 'g' is used but never"):
        cl.Program(ctx, "static float g(float);\n__kernel void k(__global float *a) { a[0] = g(1); }").compile()


@pytest.mark.parametrize(("options", "code", "message"), [
    ("-cl-bogus", "INVALID_COMPILER_OPTIONS", "unknown build option: '-cl-bogus'"),
])
def test_bad_compile_options(ctx, options, code, message):
    with pytest.raises(cl.LogicError, match=f"{code}.*{message}"):
        cl.Program(ctx, "float f(float x) { return x; }").compile(options=options)


@pytest.mark.parametrize(("routine", "code"), [("compile", "COMPILE_PROGRAM_FAILURE"),
                                               ("build", "BUILD_PROGRAM_FAILURE")])
def test_an_opencl_c_version_the_device_lacks_fails_to_compile(ctx, routine, code):
    """-cl-std=CL2.0 is a valid option; on a device without OpenCL C 2.0 the program "will fail to
    compile" (API spec 5.8.6.5), with the reason in the build log."""
    prg = cl.Program(ctx, "float f(float x) { return x; }")
    with pytest.raises(cl.RuntimeError, match=f"{code}"):
        getattr(prg, routine)(options="-cl-std=CL2.0")
    assert prg.get_build_info(ctx.devices[0], cl.program_build_info.STATUS) == cl.build_status.ERROR
    assert "does not support OpenCL C 2.0" in prg.get_build_info(ctx.devices[0], cl.program_build_info.LOG)


@pytest.mark.parametrize(("options", "message"), [
    ("-D N=1", "not a link option .*: '-D'"),
    ("-enable-link-options", "allowed only with -create-library"),
])
def test_bad_link_options(ctx, objects, options, message):
    with pytest.raises(cl.LogicError, match=f"INVALID_LINKER_OPTIONS.*{message}"):
        cl.link_program(ctx, list(objects), options=options)


def test_only_compiled_programs_link_and_only_source_programs_compile(ctx, objects):
    built = cl.Program(ctx, LIBRARY + "__kernel void k() {}").build()
    with pytest.raises(cl.LogicError, match=r"INVALID_OPERATION.*programs\[1\] is not a compiled object"):
        cl.link_program(ctx, [objects[0], built])
    with pytest.raises(cl.LogicError, match="INVALID_VALUE.*no programs"):
        cl.link_program(ctx, [])
    from_binary = cl.Program(ctx, ctx.devices, objects[1].binaries)
    with pytest.raises(cl.LogicError, match="INVALID_OPERATION.*only a program made from source"):
        from_binary.compile()
    with pytest.raises(cl.LogicError, match=r"INVALID_VALUE.*headers\[0\]"):
        cl.Program(ctx, LIBRARY).compile(headers=[("a.h", "not a program")])


def test_kernels_cannot_be_static(ctx):
    with pytest.raises(cl.RuntimeError, match="kernel functions cannot be declared static"):
        cl.Program(ctx, "static __kernel void k() {}").compile()


def test_link_math_options_hold_only_where_every_unit_allows_them():
    from loomcl.driver import compiler

    relaxed = compiler.compile_unit("float f(float x) { return x; }", "-cl-fast-relaxed-math")
    mad = compiler.compile_unit("float g(float x) { return x; }", "-cl-mad-enable")
    strict_library = compiler.compile_unit("float h(float x) { return x; }")
    strict_library.takes_link_options = False
    from loomcl.frontend import parse_link_options

    link_math = parse_link_options("-cl-no-signed-zeros").math
    options = compiler.linked_options(relaxed.options, [relaxed, mad], link_math)
    assert options.fast_math_flags == ("nsz", "contract")
    assert compiler.linked_options(relaxed.options, [relaxed, strict_library], link_math).fast_math_flags == ()


def test_pyopencls_compile_link_test(ctx, queue):
    """pyopencl's test_compile_link: a header program (itself compiled) with an inline function, a
    function declared in one unit and defined in another."""
    vsink = cl.Program(ctx, "void value_sink(float x) {}").compile()
    pi_h = cl.Program(ctx, "inline float get_pi() { return 3.1415f; }").compile()
    main = cl.Program(ctx, '#include "pi.h"\nvoid value_sink(float x);\n'
                           "__kernel void experiment() { value_sink(get_pi() + get_global_id(0)); }")
    main.compile(headers=[("pi.h", pi_h)])
    prg = cl.link_program(ctx, [vsink, main], devices=ctx.devices)
    prg.experiment(queue, (128 ** 2,), (128,))
    queue.finish()


def test_inline_definitions_in_several_units_do_not_clash(ctx, queue, data):
    header = cl.Program(ctx, "inline float twice(float x) { return 2.0f * x; }")
    units = [cl.Program(ctx, '#include "twice.h"\n' + body).compile(headers=[("twice.h", header)]) for body in (
        "float quad(float x);\n__kernel void k(__global float *a) { int i = get_global_id(0); a[i] = quad(twice(a[i])); }",
        "float quad(float x) { return twice(twice(x)); }")]
    prg = cl.link_program(ctx, units)
    np.testing.assert_allclose(run(queue, prg, "k", data), 8 * data, rtol=1e-6)


def test_printf_formats_of_all_units_are_renumbered_into_one_table(ctx, queue, capsys):
    caller = cl.Program(ctx, 'void report(int i);\n'
                             '__kernel void k() { int i = get_global_id(0); printf("k %d\\n", i); report(i); }')
    reporter = cl.Program(ctx, 'void report(int i) { printf("report %d of %s\\n", i, "two"); }')
    prg = cl.link_program(ctx, [caller.compile(), reporter.compile()])
    prg.k(queue, (2,), (1,))
    queue.finish()
    lines = sorted(capsys.readouterr().out.splitlines())
    assert lines == ["k 0", "k 1", "report 0 of two", "report 1 of two"]


def test_an_object_binary_that_no_longer_compiles_is_invalid_binary(ctx):
    from loomcl.runtime.program_binary import ProgramBinary, UnitSource, to_binary

    broken = to_binary(ProgramBinary(cl.program_binary_type.COMPILED_OBJECT, (UnitSource("float f( {"),)))
    prg = cl.Program(ctx, ctx.devices, [broken])
    with pytest.raises(cl.LogicError, match="(?s)INVALID_BINARY.*no longer compiles.*error"):
        cl.link_program(ctx, [prg])


def test_building_a_binary_accepts_the_front_ends_options_as_pyopencl_adds_them(ctx, queue, objects, data):
    """pyopencl adds `-I its/include/dir` to every build; the units were compiled already, so only
    the options that act at link time (math options, loomcl's switches) change anything."""
    user, library = objects
    linked = cl.link_program(ctx, [user, library])
    again = cl.Program(ctx, ctx.devices, linked.binaries).build(options=["-I", "/nowhere", "-cl-no-signed-zeros"])
    assert again.get_build_info(ctx.devices[0], cl.program_build_info.OPTIONS) == "-cl-no-signed-zeros"
    np.testing.assert_allclose(run(queue, again, "apply", data), expected_apply(data), rtol=1e-6)
    with pytest.raises(cl.LogicError, match="INVALID_BUILD_OPTIONS.*-cl-bogus"):
        cl.Program(ctx, ctx.devices, user.binaries).build(options="-cl-bogus")


def test_structs_pass_between_units_and_a_different_layout_is_a_conflict(ctx, queue):
    pair = "typedef struct { int count; float weight; } Pair;\n"
    caller = cl.Program(ctx, pair + "Pair make(int i);\n__kernel void k(__global float *out) {\n"
                                    "    int i = get_global_id(0); Pair p = make(i); out[i] = p.count * p.weight; }")
    maker = cl.Program(ctx, pair + "Pair make(int i) { Pair p = {i + 1, 0.5f}; return p; }")
    prg = cl.link_program(ctx, [caller.compile(), maker.compile()])
    out = np.zeros(8, np.float32)
    np.testing.assert_array_equal(run(queue, prg, "k", out), (np.arange(8) + 1) * 0.5)
    other = cl.Program(ctx, "typedef struct { int count; double weight; } Pair;\n"
                            "Pair make(int i) { Pair p = {i, 1.0}; return p; }").compile()
    with pytest.raises(cl.RuntimeError, match="conflicting types for 'make'"):
        cl.link_program(ctx, [caller, other])


def test_recursion_through_two_units_fails_the_link(ctx):
    ping = cl.Program(ctx, "int pong(int n);\nint ping(int n) { return n ? pong(n - 1) : 0; }\n"
                           "__kernel void k(__global int *a) { a[0] = ping(a[0]); }").compile()
    pong = cl.Program(ctx, "int ping(int n);\nint pong(int n) { return ping(n); }").compile()
    with pytest.raises(cl.RuntimeError, match=r"recursive call across units: (ping -> pong -> ping|pong -> ping -> pong)"):
        cl.link_program(ctx, [ping, pong])


DEFINES = """
__kernel void copy(__global float *src, __global float *dst) { dst[get_global_id(0)] = src[get_global_id(0)]; }
constant float foo = 4.0f;
constant struct bar { float x, y, z, r; int color; } sfoo = {1.0f, 2.0f, 0.0f, 0.0f, 7};
"""
USES = """
extern constant float foo;                              /* the CTS's two_file_regular_*_access */
extern constant struct bar { float x, y, z, r; int color; } sfoo;
float access_foo() { return foo; }
struct bar access_sfoo() { return sfoo; }
__kernel void k(__global float *o) { o[0] = access_foo(); o[1] = access_sfoo().y + sfoo.color; }
"""


def test_extern_constant_variables_resolve_to_another_units_definition(ctx, queue):
    declares_only = cl.Program(ctx, "extern constant float foo;\nextern constant struct bar bart;\n").compile()  # the
    # CTS's simple_extern_compile_only: a struct the unit never defines may be declared
    linked = cl.link_program(ctx, [cl.Program(ctx, DEFINES).compile(), cl.Program(ctx, USES).compile(),
                                   declares_only])
    out = cl.Buffer(ctx, cl.mem_flags.READ_WRITE, 8)
    linked.k(queue, (1,), None, out)
    values = np.zeros(2, np.float32)
    cl.enqueue_copy(queue, values, out)
    np.testing.assert_array_equal(values, [4.0, 9.0])


@pytest.mark.parametrize(("sources", "message"), [
    ([USES], "undefined variable 'foo', declared extern in unit 0, is defined in no unit"),
    ([DEFINES, DEFINES], "duplicate symbol 'foo': defined in unit 0 and in unit 1"),
    (["extern constant int foo;\nint f() { return foo; }", DEFINES],
     "conflicting types for 'foo': unit 0 declares i32, unit 1 defines f32"),
])
def test_extern_constant_link_errors(ctx, sources, message):
    with pytest.raises(cl.RuntimeError, match=f"(?s)LINK_PROGRAM_FAILURE.*{message}"):
        cl.link_program(ctx, [cl.Program(ctx, source).compile() for source in sources])


def test_an_extern_variable_in_a_program_built_from_one_source_is_an_error(ctx):
    with pytest.raises(cl.RuntimeError, match="1:23: error: 'foo' is declared extern: a program built from one "
                                              "source must define it"):
        cl.Program(ctx, "extern constant float foo;\n__kernel void k(__global float *o) { o[0] = foo; }").build()
