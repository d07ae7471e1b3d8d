"""Work in the background: failures surface at the wait that observes them, several threads enqueue
into one queue, and Python runs on while a kernel runs (asserted on statuses, never on timings)."""
import os
import subprocess
import sys
import textwrap
import threading

import numpy as np
import pytest

import loomcl as cl

from queue_helpers import CHECKED_SOURCE, N, eventually, int_buffer, mf, read, status

THREADS = 8
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
ROUNDS = 25


@pytest.fixture(scope="module")
def checked(ctx):
    return cl.Program(ctx, CHECKED_SOURCE).build(options="-loomcl-check")


def test_a_failed_launch_raises_at_finish_once(ctx, queue, checked):
    buf = int_buffer(ctx, np.zeros(8))
    launch = checked.past_the_end(queue, (8,), (8,), buf)  # returns: the violation happens later
    dependent = cl.enqueue_marker(queue, wait_for=[launch])
    with pytest.raises(cl.OutOfBoundsError, match="out-of-bounds write in kernel 'past_the_end': index 8"):
        queue.finish()
    assert launch.command_execution_status == cl.status_code.OUT_OF_RESOURCES
    assert dependent.command_execution_status == cl.status_code.EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST
    queue.finish()  # raised once by the queue ...
    with pytest.raises(cl.OutOfBoundsError):
        launch.wait()  # ... and by every wait on its event
    with pytest.raises(cl.RuntimeError, match="EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST - an event in the wait list "
                       "failed with status -5: <kernel>:1:71: error: "
                       "out-of-bounds write"):
        dependent.wait()


def test_a_blocking_read_raises_the_failure_of_a_launch_before_it(ctx, queue, checked):
    buf = int_buffer(ctx, np.arange(8))
    checked.past_the_end(queue, (8,), (8,), buf)
    out = np.zeros(8, np.int32)
    with pytest.raises(cl.OutOfBoundsError):
        cl.enqueue_copy(queue, out, buf)
    np.testing.assert_array_equal(out, [0, 1, 1, 1, 1, 1, 1, 1])  # the read itself ran
    queue.finish()


def test_enqueue_time_errors_stay_at_the_call(ctx, queue, prg):
    buf = int_buffer(ctx, np.zeros(N))
    with pytest.raises(cl.LogicError, match="INVALID_ARG_VALUE"):
        prg.add(queue, (N,), None, buf, "seven")
    with pytest.raises(cl.LogicError, match="INVALID_VALUE.*exceed"):
        cl.enqueue_copy(queue, np.zeros(2 * N, np.int32), buf, is_blocking=False)
    queue.finish()


def test_threads_enqueue_into_one_queue(ctx, queue, prg):
    wrong, errors = [], []

    def work(index):
        try:
            buf = cl.Buffer(ctx, mf.READ_WRITE, 4 * N)
            reads = []
            for round_ in range(ROUNDS):
                start = np.full(N, index * 1000 + round_, np.int32)
                out = np.zeros(N, np.int32)
                write = cl.enqueue_copy(queue, buf, start, is_blocking=False)
                launch = prg.add(queue, (N,), None, buf, np.int32(index), wait_for=[write])
                reads.append((out, start + index, cl.enqueue_copy(queue, out, buf, is_blocking=False,
                                                                  wait_for=[launch])))
            cl.wait_for_events([event for *_, event in reads])
            wrong.extend((index, r) for r, (out, expected, _) in enumerate(reads) if not np.array_equal(out, expected))
        except BaseException as exc:  # noqa: BLE001 - reported by the test
            errors.append(repr(exc))

    threads = [threading.Thread(target=work, args=(i,)) for i in range(THREADS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == [] and wrong == []
    queue.finish()


def test_threads_share_a_kernel_across_out_of_order_queues(ctx, prg):
    kernel = prg.add
    errors = []

    def work(index):
        try:
            queue = cl.CommandQueue(ctx, properties=cl.command_queue_properties.OUT_OF_ORDER_EXEC_MODE_ENABLE)
            buf = int_buffer(ctx, np.zeros(N))
            last = None
            for _ in range(ROUNDS):
                last = kernel(queue, (N,), None, buf, np.int32(index), wait_for=[last] if last else None)
            out = np.zeros(N, np.int32)
            cl.enqueue_copy(queue, out, buf, wait_for=[last])
            if not (out == ROUNDS * index).all():
                errors.append((index, out[:4].tolist()))
        except BaseException as exc:  # noqa: BLE001 - reported by the test
            errors.append(repr(exc))

    threads = [threading.Thread(target=work, args=(i,)) for i in range(THREADS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []


def test_python_runs_on_while_a_kernel_runs(ctx, queue, prg):
    flags = np.zeros(2, np.int32)
    flag = cl.Buffer(ctx, mf.READ_WRITE | mf.USE_HOST_PTR, hostbuf=flags)
    out = cl.Buffer(ctx, mf.READ_WRITE, 4 * N)
    launch = prg.spin(queue, (N,), (N,), flag, out)
    behind = cl.enqueue_marker(queue)
    queue.flush()  # hands the launch to the queue's executor thread
    eventually(lambda: flags[1] == 1, "the kernel started")
    assert launch.command_execution_status == status.RUNNING  # running, and this thread runs Python
    total = sum(i * i for i in range(10000))
    assert behind.command_execution_status == status.QUEUED
    flags[0] = 1  # lets the kernel finish
    behind.wait()
    assert total == 333283335000
    assert launch.command_execution_status == status.COMPLETE
    np.testing.assert_array_equal(read(queue, out), np.arange(1, N + 1))


def test_a_big_launch_starts_without_a_flush(ctx, queue, prg):
    flags = np.zeros(2, np.int32)
    flag = cl.Buffer(ctx, mf.READ_WRITE | mf.USE_HOST_PTR, hostbuf=flags)
    big = 1 << 16  # HAND_OFF_WORK_ITEMS: handed to the executor at once
    out = cl.Buffer(ctx, mf.READ_WRITE, 4 * big)
    launch = prg.spin(queue, (big,), (64,), flag, out)
    eventually(lambda: flags[1] == 1, "the kernel started")
    flags[0] = 1
    launch.wait()
    np.testing.assert_array_equal(read(queue, out, big), np.arange(1, big + 1))


def test_commands_never_waited_for_run_at_exit():
    script = textwrap.dedent(
        """
        import numpy as np
        import loomcl as cl
        ctx = cl.create_some_context(interactive=False)
        queue = cl.CommandQueue(ctx)
        prg = cl.Program(ctx, 'kernel void say(int n) { printf("n=%d\\\\n", n); }').build()
        checked = cl.Program(ctx, 'kernel void bad(global int *a) { a[get_global_id(0) + 1] = 1; }').build(
            options="-loomcl-check")
        held = cl.UserEvent(ctx)
        prg.say(queue, (1,), (1,), np.int32(1), wait_for=[held])  # never released: stays
        other = cl.CommandQueue(ctx)
        prg.say(other, (2,), (1,), np.int32(7))
        checked.bad(other, (4,), (4,), cl.Buffer(ctx, cl.mem_flags.READ_WRITE, 16))
        print("end of script", flush=True)
        """)
    env = dict(os.environ, PYTHONPATH=ROOT)
    result = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    assert result.stdout == "end of script\nn=7\nn=7\n"
    assert "loomcl: a command nobody waited for failed: <kernel>:1:58: error: out-of-bounds write in kernel 'bad'" \
        in result.stderr
