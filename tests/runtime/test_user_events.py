"""UserEvent: the host completes it; commands may wait for it once it is complete; errors propagate."""
import numpy as np
import pytest

import loomcl as cl

status = cl.command_execution_status


def test_user_event_lifecycle(ctx, queue):
    event = cl.UserEvent(ctx)
    assert event.command_execution_status == status.SUBMITTED
    assert event.command_type == cl.command_type.USER and event.context is ctx and event.command_queue is None
    assert event.get_info(cl.event_info.COMMAND_EXECUTION_STATUS) == status.SUBMITTED
    event.set_status(status.COMPLETE)
    assert event.command_execution_status == status.COMPLETE
    event.wait()
    cl.wait_for_events([event])
    buf = cl.Buffer(ctx, cl.mem_flags.READ_WRITE, 16)
    cl.enqueue_copy(queue, buf, np.arange(4, dtype=np.int32), wait_for=[event])
    out = np.empty(4, np.int32)
    marker = cl.enqueue_marker(queue, wait_for=[event])
    cl.enqueue_copy(queue, out, buf, wait_for=[event, marker])
    np.testing.assert_array_equal(out, np.arange(4))


def test_commands_wait_for_an_incomplete_user_event(ctx, queue):
    event = cl.UserEvent(ctx)
    buf = cl.Buffer(ctx, cl.mem_flags.READ_WRITE, 16)
    write = cl.enqueue_copy(queue, buf, np.ones(4, np.int32), wait_for=[event], is_blocking=False)
    out = np.zeros(4, np.int32)
    read = cl.enqueue_copy(queue, out, buf, is_blocking=False)  # in order: after the write
    queue.flush()
    assert write.command_execution_status == status.QUEUED
    assert read.command_execution_status == status.QUEUED
    np.testing.assert_array_equal(out, 0)  # nothing ran yet
    event.set_status(status.COMPLETE)
    read.wait()
    assert write.command_execution_status == status.COMPLETE
    np.testing.assert_array_equal(out, 1)


def test_user_event_error_status_fails_waiters(ctx, queue):
    event = cl.UserEvent(ctx)
    event.set_status(-5)
    assert event.command_execution_status == -5
    with pytest.raises(cl.RuntimeError, match="EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST.*error status -5"):
        event.wait()
    marker = cl.enqueue_marker(queue, wait_for=[event])
    with pytest.raises(cl.RuntimeError, match="clEnqueueMarkerWithWaitList failed: "
                       "EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST.*status -5.*error status -5"):
        marker.wait()
    assert marker.command_execution_status == cl.status_code.EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST
    queue.finish()  # the wait raised it: finish has nothing left to raise


@pytest.mark.parametrize("bad", [status.RUNNING, status.SUBMITTED, 7, True, "COMPLETE"])
def test_set_status_rejects_non_final_values(ctx, bad):
    event = cl.UserEvent(ctx)
    with pytest.raises(cl.LogicError, match="INVALID_VALUE.*COMPLETE or a negative error code"):
        event.set_status(bad)


def test_set_status_twice_and_bad_context(ctx):
    event = cl.UserEvent(ctx)
    event.set_status(status.COMPLETE)
    with pytest.raises(cl.LogicError, match="INVALID_OPERATION.*already set"):
        event.set_status(status.COMPLETE)
    with pytest.raises(cl.LogicError, match="INVALID_CONTEXT"):
        cl.UserEvent(None)


def test_cl_header_version_matches_the_platform():
    major, minor = cl.get_cl_header_version()
    assert (major, minor) == (3, 0)
    assert cl.get_platforms()[0].version.startswith(f"OpenCL {major}.{minor} ")
    assert cl.get_platforms()[0].get_devices()[0].version.startswith(f"OpenCL {major}.{minor} ")
