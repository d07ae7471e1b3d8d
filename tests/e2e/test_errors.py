"""Bad input gets a clear error: the pyopencl exception class, the OpenCL status, and a message
that names the offending argument, size, option or source line."""
from __future__ import annotations

import numpy as np
import pytest

import loomcl as cl
from e2e_helpers import build

SRC = """
__kernel void k(__global int *a, uchar c, float f) {
    a[get_global_id(0)] = c + (int)f;
}

__kernel __attribute__((reqd_work_group_size(8, 1, 1))) void fixed(__global int *a) {
    a[get_global_id(0)] = 1;
}
"""


@pytest.fixture
def prg(ctx):
    return build(ctx, SRC)


@pytest.fixture
def buf(ctx):
    return cl.Buffer(ctx, cl.mem_flags.READ_WRITE, 4096)


def raises(exc_type, status, *needles):
    """Context manager: `exc_type` with `.code == status`, whose text names the status and `needles`."""

    class Check:
        def __enter__(self):
            self.info = pytest.raises(exc_type)
            self.excinfo = self.info.__enter__()
            return self.excinfo

        def __exit__(self, *exc):
            suppressed = self.info.__exit__(*exc)
            err = self.excinfo.value
            text = str(err)
            name = cl.status_code.to_string(status)
            assert err.code == status, f"status {err.code} ({cl.status_code.to_string(err.code, '%d')}), want {name}"
            assert name in text, f"message does not name {name}: {text}"
            for needle in needles:
                assert needle in text, f"message does not name {needle!r}: {text}"
            return suppressed

    return Check()


def test_wrong_number_of_arguments(prg, queue, buf):
    with raises(cl.LogicError, cl.status_code.INVALID_KERNEL_ARGS, "'k'", "3", "got 1"):
        prg.k(queue, (4,), None, buf)


def test_number_where_buffer_expected(prg, queue):
    with raises(cl.LogicError, cl.status_code.INVALID_ARG_VALUE, "argument 0", "'a'", "Buffer"):
        prg.k(queue, (4,), None, 5, np.uint8(1), np.float32(1))


def test_numpy_array_where_buffer_expected(prg, queue):
    with raises(cl.LogicError, cl.status_code.INVALID_ARG_VALUE, "argument 0", "Buffer"):
        prg.k(queue, (4,), None, np.zeros(4, np.int32), np.uint8(1), np.float32(1))


def test_zero_global_size(prg, queue, buf):
    with raises(cl.LogicError, cl.status_code.INVALID_GLOBAL_WORK_SIZE, "(0,)"):
        prg.k(queue, (0,), None, buf, np.uint8(1), np.float32(1))


def test_local_size_above_device_maximum(ctx, prg, queue, buf):
    limit = ctx.devices[0].max_work_group_size
    big = 2 * limit
    with raises(cl.LogicError, cl.status_code.INVALID_WORK_GROUP_SIZE, str(big), str(limit)):
        prg.k(queue, (big,), (big,), buf, np.uint8(1), np.float32(1))


def test_local_size_against_reqd_work_group_size(prg, queue, buf):
    with raises(cl.LogicError, cl.status_code.INVALID_WORK_GROUP_SIZE, "(4,)", "reqd_work_group_size", "8"):
        prg.fixed(queue, (16,), (4,), buf)


def test_reqd_work_group_size_is_used_for_none(prg, queue, ctx):
    """Not an error: local_size=None picks the required size, and the kernel runs."""
    out = np.zeros(16, np.int32)
    b = cl.Buffer(ctx, cl.mem_flags.READ_WRITE | cl.mem_flags.COPY_HOST_PTR, hostbuf=out)
    prg.fixed(queue, (16,), None, b)
    cl.enqueue_copy(queue, out, b)
    np.testing.assert_array_equal(out, 1)


def test_buffer_larger_than_hostbuf(ctx):
    host = np.zeros(4, np.int32)
    with raises(cl.LogicError, cl.status_code.INVALID_BUFFER_SIZE, "128", "16"):
        cl.Buffer(ctx, cl.mem_flags.READ_WRITE | cl.mem_flags.COPY_HOST_PTR, size=128, hostbuf=host)


def test_host_array_larger_than_buffer(ctx, queue):
    b = cl.Buffer(ctx, cl.mem_flags.READ_WRITE, 64)
    with raises(cl.LogicError, cl.status_code.INVALID_VALUE, "400", "64"):
        cl.enqueue_copy(queue, b, np.zeros(100, np.int32))


def test_unknown_kernel_name(prg):
    with raises(cl.LogicError, cl.status_code.INVALID_KERNEL_NAME, "nope"):
        prg.nope
    with raises(cl.LogicError, cl.status_code.INVALID_KERNEL_NAME, "nope"):
        cl.Kernel(prg, "nope")


def test_bad_build_option(ctx):
    with raises(cl.LogicError, cl.status_code.INVALID_BUILD_OPTIONS, "-Q"):
        cl.Program(ctx, SRC).build(options="-Q")


def test_syntax_error_build_log(ctx):
    src = "__kernel void k(__global int *a) {\n    a[0] = 1 +;\n}\n"
    prg = cl.Program(ctx, src)
    with raises(cl.RuntimeError, cl.status_code.BUILD_PROGRAM_FAILURE) as info:
        prg.build()
    text = str(info.value)
    lines = text.splitlines()
    where = [i for i, line in enumerate(lines) if ":2:" in line and "error" in line]
    assert where, f"no file:line:col diagnostic for line 2:\n{text}"
    head = lines[where[0]]
    column = head.split(":2:")[1].split(":")[0]
    assert column.isdigit(), head
    source_line = lines[where[0] + 1]
    caret_line = lines[where[0] + 2]
    assert "a[0] = 1 +;" in source_line, text
    assert caret_line.strip().startswith("^"), text
    # the caret sits under column `column` of the echoed line ("a[0]" starts at column 5)
    assert caret_line.index("^") == source_line.index("a[0]") + int(column) - 5, text
    log = prg.get_build_info(ctx.devices[0], cl.program_build_info.LOG)
    assert head in log and "^" in log
    assert prg.get_build_info(ctx.devices[0], cl.program_build_info.STATUS) == cl.build_status.ERROR


def test_semantic_error_names_identifier(ctx):
    src = "__kernel void k(__global int *a) {\n    a[0] = undeclared_thing;\n}\n"
    with raises(cl.RuntimeError, cl.status_code.BUILD_PROGRAM_FAILURE, ":2:", "undeclared_thing"):
        cl.Program(ctx, src).build()


@pytest.mark.parametrize("index,value,needle", [
    (1, 300, "uchar"),
    (1, -1, "uchar"),
    (1, 1.5, "uchar"),
    (2, 1e300, "float"),
    (2, "x", "float"),
])
def test_scalar_that_does_not_fit(prg, queue, buf, index, value, needle):
    args = [buf, np.uint8(1), np.float32(1)]
    args[index] = value
    with raises(cl.LogicError, cl.status_code.INVALID_ARG_VALUE, f"argument {index}", needle):
        prg.k(queue, (4,), None, *args)


def test_kernel_usable_after_argument_error(ctx, prg, queue):
    out = np.zeros(8, np.int32)
    b = cl.Buffer(ctx, cl.mem_flags.READ_WRITE | cl.mem_flags.COPY_HOST_PTR, hostbuf=out)
    with pytest.raises(cl.LogicError):
        prg.k(queue, (8,), None, b, 256, np.float32(1))
    prg.k(queue, (8,), None, b, np.uint8(250), np.float32(4.9))
    cl.enqueue_copy(queue, out, b)
    np.testing.assert_array_equal(out, 254)


def test_deeply_nested_source_builds_or_fails_cleanly(ctx, queue):
    """Generated kernels nest deep (a sum of thousands of terms): the build must not die of Python's
    recursion limit."""
    terms = "+".join(["x"] * 3000)
    parens = "(" * 400 + "x" + ")" * 400
    src = f"kernel void k(global int *a) {{ int x = a[0]; a[0] = {terms}; a[1] = {parens}; }}"
    prg = cl.Program(ctx, src).build()
    buf = cl.Buffer(ctx, cl.mem_flags.READ_WRITE | cl.mem_flags.COPY_HOST_PTR, hostbuf=np.array([2, 0], np.int32))
    prg.k(queue, (1,), (1,), buf)
    out = np.empty(2, np.int32)
    cl.enqueue_copy(queue, out, buf)
    assert list(out) == [6000, 2]


def test_integer_division_by_zero_does_not_kill_the_process(ctx, queue):
    """OpenCL leaves x / 0 and INT_MIN / -1 undefined, not trapping; x86's idiv would raise SIGFPE."""
    src = """kernel void k(global int *a, global uint *u, int d, uint e) {
        int i = get_global_id(0);
        a[i] = a[i] / d + a[i] % (d + i) + (-2147483647 - 1) / (d - 1) + 100 / (i + 1);
        u[i] = u[i] / e + u[i] % (e + i);
    }"""
    prg = cl.Program(ctx, src).build()
    a = cl.Buffer(ctx, cl.mem_flags.READ_WRITE | cl.mem_flags.COPY_HOST_PTR, hostbuf=np.arange(8, dtype=np.int32))
    u = cl.Buffer(ctx, cl.mem_flags.READ_WRITE | cl.mem_flags.COPY_HOST_PTR, hostbuf=np.arange(8, dtype=np.uint32))
    prg.k(queue, (8,), (8,), a, u, np.int32(0), np.uint32(0))
    queue.finish()
    fresh = cl.Buffer(ctx, cl.mem_flags.READ_WRITE | cl.mem_flags.COPY_HOST_PTR, hostbuf=np.arange(8, dtype=np.int32))
    prg.k(queue, (8,), (8,), fresh, u, np.int32(3), np.uint32(5))  # ordinary divisors still divide
    out = np.empty(8, np.int32)
    cl.enqueue_copy(queue, out, fresh)
    i = np.arange(8)
    expected = i // 3 + i % (3 + i) + (-(2**31) // 2) + 100 // (i + 1)  # non-negative: C and Python agree
    np.testing.assert_array_equal(out, expected.astype(np.int32))
