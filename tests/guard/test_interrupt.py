"""Ctrl-C: SIGINT during a launch stops it, also when a work-item never terminates. The main thread
gets KeyboardInterrupt, another launching thread KernelInterruptedError, and later launches work.
Each test runs in a fresh interpreter and sends itself a real SIGINT."""
import os
import signal
import sys

import pytest

sys.path.insert(0, os.path.dirname(__file__))

from guard_helpers import run_script  # noqa: E402

ENDLESS = """
def interrupt_soon():
    once_running(os.kill, os.getpid(), signal.SIGINT)
"""


@pytest.mark.parametrize("threads", [1, 2, 4])
def test_ctrl_c_stops_an_endless_kernel(threads):
    result = run_script(
        ENDLESS,
        """
        for attempt in range(2):
            interrupt_soon()
            try:
                prg.endless(queue, (n,), (64,), flag, out).wait()
                print("finished", flush=True)
            except KeyboardInterrupt:
                print("KeyboardInterrupt", flush=True)
            check_fill(attempt + 2)
        """,
        threads=threads,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines() == ["KeyboardInterrupt", "fill ok"] * 2


def test_sigint_taken_by_a_worker_thread_in_kernel_code():
    """The worker that takes the SIGINT is itself in an endless work-item: it leaves kernel code only
    after Python's handler has seen the signal (the main thread raises KeyboardInterrupt)."""
    result = run_script(
        ENDLESS,
        """
        check_fill()  # starts the workers
        worker = next(t for t in threading.enumerate() if t.name == "loomcl-worker-0")
        once_running(signal.pthread_kill, worker.ident, signal.SIGINT)
        try:
            prg.endless(queue, (n,), (64,), flag, out).wait()
            print("finished", flush=True)
        except KeyboardInterrupt:
            print("KeyboardInterrupt", flush=True)
        check_fill(4)
        """,
        threads=2,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines() == ["fill ok", "KeyboardInterrupt", "fill ok"]


def test_ctrl_c_stops_a_launch_of_another_thread():
    result = run_script(
        ENDLESS,
        """
        outcome = []
        done = threading.Event()
        def launch():
            try:
                prg.endless(queue, (n,), (64,), flag, out).wait()
                outcome.append("finished")
            except cl.KernelInterruptedError as exc:
                outcome.append(str(exc))
            done.set()
        thread = threading.Thread(target=launch)
        thread.start()
        interrupt_soon()
        try:
            while not done.is_set():  # (not join: in Python 3.11 an interrupted join may not wait again)
                time.sleep(0.05)
        except KeyboardInterrupt:
            print("main: KeyboardInterrupt", flush=True)
        done.wait()
        print("thread:", outcome[0], flush=True)
        check_fill()
        """
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines() == [
        "main: KeyboardInterrupt",
        "thread: kernel 'endless' was interrupted (SIGINT) before it finished (clEnqueueNDRangeKernel: "
        "OUT_OF_RESOURCES)",
        "fill ok",
    ]


def test_a_sigint_handler_of_the_program_still_runs():
    result = run_script(
        ENDLESS,
        """
        seen = []
        signal.signal(signal.SIGINT, lambda signum, frame: seen.append(signum))
        interrupt_soon()
        try:
            prg.endless(queue, (n,), (64,), flag, out).wait()
        except cl.KernelInterruptedError as exc:
            print("interrupted:", "was interrupted (SIGINT)" in str(exc), flush=True)
        print("handler saw", seen, flush=True)
        check_fill()
        """
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines() == ["interrupted: True", "handler saw [2]", "fill ok"]


def test_sigint_outside_a_launch_is_python_s():
    result = run_script(
        """
        check_fill()
        try:
            os.kill(os.getpid(), signal.SIGINT)
            time.sleep(5)
        except KeyboardInterrupt:
            print("KeyboardInterrupt", flush=True)
        check_fill(5)
        """
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines() == ["fill ok", "KeyboardInterrupt", "fill ok"]


def test_default_sigint_still_ends_the_process():
    result = run_script(
        """
        signal.signal(signal.SIGINT, signal.SIG_DFL)
        check_fill()
        os.kill(os.getpid(), signal.SIGINT)
        time.sleep(5)
        print("survived", flush=True)
        """
    )
    assert result.returncode == -signal.SIGINT
    assert result.stdout == "fill ok\n"
