"""Event entry points, and how every enqueue call hands its wait list and its event across."""
from __future__ import annotations

import ctypes

from loomcl.errors import LogicError, status_code
from loomcl.runtime.constants import event_info, profiling_info
from loomcl.runtime.event import UserEvent, wait_for_events

from .answer import answer_query
from .callbacks import EVENT_CALLBACK
from .handles import invalid, registry

_CALLBACK_STATUSES = (0, 1, 2)  # COMPLETE, RUNNING, SUBMITTED
_BAD_LIST = status_code.INVALID_EVENT_WAIT_LIST
_queues = registry.live["queue"]
_pointer_at = ctypes.c_void_p.from_address


def wait_list(count, events, routine: str, queue) -> list | None:
    """An enqueue call's (num_events_in_wait_list, event_wait_list) for `queue`: None when empty (the
    usual case); the events must be of the queue's context."""
    if not count and not events:
        return None
    if not count or not events:
        raise LogicError(routine, status_code.INVALID_EVENT_WAIT_LIST,
                         f"num_events_in_wait_list is {count} but event_wait_list is {'set' if events else 'NULL'}")
    listed = registry.get_list(count, events, "event", routine, _BAD_LIST, _BAD_LIST)
    same_context(listed, queue.context, routine)
    return listed


def same_context(events: list, context, routine: str) -> None:
    for event in events:
        if event.context is not context:
            raise LogicError(routine, status_code.INVALID_CONTEXT, "the events belong to different contexts")


def hand_out(event, out) -> None:
    """Gives the caller a handle to the command's event if it asked for one (`cl_event *event`)."""
    if out:
        _pointer_at(out).value = registry.new(event, "event")


def queue_of(handle, routine: str):
    queue = _queues.get(handle)
    if queue is None:
        raise invalid(handle, "queue", routine)
    return queue


def enqueue_marker(queue, num_events, events, out, routine="clEnqueueMarkerWithWaitList"):
    from loomcl.runtime.command_queue import enqueue_marker as marker

    q = queue_of(queue, routine)
    hand_out(marker(q, wait_for=wait_list(num_events, events, routine, q)), out)


def clEnqueueMarkerWithWaitList(queue, num_events, events, out):
    enqueue_marker(queue, num_events, events, out)


def clEnqueueBarrierWithWaitList(queue, num_events, events, out):
    from loomcl.runtime.command_queue import enqueue_barrier

    routine = "clEnqueueBarrierWithWaitList"
    q = queue_of(queue, routine)
    hand_out(enqueue_barrier(q, wait_for=wait_list(num_events, events, routine, q)), out)


def clEnqueueMarker(queue, out):
    if not out:
        raise LogicError("clEnqueueMarker", status_code.INVALID_VALUE, "event is NULL")
    enqueue_marker(queue, 0, None, out, "clEnqueueMarker")


def clEnqueueBarrier(queue):
    clEnqueueBarrierWithWaitList(queue, 0, None, None)


def clEnqueueWaitForEvents(queue, num_events, events):
    routine = "clEnqueueWaitForEvents"
    if not num_events:
        raise LogicError(routine, status_code.INVALID_VALUE, "no events given")
    from loomcl.runtime.command_queue import enqueue_barrier

    q = queue_of(queue, routine)
    enqueue_barrier(q, wait_for=wait_list(num_events, events, routine, q))


def clWaitForEvents(num_events, events):
    routine = "clWaitForEvents"
    if not num_events or not events:
        raise LogicError(routine, status_code.INVALID_VALUE, "no events given")
    listed = registry.get_list(num_events, events, "event", routine, status_code.INVALID_EVENT)
    same_context(listed, listed[0].context, routine)
    wait_for_events(listed)


def clGetEventInfo(handle, param, size, out, size_ret):
    routine = "clGetEventInfo"
    event = registry.get(handle, "event", routine)
    return answer_query(handle, event, event_info, param, size, out, size_ret, routine)


def clGetEventProfilingInfo(handle, param, size, out, size_ret):
    routine = "clGetEventProfilingInfo"
    event = registry.get(handle, "event", routine)
    if isinstance(event, UserEvent):
        raise LogicError(routine, status_code.PROFILING_INFO_NOT_AVAILABLE, "a user event has no profiling info")
    from .answer import answer

    return answer(event.get_profiling_info(param), profiling_info, param, size, out, size_ret, routine)


def clRetainEvent(handle):
    registry.retain(handle, "event", "clRetainEvent")


def clReleaseEvent(handle):
    registry.release(handle, "event", "clReleaseEvent")


def clCreateUserEvent(context):
    return registry.new(UserEvent(registry.get(context, "context", "clCreateUserEvent")), "event")


def clSetUserEventStatus(handle, status):
    routine = "clSetUserEventStatus"
    event = registry.get(handle, "event", routine)
    if not isinstance(event, UserEvent):
        raise LogicError(routine, status_code.INVALID_EVENT, "not a user event")
    event.set_status(status)


def clSetEventCallback(handle, status, function, user_data):
    routine = "clSetEventCallback"
    event = registry.get(handle, "event", routine)
    if not function or status not in _CALLBACK_STATUSES:
        raise LogicError(routine, status_code.INVALID_VALUE,
                         "pfn_notify is NULL or command_exec_callback_type is not COMPLETE, RUNNING or SUBMITTED")
    callback = EVENT_CALLBACK(function)

    def notify(reached: int) -> None:
        callback(handle, reached, user_data)

    event.set_callback(status, notify)
