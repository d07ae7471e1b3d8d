"""Events: status transitions, user events as dependencies, callbacks and profiling timestamps."""
import threading

import numpy as np
import pytest

import loomcl as cl

from queue_helpers import N, int_buffer, mf, read, status

ERROR_FOR_EVENTS = cl.status_code.EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST


def test_a_user_event_holds_commands_back_until_set(ctx, queue, prg):
    gate = cl.UserEvent(ctx)
    buf = int_buffer(ctx, np.zeros(N))
    launch = prg.add(queue, (N,), None, buf, np.int32(4), wait_for=[gate])
    out = np.zeros(N, np.int32)
    copy = cl.enqueue_copy(queue, out, buf, is_blocking=False)
    queue.flush()
    assert gate.command_execution_status == status.SUBMITTED
    assert launch.command_execution_status == copy.command_execution_status == status.QUEUED
    gate.set_status(status.COMPLETE)
    copy.wait()
    np.testing.assert_array_equal(out, 4)


def test_a_negative_user_status_fails_its_dependents(ctx, queue, prg):
    gate = cl.UserEvent(ctx)
    buf = int_buffer(ctx, np.zeros(N))
    launch = prg.add(queue, (N,), None, buf, np.int32(4), wait_for=[gate])
    marker = cl.enqueue_marker(queue, wait_for=[launch])
    gate.set_status(-9)
    with pytest.raises(cl.RuntimeError, match="clEnqueueNDRangeKernel failed: EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST"
                       " - an event in the wait list failed with status -9"):
        launch.wait()
    assert launch.command_execution_status == ERROR_FOR_EVENTS
    with pytest.raises(cl.RuntimeError, match="clEnqueueMarkerWithWaitList failed: EXEC_STATUS_ERROR"):
        queue.finish()  # the marker's failure, which no wait raised yet
    assert marker.command_execution_status == ERROR_FOR_EVENTS  # the failure spreads along wait lists
    queue.finish()
    np.testing.assert_array_equal(read(queue, buf), 0)  # the failed launch did not run


def test_finish_waits_for_a_user_event_another_thread_completes(ctx, queue):
    gate = cl.UserEvent(ctx)
    buf = cl.Buffer(ctx, mf.READ_WRITE, 4 * N)
    write = cl.enqueue_copy(queue, buf, np.full(N, 6, np.int32), is_blocking=False, wait_for=[gate])
    setter = threading.Timer(0.05, gate.set_status, [status.COMPLETE])
    setter.start()
    queue.finish()  # neither this thread nor the executor is stuck meanwhile
    setter.join()
    assert write.command_execution_status == status.COMPLETE
    np.testing.assert_array_equal(read(queue, buf), 6)


def test_callbacks_run_at_each_status_on_the_thread_that_completes(ctx, queue, prg):
    gate = cl.UserEvent(ctx)
    buf = int_buffer(ctx, np.zeros(N))
    launch = prg.add(queue, (N,), None, buf, np.int32(1), wait_for=[gate])
    seen, done = [], threading.Event()
    for wanted in (status.COMPLETE, status.RUNNING, status.SUBMITTED):
        launch.set_callback(wanted, lambda got, wanted=wanted: seen.append((wanted, got, threading.current_thread().name)))
    launch.set_callback(status.COMPLETE, lambda got: done.set())
    assert seen == []
    gate.set_status(status.COMPLETE)  # releases the launch to the queue's executor
    assert done.wait(60)
    assert [(wanted, got) for wanted, got, _ in seen] == [
        (status.SUBMITTED, status.SUBMITTED), (status.RUNNING, status.RUNNING), (status.COMPLETE, status.COMPLETE)]
    assert {name for *_, name in seen} == {"loomcl-queue"}
    late = []
    launch.set_callback(status.RUNNING, lambda got: late.append((got, threading.current_thread())))
    assert late == [(status.RUNNING, threading.current_thread())]  # reached already: called at once


def test_callbacks_of_a_failed_command_get_its_status(ctx, queue):
    gate = cl.UserEvent(ctx)
    marker = cl.enqueue_marker(queue, wait_for=[gate])
    got = []
    marker.set_callback(status.RUNNING, got.append)
    marker.set_callback(status.COMPLETE, got.append)
    called = threading.Event()
    marker.set_callback(status.COMPLETE, lambda _: called.set())
    gate.set_status(-3)
    with pytest.raises(cl.RuntimeError):
        marker.wait()
    assert called.wait(60)  # (callbacks run on the thread that completed the event, maybe after the wait)
    assert got == [ERROR_FOR_EVENTS, ERROR_FOR_EVENTS]


def test_an_exception_in_a_callback_is_reported_and_the_queue_goes_on(ctx, queue, capsys):
    gate = cl.UserEvent(ctx)
    marker = cl.enqueue_marker(queue, wait_for=[gate])

    def broken(_status):
        raise ValueError("callback bug")

    marker.set_callback(status.COMPLETE, broken)
    after = threading.Event()
    marker.set_callback(status.COMPLETE, lambda _: after.set())
    gate.set_status(status.COMPLETE)
    marker.wait()
    assert after.wait(60)  # the callback after the broken one ran too
    buf = cl.Buffer(ctx, mf.READ_WRITE, 4 * N)
    cl.enqueue_fill_buffer(queue, buf, np.int32(8), 0, 4 * N)
    np.testing.assert_array_equal(read(queue, buf), 8)
    err = capsys.readouterr().err
    assert "loomcl: exception in event callback" in err and "ValueError: callback bug" in err


def test_callback_and_user_event_argument_checks(ctx, queue):
    event = cl.enqueue_marker(queue)
    with pytest.raises(cl.LogicError, match="INVALID_VALUE.*SUBMITTED, RUNNING or COMPLETE"):
        event.set_callback(status.QUEUED, print)
    with pytest.raises(cl.LogicError, match="INVALID_VALUE.*not callable"):
        event.set_callback(status.COMPLETE, 42)
    with pytest.raises(cl.LogicError, match="INVALID_EVENT_WAIT_LIST"):
        cl.enqueue_marker(queue, wait_for=[object()])


def test_profiling_timestamps_are_ordered(ctx, profiling_queue, prg):
    buf = cl.Buffer(ctx, mf.READ_WRITE, 4 * N)
    out = np.zeros(N, np.int32)
    events = [cl.enqueue_copy(profiling_queue, buf, np.arange(N, dtype=np.int32), is_blocking=False),
              prg.add(profiling_queue, (N,), None, buf, np.int32(1)),
              cl.enqueue_copy(profiling_queue, out, buf, is_blocking=False)]
    with pytest.raises(cl.RuntimeError, match="PROFILING_INFO_NOT_AVAILABLE.*not complete"):
        events[2].profile.end
    profiling_queue.finish()
    for event in events:
        p = event.profile
        assert p.queued <= p.submit <= p.start <= p.end
        assert event.get_profiling_info(cl.profiling_info.START) == p.start
    for before, after in zip(events, events[1:]):  # in order: each starts after the one before ended
        assert before.profile.end <= after.profile.start
    np.testing.assert_array_equal(out, np.arange(N) + 1)
