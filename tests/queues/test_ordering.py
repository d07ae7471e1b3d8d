"""Order: in-order queues run commands one after the other, out-of-order queues by their wait lists,
markers and barriers; enqueue calls return before the work is done."""
import gc

import numpy as np

import loomcl as cl

from queue_helpers import N, int_buffer, mf, read, status


def test_write_kernel_read_without_blocking_then_finish(ctx, queue, prg):
    buf = cl.Buffer(ctx, mf.READ_WRITE, 4 * N)
    host = np.arange(N, dtype=np.int32)
    out = np.zeros(N, np.int32)
    write = cl.enqueue_copy(queue, buf, host, is_blocking=False)
    launch = prg.add(queue, (N,), None, buf, np.int32(10))
    read_back = cl.enqueue_copy(queue, out, buf, is_blocking=False)
    queue.finish()
    np.testing.assert_array_equal(out, np.arange(N) + 10)
    assert [e.command_execution_status for e in (write, launch, read_back)] == [status.COMPLETE] * 3
    assert [e.command_type for e in (write, launch, read_back)] == [
        cl.command_type.WRITE_BUFFER, cl.command_type.NDRANGE_KERNEL, cl.command_type.READ_BUFFER]


def test_enqueue_returns_before_the_work_is_done(ctx, queue, prg):
    gate = cl.UserEvent(ctx)
    buf = int_buffer(ctx, np.zeros(N))
    first = prg.add(queue, (N,), None, buf, np.int32(1), wait_for=[gate])
    second = prg.add(queue, (N,), None, buf, np.int32(2))  # in order: after the first
    queue.flush()
    assert first.command_execution_status == status.QUEUED
    assert second.command_execution_status == status.QUEUED
    gate.set_status(status.COMPLETE)
    second.wait()
    assert first.command_execution_status == status.COMPLETE
    np.testing.assert_array_equal(read(queue, buf), 3)


def test_out_of_order_queue_follows_wait_lists(ctx, ooo_queue, prg):
    buf = cl.Buffer(ctx, mf.READ_WRITE, 4 * N)
    out = np.zeros(N, np.int32)
    write = cl.enqueue_copy(ooo_queue, buf, np.arange(N, dtype=np.int32), is_blocking=False)
    launch = prg.add(ooo_queue, (N,), None, buf, np.int32(5), wait_for=[write])
    cl.enqueue_copy(ooo_queue, out, buf, is_blocking=False, wait_for=[launch])
    ooo_queue.finish()
    np.testing.assert_array_equal(out, np.arange(N) + 5)


def test_out_of_order_queue_runs_what_is_ready(ctx, ooo_queue):
    gate = cl.UserEvent(ctx)
    a, b = cl.Buffer(ctx, mf.READ_WRITE, 4 * N), cl.Buffer(ctx, mf.READ_WRITE, 4 * N)
    held = cl.enqueue_copy(ooo_queue, a, np.full(N, 1, np.int32), is_blocking=False, wait_for=[gate])
    free = cl.enqueue_copy(ooo_queue, b, np.full(N, 2, np.int32), is_blocking=False)
    free.wait()  # enqueued after the held copy, done before it
    assert held.command_execution_status == status.QUEUED
    every_before = cl.enqueue_marker(ooo_queue)  # waits for the held copy too
    only_free = cl.enqueue_marker(ooo_queue, wait_for=[free])
    only_free.wait()
    assert every_before.command_execution_status == status.QUEUED
    barrier = cl.enqueue_barrier(ooo_queue)
    after = cl.enqueue_copy(ooo_queue, b, np.full(N, 3, np.int32), is_blocking=False)  # held by the barrier
    ooo_queue.flush()
    assert after.command_execution_status == status.QUEUED
    assert barrier.command_execution_status == status.QUEUED
    gate.set_status(status.COMPLETE)
    after.wait()
    assert [e.command_execution_status for e in (held, every_before, barrier)] == [status.COMPLETE] * 3
    np.testing.assert_array_equal(read(ooo_queue, a), 1)
    np.testing.assert_array_equal(read(ooo_queue, b), 3)


def test_barrier_with_a_wait_list_and_enqueue_wait_for_events(ctx, ooo_queue):
    gates = cl.UserEvent(ctx), cl.UserEvent(ctx)
    buf = cl.Buffer(ctx, mf.READ_WRITE, 4 * N)
    cl.enqueue_barrier(ooo_queue, wait_for=[gates[0]])
    first = cl.enqueue_copy(ooo_queue, buf, np.full(N, 1, np.int32), is_blocking=False)
    cl.enqueue_wait_for_events(ooo_queue, [gates[1]])
    second = cl.enqueue_copy(ooo_queue, buf, np.full(N, 2, np.int32), is_blocking=False)
    ooo_queue.flush()
    gates[0].set_status(status.COMPLETE)
    first.wait()
    assert second.command_execution_status == status.QUEUED
    gates[1].set_status(status.COMPLETE)
    second.wait()
    np.testing.assert_array_equal(read(ooo_queue, buf), 2)


def test_marker_of_an_in_order_queue_waits_for_what_is_before_it(ctx, queue):
    gate = cl.UserEvent(ctx)
    buf = cl.Buffer(ctx, mf.READ_WRITE, 4 * N)
    cl.enqueue_copy(queue, buf, np.full(N, 4, np.int32), is_blocking=False, wait_for=[gate])
    marker = cl.enqueue_marker(queue)
    assert marker.command_execution_status == status.QUEUED
    gate.set_status(status.COMPLETE)
    cl.wait_for_events([marker])
    np.testing.assert_array_equal(read(queue, buf), 4)


def test_a_launch_keeps_the_arguments_it_was_enqueued_with(ctx, queue, prg):
    gate = cl.UserEvent(ctx)
    a, b = int_buffer(ctx, np.zeros(N)), int_buffer(ctx, np.zeros(N))
    kernel = prg.add
    kernel.set_args(a, np.int32(5))
    held = cl.enqueue_nd_range_kernel(queue, kernel, (N,), None, wait_for=[gate])
    kernel.set_arg(0, b)
    kernel.set_arg(1, np.int32(7))
    later = cl.enqueue_nd_range_kernel(queue, kernel, (N,), None)
    kernel.set_arg(1, np.int32(100))
    gate.set_status(status.COMPLETE)
    cl.wait_for_events([held, later])
    np.testing.assert_array_equal(read(queue, a), 5)
    np.testing.assert_array_equal(read(queue, b), 7)


def test_a_released_buffer_lives_until_its_commands_ran(ctx, queue, prg):
    gate = cl.UserEvent(ctx)
    temporary = int_buffer(ctx, np.arange(N))
    out = np.zeros(N, np.int32)
    prg.add(queue, (N,), None, temporary, np.int32(1), wait_for=[gate])
    done = cl.enqueue_copy(queue, out, temporary, is_blocking=False)
    temporary.release()
    del temporary
    gc.collect()
    gate.set_status(status.COMPLETE)
    done.wait()
    np.testing.assert_array_equal(out, np.arange(N) + 1)


def test_a_map_is_a_command_of_its_queue(ctx, queue, prg):
    gate = cl.UserEvent(ctx)
    buf = int_buffer(ctx, np.zeros(N))
    prg.add(queue, (N,), None, buf, np.int32(2), wait_for=[gate])
    array, mapped = cl.enqueue_map_buffer(queue, buf, cl.map_flags.READ, 0, (N,), np.int32, is_blocking=False)
    assert mapped.command_execution_status == status.QUEUED
    gate.set_status(status.COMPLETE)
    mapped.wait()
    np.testing.assert_array_equal(array, 2)
    unmapped = array.base.release()
    assert buf.map_count == 0
    prg.add(queue, (N,), None, buf, np.int32(3))
    blocking, _ = cl.enqueue_map_buffer(queue, buf, cl.map_flags.READ, 0, (N,), np.int32)  # waits for the launch
    np.testing.assert_array_equal(blocking, 5)
    assert unmapped.command_execution_status == status.COMPLETE


def test_printf_output_appears_when_the_launch_completes(ctx, queue, prg, capsys):
    gate = cl.UserEvent(ctx)
    launch = prg.say(queue, (1,), (1,), np.int32(3), wait_for=[gate])
    queue.flush()
    assert capsys.readouterr().out == ""
    gate.set_status(status.COMPLETE)
    launch.wait()
    assert capsys.readouterr().out == "n=3\n"


def test_wait_for_events_of_two_queues(ctx, queue, ooo_queue, prg):
    a, b = int_buffer(ctx, np.zeros(N)), int_buffer(ctx, np.zeros(N))
    first = prg.add(queue, (N,), None, a, np.int32(1))
    second = prg.add(ooo_queue, (N,), None, b, np.int32(2), wait_for=[first])
    cl.wait_for_events([second, first])
    assert first.command_execution_status == second.command_execution_status == status.COMPLETE
    np.testing.assert_array_equal(read(queue, b), 2)
