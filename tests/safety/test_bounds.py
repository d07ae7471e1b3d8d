"""Checked mode: out-of-bounds accesses and null buffers become exceptions with a full message.

Each test runs a kernel that OpenCL leaves undefined (the default mode may write anywhere or kill
the process) and asserts the whole message: kernel, file:line:column, source line and caret,
object, index, extent, and the ids of the work-item that did it.
"""
from __future__ import annotations

import numpy as np
import pytest

import loomcl as cl

from safety_helpers import WORK_ITEM, buffer, lines


def test_read_just_past_the_end_of_a_buffer(checked_error):
    src = """__kernel void shift(__global const float *a, __global float *b) {
    int i = get_global_id(0);
    b[i] = a[i + 1];
}"""
    error = checked_error(src, "shift", (16,), (8,), np.zeros(16, np.float32), np.zeros(16, np.float32),
                          error=cl.OutOfBoundsError)
    assert lines(error) == [
        "<kernel>:3:13: error: out-of-bounds read in kernel 'shift': index 16 (byte offset 64) of argument 'a', "
        "which holds 16 elements of 4 bytes (64 bytes)",
        "    b[i] = a[i + 1];",
        "            ^",
        WORK_ITEM.format("15, 0, 0", "7, 0, 0", "1, 0, 0"),
    ]
    assert error.code == cl.status_code.OUT_OF_RESOURCES


def test_write_far_away_would_crash_but_raises(checked_error):
    src = """__kernel void far(__global float *a) {
    int i = get_global_id(0);
    a[i * 100000000] = 1.0f;
}"""
    error = checked_error(src, "far", (16,), (8,), np.zeros(16, np.float32), error=cl.OutOfBoundsError)
    assert lines(error)[0] == ("<kernel>:3:22: error: out-of-bounds write in kernel 'far': index 100000000 "
                               "(byte offset 400000000) of argument 'a', which holds 16 elements of 4 bytes (64 bytes)")
    assert lines(error)[3] == WORK_ITEM.format("1, 0, 0", "1, 0, 0", "0, 0, 0")


def test_negative_index(checked_error):
    src = """__kernel void back(__global const float *a, __global float *b) {
    int i = get_global_id(0);
    b[i] = a[i - 1];
}"""
    error = checked_error(src, "back", (16,), (8,), np.zeros(16, np.float32), np.zeros(16, np.float32))
    assert isinstance(error, cl.OutOfBoundsError)
    assert "index -1 (byte offset -4) of argument 'a'" in lines(error)[0]
    assert lines(error)[3] == WORK_ITEM.format("0, 0, 0", "0, 0, 0", "0, 0, 0")


def test_sub_buffer_is_its_own_extent_and_the_parent_is_untouched(ctx, queue):
    parent = buffer(ctx, np.zeros(64, np.float32))
    src = """__kernel void fill(__global float *a) {
    a[get_global_id(0)] = 7.0f;
}"""
    kernel = cl.Program(ctx, src).build(options="-loomcl-check").fill
    with pytest.raises(cl.OutOfBoundsError) as info:
        kernel(queue, (24,), (8,), parent[64:128]).wait()
    assert lines(info.value)[0] == ("<kernel>:2:25: error: out-of-bounds write in kernel 'fill': index 16 "
                                    "(byte offset 64) of argument 'a', which holds 16 elements of 4 bytes (64 bytes)")
    assert lines(info.value)[3] == WORK_ITEM.format("16, 0, 0", "0, 0, 0", "2, 0, 0")
    host = np.empty(64, np.float32)
    cl.enqueue_copy(queue, host, parent)
    expected = np.zeros(64, np.float32)
    expected[16:32] = 7.0  # the sub-buffer's own elements; nothing past it
    np.testing.assert_array_equal(host, expected)


def test_local_memory_argument(checked_error):
    src = """__kernel void stage(__global float *out, __local float *t) {
    int l = get_local_id(0);
    t[l + 1] = 1.0f;
    out[get_global_id(0)] = t[l];
}"""
    error = checked_error(src, "stage", (16,), (8,), np.zeros(16, np.float32), cl.LocalMemory(32))
    assert lines(error)[:3] == [
        "<kernel>:3:14: error: out-of-bounds write in kernel 'stage': index 8 (byte offset 32) of argument 't', "
        "which holds 8 elements of 4 bytes (32 bytes)",
        "    t[l + 1] = 1.0f;",
        "             ^",
    ]
    assert lines(error)[3] == WORK_ITEM.format("7, 0, 0", "7, 0, 0", "0, 0, 0")


def test_local_array(checked_error):
    src = """__kernel void tiles(__global float *out) {
    __local float tile[8];
    int l = get_local_id(0);
    tile[l * 2] = 1.0f;
    barrier(CLK_LOCAL_MEM_FENCE);
    out[get_global_id(0)] = tile[l];
}"""
    error = checked_error(src, "tiles", (16,), (8,), np.zeros(16, np.float32))
    assert lines(error)[0] == ("<kernel>:4:17: error: out-of-bounds write in kernel 'tiles': index 8 (byte offset 32) "
                               "of __local array 'tile', which holds 8 elements of 4 bytes (32 bytes)")
    assert lines(error)[3] == WORK_ITEM.format("4, 0, 0", "4, 0, 0", "0, 0, 0")


def test_private_array(checked_error):
    src = """__kernel void table(__global float *out, int n) {
    float p[4];
    for (int k = 0; k < n; k++) p[k] = k;
    out[get_global_id(0)] = p[3];
}"""
    error = checked_error(src, "table", (16,), (8,), np.zeros(16, np.float32), np.int32(5))
    assert lines(error)[:3] == [
        "<kernel>:3:38: error: out-of-bounds write in kernel 'table': index 4 (byte offset 16) of private array 'p', "
        "which holds 4 elements of 4 bytes (16 bytes)",
        "    for (int k = 0; k < n; k++) p[k] = k;",
        "                                     ^",
    ]


def test_pointer_chosen_between_two_buffers(checked_error):
    src = """__kernel void pick(__global float *a, __global float *b) {
    int i = get_global_id(0);
    __global float *p = (i & 1) ? a : b;
    p[i] = 2.0f;
}"""
    error = checked_error(src, "pick", (16,), (8,), np.zeros(16, np.float32), np.zeros(8, np.float32))
    assert lines(error)[0] == ("<kernel>:4:10: error: out-of-bounds write in kernel 'pick': index 8 (byte offset 32) "
                               "of argument 'a' or argument 'b', which holds 8 elements of 4 bytes (32 bytes)")
    assert lines(error)[3] == WORK_ITEM.format("8, 0, 0", "0, 0, 0", "1, 0, 0")


def test_vector_access_counts_its_width(checked_error):
    src = """__kernel void wide(__global float4 *v) {
    int i = get_global_id(0);
    v[i] = v[i] + 1.0f;
}"""
    error = checked_error(src, "wide", (5,), (1,), np.zeros(16, np.float32))
    assert "index 4 (byte offset 64) of argument 'v', which holds 4 elements of 16 bytes (64 bytes)" in lines(error)[0]


def test_null_buffer_argument(checked_error):
    src = """__kernel void copy(__global const float *a, __global float *b) {
    int i = get_global_id(0);
    b[i] = a[i];
}"""
    # one group: with several, whichever thread faults first reports (any group's work-item 0)
    error = checked_error(src, "copy", (8,), (8,), None, np.zeros(8, np.float32), error=cl.NullBufferError)
    assert lines(error) == [
        "<kernel>:3:13: error: read through a null buffer in kernel 'copy': argument 'a' was None",
        "    b[i] = a[i];",
        "            ^",
        WORK_ITEM.format("0, 0, 0", "0, 0, 0", "0, 0, 0"),
    ]


def test_in_bounds_launch_after_a_violation_runs_normally(ctx, queue):
    src = """__kernel void inc(__global int *a, int k) {
    a[get_global_id(0) * k] += 1;
}"""
    kernel = cl.Program(ctx, src).build(options="-loomcl-check").inc
    data = buffer(ctx, np.zeros(64, np.int32))
    with pytest.raises(cl.OutOfBoundsError):
        kernel(queue, (64,), (16,), data, np.int32(2)).wait()
    fresh = buffer(ctx, np.zeros(64, np.int32))
    kernel(queue, (64,), (16,), fresh, np.int32(1))  # the error record was reset
    host = np.empty(64, np.int32)
    cl.enqueue_copy(queue, host, fresh)
    assert host.tolist() == [1] * 64  # the second launch ran every work-item


def test_environment_switches_checked_mode_on(ctx, queue, monkeypatch):
    monkeypatch.setenv("LOOMCL_CHECK", "1")
    src = """__kernel void over(__global float *a) { a[get_global_id(0) + 1] = 0.0f; }"""
    kernel = cl.Program(ctx, src).build().over
    with pytest.raises(cl.OutOfBoundsError):
        kernel(queue, (8,), (8,), buffer(ctx, np.zeros(8, np.float32))).wait()


def test_pointer_loaded_from_memory_is_checked_against_every_object(ctx, queue):
    src = """__kernel void table(__global float *a, __global float *b, int k) {
    __global float *ps[2];
    ps[0] = a; ps[1] = b;
    int i = get_global_id(0);
    ps[i & 1][i * k] = 1.0f;
}"""
    kernel = cl.Program(ctx, src).build(options="-loomcl-check").table
    a, b = buffer(ctx, np.zeros(16, np.float32)), buffer(ctx, np.zeros(16, np.float32))
    kernel(queue, (16,), (8,), a, b, np.int32(1))  # in bounds: runs, and writes where it should
    host = np.empty(16, np.float32)
    cl.enqueue_copy(queue, host, b)
    assert host.tolist() == [0.0, 1.0] * 8
    with pytest.raises(cl.OutOfBoundsError) as info:
        kernel(queue, (16,), (8,), a, b, np.int32(2)).wait()
    assert lines(info.value)[:3] == [
        "<kernel>:5:22: error: out-of-bounds write in kernel 'table': the pointer (loaded from memory or made from "
        "an integer) points into none of argument 'a' or argument 'b'",
        "    ps[i & 1][i * k] = 1.0f;",
        "                     ^",
    ]
    assert lines(info.value)[3] == WORK_ITEM.format("8, 0, 0", "0, 0, 0", "1, 0, 0")


def test_pointer_made_from_an_integer_is_checked(checked_error):
    src = """__kernel void wild(__global int *out, ulong address) {
    __global int *p = (__global int *)address;
    out[get_global_id(0)] = *p;
}"""
    error = checked_error(src, "wild", (8,), (8,), np.zeros(8, np.int32), np.uint64(0xdead0000))
    assert "points into none of argument 'out'" in lines(error)[0]


def test_generic_pointer_loaded_from_memory_is_checked_against_every_space(ctx, queue):
    src = """__kernel void gen(__global float *a, int k) {
    float priv[4];
    float *ps[2];
    ps[0] = a; ps[1] = priv;
    int i = get_global_id(0);
    ps[i & 1][k] = 1.0f;
}"""
    kernel = cl.Program(ctx, src).build(options="-loomcl-check").gen
    a = buffer(ctx, np.zeros(16, np.float32))
    kernel(queue, (8,), (8,), a, np.int32(2))  # a[2] and priv[2]: in bounds
    with pytest.raises(cl.OutOfBoundsError) as info:
        kernel(queue, (8,), (8,), a, np.int32(8)).wait()  # a[8] is fine, priv[8] is not
    assert "points into none of argument 'a' or private array 'priv'" in lines(info.value)[0]
    assert lines(info.value)[3] == WORK_ITEM.format("1, 0, 0", "1, 0, 0", "0, 0, 0")
