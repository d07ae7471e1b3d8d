"""The launch path's fast case: a launch followed by a wait, which the waiting thread runs itself
(scheduler.help_until runs a quiet command inline). Ordering, failures, callbacks and profiling stay
what they are on the slow path; a launch of a new shape is enqueued while another launch runs."""
import threading

import numpy as np
import pytest

import loomcl as cl

from queue_helpers import CHECKED_SOURCE, N, eventually, int_buffer, mf, read, status


def test_launch_copy_launch_run_by_the_waiter_in_queue_order(ctx, queue, prg):
    buf, snapshot = int_buffer(ctx, np.zeros(N)), int_buffer(ctx, np.zeros(N))
    first = prg.add(queue, (N,), None, buf, np.int32(1))
    copy = cl.enqueue_copy(queue, snapshot, buf)  # sees the first launch only
    second = prg.add(queue, (N,), None, buf, np.int32(10), wait_for=[copy])
    marker = cl.enqueue_marker(queue, wait_for=[first])
    third = prg.add(queue, (N,), None, buf, np.int32(100))
    queue.finish()
    assert [e.command_execution_status for e in (first, copy, second, marker, third)] == [status.COMPLETE] * 5
    np.testing.assert_array_equal(read(queue, snapshot), 1)
    np.testing.assert_array_equal(read(queue, buf), 111)


def test_back_to_back_launch_and_finish_keep_their_arguments(ctx, queue, prg):
    bufs = [int_buffer(ctx, np.zeros(N)) for _ in range(3)]
    for round_ in range(50):  # each launch takes the arguments set for it, never a later call's
        prg.add(queue, (N,), None, bufs[round_ % 3], np.int32(round_))
        queue.finish()
    for index, buf in enumerate(bufs):
        np.testing.assert_array_equal(read(queue, buf), sum(range(index, 50, 3)))


def test_a_failing_launch_after_a_quiet_one_surfaces_at_finish(ctx, queue, prg):
    checked = cl.Program(ctx, CHECKED_SOURCE).build(options="-loomcl-check")
    buf = int_buffer(ctx, np.zeros(N))
    quiet = prg.add(queue, (N,), None, buf, np.int32(2))
    failing = checked.past_the_end(queue, (N,), (N,), int_buffer(ctx, np.zeros(N)))
    after = prg.add(queue, (N,), None, buf, np.int32(3))
    with pytest.raises(cl.OutOfBoundsError, match="out-of-bounds write in kernel 'past_the_end'"):
        queue.finish()
    assert quiet.command_execution_status == status.COMPLETE
    assert failing.command_execution_status == cl.status_code.OUT_OF_RESOURCES
    assert after.command_execution_status == status.COMPLETE  # (no wait list: the queue goes on)
    queue.finish()  # raised once
    np.testing.assert_array_equal(read(queue, buf), 5)
    with pytest.raises(cl.OutOfBoundsError):
        failing.wait()


def test_callbacks_fire_for_a_launch_the_waiter_runs(ctx, queue, prg):
    buf = int_buffer(ctx, np.zeros(N))
    launch = prg.add(queue, (N,), None, buf, np.int32(4))
    seen, done = [], threading.Event()
    for wanted in (status.SUBMITTED, status.RUNNING, status.COMPLETE):
        launch.set_callback(wanted, lambda got, wanted=wanted: seen.append((wanted, got)))
    launch.set_callback(status.COMPLETE, lambda got: done.set())
    queue.finish()
    assert done.wait(60)  # (on the thread that ran it: this one or the executor a registration woke)
    assert seen == [(status.SUBMITTED, status.SUBMITTED), (status.RUNNING, status.RUNNING),
                    (status.COMPLETE, status.COMPLETE)]
    np.testing.assert_array_equal(read(queue, buf), 4)


def test_profiled_launch_and_finish_timestamps_are_ordered(ctx, profiling_queue, prg):
    buf = int_buffer(ctx, np.zeros(N))
    events = []
    for k in range(5):
        events.append(prg.add(profiling_queue, (N,), None, buf, np.int32(k)))
        if k % 2:
            profiling_queue.finish()
    events[-1].wait()
    profiling_queue.finish()
    for event in events:
        p = event.profile
        assert 0 < p.queued <= p.submit <= p.start <= p.end
    for before, after in zip(events, events[1:]):
        assert before.profile.end <= after.profile.start
    np.testing.assert_array_equal(read(profiling_queue, buf), sum(range(5)))


def test_a_new_shape_is_enqueued_while_another_launch_runs(ctx, prg):
    busy, other = cl.CommandQueue(ctx), cl.CommandQueue(ctx)
    flags = np.zeros(2, np.int32)
    flag = cl.Buffer(ctx, mf.READ_WRITE | mf.USE_HOST_PTR, hostbuf=flags)
    out = cl.Buffer(ctx, mf.READ_WRITE, 4 * N)
    buf = int_buffer(ctx, np.zeros(3 * N))
    add = cl.Kernel(prg, "add")  # a fresh kernel: its first launch plans a shape (and warms the pool up)
    enqueued = threading.Event()

    def enqueue_from_a_new_thread() -> None:  # (a thread that never launched: its signal stack is new too)
        add(other, (3 * N,), (N // 4,), buf, np.int32(7))
        enqueued.set()

    spin = prg.spin(busy, (N,), (N,), flag, out)
    busy.flush()
    try:
        eventually(lambda: flags[1] == 1, "the kernel started")
        thread = threading.Thread(target=enqueue_from_a_new_thread)
        thread.start()
        assert enqueued.wait(60), "enqueueing a new shape waited for the running launch"
        assert spin.command_execution_status == status.RUNNING
    finally:
        flags[0] = 1
    thread.join()
    other.finish()
    busy.finish()
    np.testing.assert_array_equal(read(other, buf, 3 * N), 7)
    np.testing.assert_array_equal(read(busy, out), np.arange(1, N + 1))


def test_a_done_event_keeps_no_other_event_alive(ctx, queue, prg):
    import gc
    import weakref

    buf = int_buffer(ctx, np.zeros(N))
    first = prg.add(queue, (N,), None, buf, np.int32(1))
    gone = weakref.ref(first)
    last = first
    for _ in range(5):  # each launch waits for the one before
        last = prg.add(queue, (N,), None, buf, np.int32(1), wait_for=[last])
    del first
    queue.finish()
    gc.collect()
    assert gone() is None  # the chain does not keep the first event alive
    assert last.command_execution_status == status.COMPLETE
    np.testing.assert_array_equal(read(queue, buf), 6)
