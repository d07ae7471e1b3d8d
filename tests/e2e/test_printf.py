"""printf (OpenCL C 6.12.13) end to end: kernels print, the text arrives on sys.stdout after the
launch and is compared with what C's printf (glibc) prints for the same conversions."""
from __future__ import annotations

import re
from collections import Counter

import numpy as np
import pytest

import loomcl as cl
from e2e_helpers import shape

SCALARS = r"""
kernel void scalars(global const float *special) {
    printf("int %d|%5d|%-5d|%05d|%+d|% d|%.3d|%5.3d|%.0d|\n", 42, -42, 42, -42, 42, 42, 7, -7, 0);
    printf("uns %u|%o|%#o|%x|%#X|%#x|%8.4x|%-#8x|\n", 4000000000u, 8, 8, 255, 255, 0, 171, 171);
    char c = -5; uchar uc = 250; short s = -30000; ushort us = 65535;
    printf("len %hhd|%hhu|%hd|%hu|%ld|%lu|%lx|%i\n", c, uc, s, us, LONG_MIN, ULONG_MAX,
           0x123456789abcdefL, -1);
    printf("chr %c|%3c|%-3c|\n", 'A', 'b', 'c');
    printf("flt %f|%.2f|%10.3f|%-10.1f|%+.1f|%e|%.2E|%g|%g|%G|%#.3g|%a|%.2a\n", 3.25, 2.675f, -1.5,
           0.25, 2.0, 12345.6789, 0.000123, 100000.0, 1000000.0, 1e-10, 2.0, 1.0, 3.0f);
    printf("spc %f|%F|%5.1f|%-6e|%e|%+f|%05f\n", special[0], special[1], special[2], special[0],
           special[3], special[0], special[1]);
    printf("str %s|%5s|%-5s|%.2s|%%|100%%\n", "abc", "ab", "ab", "abc");
    printf("no arguments\n");
}
"""

# what glibc's printf prints for the same conversions and values
SCALARS_EXPECTED = """\
int 42|  -42|42   |-0042|+42| 42|007| -007||
uns 4000000000|10|010|ff|0XFF|0|    00ab|0xab    |
len -5|250|-30000|65535|-9223372036854775808|18446744073709551615|123456789abcdef|-1
chr A|  b|c  |
flt 3.250000|2.67|    -1.500|0.2       |+2.0|1.234568e+04|1.23E-04|100000|1e+06|1E-10|2.00|0x1p+0|0x1.80p+1
spc inf|-INF|  nan|inf   |-nan|+inf| -inf
str abc|   ab|ab   |ab|%|100%
no arguments
"""


def _special() -> np.ndarray:
    return np.array([np.inf, -np.inf, np.nan, np.copysign(np.nan, -1.0)], np.float32)


def test_scalar_conversions_print_as_c_does(run_kernel, capsys):
    run_kernel(SCALARS, "scalars", (1,), (1,), _special())
    assert capsys.readouterr().out == SCALARS_EXPECTED


VECTORS = r"""
kernel void vectors(void) {
    float4 f = (float4)(1.0f, -2.5f, 0.125f, 3.0f);
    int2 i = (int2)(255, -1);
    uchar4 u = (uchar4)(0xFA, 0xFB, 0xFC, 0xFD);
    short8 s = (short8)(-1, 2, -3, 4, -5, 6, -7, 8);
    long2 l = (long2)(600000000000L, -600000000000L);
    double2 d = (double2)(0.1, 1e100);
    char3 c = (char3)(-128, 0, 127);
    uint16 w = (uint16)(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
    printf("f4 = %2.2v4hlf\n", f);
    printf("i2 = %v2hlx %v2hld\n", i, i);
    printf("uc = %#v4hhx\n", u);
    printf("s8 = %+v8hd\n", s);
    printf("l2 = %v2ld\n", l);
    printf("d2 = %v2lg %.3v2le\n", d, d);
    printf("c3 = %v3hhd\n", c);
    printf("w16 = %v16hlu\n", w);
    printf("f4 = %-6.1v4hlf|\n", f);
}
"""

VECTORS_EXPECTED = """\
f4 = 1.00,-2.50,0.12,3.00
i2 = ff,ffffffff 255,-1
uc = 0xfa,0xfb,0xfc,0xfd
s8 = -1,+2,-3,+4,-5,+6,-7,+8
l2 = 600000000000,-600000000000
d2 = 0.1,1e+100 1.000e-01,1.000e+100
c3 = -128,0,127
w16 = 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15
f4 = 1.0   ,-2.5  ,0.1   ,3.0   |
"""


def test_vector_conversions_print_every_lane(run_kernel, capsys):
    run_kernel(VECTORS, "vectors", (1,), (1,))
    assert capsys.readouterr().out == VECTORS_EXPECTED


def test_vector_specifier_without_length_takes_the_lane_type_of_its_argument(ctx, queue, capsys):
    src = 'kernel void k(void) { printf("%v4f|%v2d\\n", (float4)(1, 2, 3, 4), (int2)(5, 6)); }'
    prg = cl.Program(ctx, src).build()
    log = prg.get_build_info(ctx.devices[0], cl.program_build_info.LOG)
    assert "warning: a vector specifier needs a length modifier (hh, h, hl or l) in OpenCL C; " \
           "'%v4hlf' prints a 'float4'" in log
    prg.k(queue, (1,), (1,)).wait()
    assert capsys.readouterr().out == "1.000000,2.000000,3.000000,4.000000|5,6\n"


def test_pointers_print_in_hex_and_null_as_nil(run_kernel, capsys):
    src = r"""kernel void k(global int *p) {
        printf("%p|%p|%20p|\n", p, p + 1, (global int *)0);
    }"""
    run_kernel(src, "k", (1,), (1,), np.zeros(4, np.int32))
    out = capsys.readouterr().out
    match = re.fullmatch(r"0x([0-9a-f]+)\|0x([0-9a-f]+)\|( *)\(nil\)\|\n", out)
    assert match, out
    assert int(match.group(2), 16) - int(match.group(1), 16) == 4
    assert len(match.group(3)) == 20 - len("(nil)")


def test_every_line_of_every_work_item_appears_once_and_whole(run_kernel, capsys):
    src = r"""kernel void k(void) {
        size_t g = get_global_id(0);
        printf("item %d of group %d: first\n", (int)g, (int)get_group_id(0));
        printf("item %d: second, %v4hld\n", (int)g, (int4)((int)g, 1, 2, 3));
    }"""
    run_kernel(src, "k", (4096,), (64,))
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 2 * 4096
    expected = [f"item {g} of group {g // 64}: first" for g in range(4096)] + \
               [f"item {g}: second, {g},1,2,3" for g in range(4096)]
    assert Counter(lines) == Counter(expected)
    position = {line: n for n, line in enumerate(lines)}
    for g in range(0, 4096, 7):  # a work-item's own calls stay in program order
        assert position[f"item {g} of group {g // 64}: first"] < position[f"item {g}: second, {g},1,2,3"]


def test_every_region_of_a_ragged_ndrange_prints(run_kernel, capsys, variant):
    global_size, local_size = shape(variant, (96, 4), (32, 2), (100, 5))
    src = r"""kernel void k(void) {
        printf("%d,%d\n", (int)get_global_id(0), (int)get_global_id(1));
    }"""
    run_kernel(src, "k", global_size, local_size)
    lines = capsys.readouterr().out.splitlines()
    assert Counter(lines) == Counter(f"{x},{y}" for x in range(global_size[0]) for y in range(global_size[1]))


def test_printf_in_a_loop_and_across_barriers(run_kernel, capsys):
    src = r"""kernel void k(global int *out) {
        int lid = get_local_id(0), group = get_group_id(0);
        for (int i = 0; i < lid % 3; i++)
            printf("g%d l%d loop %d\n", group, lid, i);
        barrier(CLK_LOCAL_MEM_FENCE);
        out[get_global_id(0)] = printf("g%d l%d after barrier\n", group, lid);
        barrier(CLK_LOCAL_MEM_FENCE);
        if (lid == 0)
            printf("g%d done\n", group);
    }"""
    out, = run_kernel(src, "k", (48,), (16,), np.full(48, 7, np.int32))
    assert (out == 0).all()
    lines = capsys.readouterr().out.splitlines()
    expected = [f"g{g} l{l} loop {i}" for g in range(3) for l in range(16) for i in range(l % 3)]
    expected += [f"g{g} l{l} after barrier" for g in range(3) for l in range(16)]
    expected += [f"g{g} done" for g in range(3)]
    assert Counter(lines) == Counter(expected)
    for g in range(3):  # a barrier orders the calls of a work-group
        mine = [n for n, line in enumerate(lines) if line.startswith(f"g{g} ")]
        phases = [0 if "loop" in lines[n] else 1 if "after" in lines[n] else 2 for n in mine]
        assert phases == sorted(phases)


def test_invariant_printf_in_loops_is_neither_hoisted_nor_merged(run_kernel, capsys):
    src = r"""kernel void k(int n) {
        for (int i = 0; i < n; i++) {            // a uniform loop with a barrier: kept as a loop
            printf("same\n");                  //   around the work-item loops
            printf("round %d\n", i);
            barrier(CLK_LOCAL_MEM_FENCE);
        }
        for (int i = 0; i < 2; i++)
            printf("again\n");
    }"""
    run_kernel(src, "k", (8,), (4,), np.int32(3))
    lines = capsys.readouterr().out.splitlines()
    assert Counter(lines) == Counter(["same"] * 24 + [f"round {i}" for i in range(3)] * 8 + ["again"] * 16)


def test_printf_in_a_helper_function_and_its_value(run_kernel, capsys):
    src = r"""
    int report(int x) { return printf("x=%d\n", x) + 10; }
    kernel void k(global int *out) { out[get_global_id(0)] = report(get_global_id(0) * 3); }
    """
    out, = run_kernel(src, "k", (4,), (2,), np.zeros(4, np.int32))
    assert list(out) == [10] * 4
    assert sorted(capsys.readouterr().out.splitlines()) == ["x=0", "x=3", "x=6", "x=9"]


def test_output_of_each_launch_comes_before_the_next_launch(ctx, queue, capsys):
    prg = cl.Program(ctx, r'kernel void k(int n) { printf("launch %d\n", n); }').build()
    for n in range(3):
        prg.k(queue, (2,), (1,), np.int32(n)).wait()
    assert capsys.readouterr().out == "launch 0\nlaunch 0\nlaunch 1\nlaunch 1\nlaunch 2\nlaunch 2\n"


def test_a_kernel_without_printf_prints_nothing(run_kernel, capsys):
    run_kernel("kernel void k(global int *a) { a[0] = 1; }", "k", (1,), (1,), np.zeros(1, np.int32))
    assert capsys.readouterr() == ("", "")


def test_utf8_in_the_format_prints_as_itself(run_kernel, capsys):
    run_kernel('kernel void k(void) { printf("π ≈ %.4f %s\\n", M_PI, "✓"); }', "k", (1,), (1,))
    assert capsys.readouterr().out == "π ≈ 3.1416 ✓\n"


OVERFLOW = r"""kernel void k(global int *status) {
    int g = get_global_id(0);
    status[g] = printf("%d\n", g);
}"""


def test_a_full_buffer_drops_whole_calls_says_so_and_grows(ctx, queue, capsys):
    n = 100_000  # records of 16 bytes: 65536 fit in the 1 MiB buffer
    assert ctx.devices[0].printf_buffer_size == 1 << 20
    prg = cl.Program(ctx, OVERFLOW).build()
    status = cl.Buffer(ctx, cl.mem_flags.READ_WRITE, 4 * n)
    prg.k(queue, (n,), (100,), status)
    result = np.empty(n, np.int32)
    cl.enqueue_copy(queue, result, status)
    captured = capsys.readouterr()
    printed = [int(line) for line in captured.out.splitlines()]
    assert len(printed) == len(set(printed)) == 65536
    assert sorted(printed) == sorted(np.flatnonzero(result == 0).tolist())
    assert (result[result != 0] == -1).all() and (result == -1).sum() == n - 65536
    assert captured.err == (f"loomcl: the printf buffer of kernel 'k' ({1 << 20} bytes) was full: "
                            f"{n - 65536} of {n} printf calls printed nothing and returned -1; "
                            f"later launches get {2 << 20} bytes\n")
    prg.k(queue, (n,), (100,), status)  # the same kernel object: its buffer has grown
    cl.enqueue_copy(queue, result, status)
    captured = capsys.readouterr()
    assert (result == 0).all() and captured.err == ""
    assert sorted(map(int, captured.out.splitlines())) == list(range(n))


SAMPLE = r"""
// In the style of the SDK samples' printf kernel (AMD BasicDebug, NVIDIA oclPrintf): one work-item
// shows vector data it read, the first work-item of each group shows data shared through local
// memory, and every work-item reports its ids.
__kernel void printfKernel(__global const float *input, __local int *data)
{
    uint globalID = get_global_id(0);
    uint groupID = get_group_id(0);
    uint localID = get_local_id(0);
    if (globalID == 10) {
        float4 f = vload4(0, input);
        printf("Output vector data: f4 = %2.2v4hlf\n", f);
    }
    data[localID] = localID * 2;
    barrier(CLK_LOCAL_MEM_FENCE);
    if (localID == 0) {
        printf("\tThis is group %u\n", groupID);
        printf("\tOutput LDS data: %d\n", data[get_local_size(0) - 1]);
    }
    printf("the global ID of this thread is : %u\n", globalID);
}
"""


def test_the_sdk_style_printf_kernel(run_kernel, capsys):
    run_kernel(SAMPLE, "printfKernel", (64,), (16,), np.array([1.5, 2.25, -3.0, 4.125], np.float32),
               cl.LocalMemory(16 * 4))
    lines = capsys.readouterr().out.splitlines()
    expected = ["Output vector data: f4 = 1.50,2.25,-3.00,4.12"]
    expected += [f"\tThis is group {g}" for g in range(4)] + ["\tOutput LDS data: 30"] * 4
    expected += [f"the global ID of this thread is : {g}" for g in range(64)]
    assert Counter(lines) == Counter(expected)


@pytest.mark.parametrize("call, message, caret", [
    ('printf("%d %d\\n", n)', "error: more '%' conversions than data arguments ('%d' has none)", 16),
    ('printf("%v2hlf\\n", v)', "error: format '%v2hlf' specifies type 'float2' but the argument has "
     "type 'float4'; the vector specifier 'v2' needs 2 lanes, the argument has 4", 13),
    ('printf("%v4hld\\n", v)', "error: format '%v4hld' specifies type 'int4' but the argument has type "
     "'float4'", 13),
    ('printf("%f\\n", n)', "error: format '%f' specifies type 'double' but the argument has type 'int'", 13),
    ('printf("%d\\n", v)', "error: format '%d' specifies type 'int' but the argument has type 'float4'; "
     "a vector specifier such as '%v4hlf' prints a 'float4'", 13),
    ('printf("%s\\n", p)', "error: the argument of '%s' must be a string literal (OpenCL C 6.12.13.2)", 20),
    ('printf("ab%y\\n", n)', "error: invalid conversion specifier 'y'", 16),
    ('printf("%*d\\n", n, n)', "error: '*' for a field width or precision is not allowed in OpenCL C", 14),
    ('printf("%hlf\\n", 1.0f)', "error: length modifier 'hl' is only allowed with a vector specifier", 14),
    ('printf("%v5hld\\n", v)', "error: invalid vector specifier 'v5': the lane count must be 2, 3, 4, 8 "
     "or 16", 14),
    ('printf("%lc\\n", n)', "error: length modifier 'l' cannot be used with the 'c' conversion", 14),
    ('printf("%5%\\n")', "error: '%%' takes no flags, width, precision or length modifier", 13),
    ('printf("%lld\\n", n)', "error: length modifier 'll' is not supported in OpenCL C", 14),
    ('printf("%v4s\\n", v)', "error: a vector specifier cannot be used with the 's' conversion", 16),
    ('printf("50%")', "error: incomplete conversion specifier at the end of the format", 15),
    ("printf(p)", "error: the format of printf must be a string literal (OpenCL C 6.12.13.2)", 12),
    ('printf("\\t%d\\n")', "error: more '%' conversions than data arguments ('%d' has none)", 15),
])
def test_format_errors_point_into_the_format(ctx, call, message, caret):
    src = f"kernel void k(global char *p, int n) {{\n    float4 v = 0;\n    {call};\n}}\n"
    with pytest.raises(cl.RuntimeError) as info:
        cl.Program(ctx, src).build()
    log = str(info.value)
    assert f"<kernel>:3:{caret}: {message}\n    {call};\n" + " " * (caret - 1) + "^" in log, log


def test_width_mismatches_and_unused_arguments_are_warnings(ctx, queue, capsys):
    src = 'kernel void k(long l) { printf("%d|%ld\\n", l, 7, 8); }'
    prg = cl.Program(ctx, src).build()
    log = prg.get_build_info(ctx.devices[0], cl.program_build_info.LOG)
    assert "warning: format '%d' specifies type 'int' but the argument has type 'long'" in log
    assert "warning: format '%ld' specifies type 'long' but the argument has type 'int'" in log
    assert "warning: data argument not used by format string" in log
    prg.k(queue, (1,), (1,), np.int64((1 << 32) + 5)).wait()  # printed when the launch completes
    assert capsys.readouterr().out == "5|7\n"


def test_a_launch_that_fails_still_prints_what_ran(ctx, queue, capsys, monkeypatch):
    prg = cl.Program(ctx, r'kernel void k(void) { printf("before the failure\n"); }').build()
    kernel = prg.k
    launcher = kernel._launcher
    run = launcher._run

    def run_then_fail(*args):  # stands for a kernel fault after some work-groups ran
        run(*args)
        raise OSError("launch failed")

    monkeypatch.setattr(launcher, "_run", run_then_fail)
    event = kernel(queue, (2,), (1,))
    with pytest.raises(OSError):
        event.wait()
    assert capsys.readouterr().out == "before the failure\n" * 2
