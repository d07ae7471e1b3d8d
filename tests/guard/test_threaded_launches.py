"""Several Python threads using one context, queue, program and Kernel object at once: each launch
binds its own arguments (a Kernel's argument slots never mix between concurrent calls)."""
import os
import sys
import threading

import numpy as np

sys.path.insert(0, os.path.dirname(__file__))

import loomcl as cl  # noqa: E402

from guard_helpers import SOURCE  # noqa: E402

mf = cl.mem_flags
THREADS = 8
LAUNCHES = 40
N = 2048


def run_threads(work):
    errors = []

    def guarded(index):
        try:
            work(index)
        except BaseException as exc:  # noqa: BLE001 - reported by the test
            errors.append((index, repr(exc)))

    threads = [threading.Thread(target=guarded, args=(i,)) for i in range(THREADS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []


def test_one_kernel_object_launched_from_eight_threads():
    ctx = cl.create_some_context(interactive=False)
    queue = cl.CommandQueue(ctx)
    kernel = cl.Kernel(cl.Program(ctx, SOURCE).build(), "fill")
    wrong = []

    def work(index):
        out = cl.Buffer(ctx, mf.READ_WRITE, 4 * N)
        got = np.empty(N, np.int32)
        for launch in range(LAUNCHES):
            scale = index * 1000 + launch
            kernel(queue, (N,), (64,), out, np.int32(scale))
            cl.enqueue_copy(queue, got, out)
            queue.finish()
            if not np.array_equal(got, scale * np.arange(N, dtype=np.int32)):
                wrong.append((index, launch))

    run_threads(work)
    assert wrong == []


def test_threads_build_and_launch_with_their_own_queues():
    ctx = cl.create_some_context(interactive=False)
    program = cl.Program(ctx, SOURCE).build()
    wrong = []

    def work(index):
        queue = cl.CommandQueue(ctx)
        out = cl.Buffer(ctx, mf.READ_WRITE, 4 * N)
        got = np.empty(N, np.int32)
        mine = cl.Program(ctx, SOURCE).build() if index % 2 else program
        for launch in range(LAUNCHES // 4):
            mine.fill(queue, (N,), None, out, np.int32(index - launch))
            cl.enqueue_copy(queue, got, out)
            if not np.array_equal(got, (index - launch) * np.arange(N, dtype=np.int32)):
                wrong.append((index, launch))

    run_threads(work)
    assert wrong == []


def test_a_fault_in_one_thread_leaves_the_others_correct():
    """Each thread has its own queue (a fault is raised by waits on its queue), all share one kernel."""
    ctx = cl.create_some_context(interactive=False)
    program = cl.Program(ctx, SOURCE).build()
    kernel = program.far_write
    faults, wrong = [], []

    def work(index):
        queue = cl.CommandQueue(ctx)
        out = cl.Buffer(ctx, mf.READ_WRITE, 4 * N)
        got = np.empty(N, np.int32)
        for launch in range(LAUNCHES // 4):
            bad = 5 if index % 2 else -1
            try:
                kernel(queue, (N,), (64,), out, np.int32(bad)).wait()
            except cl.KernelFaultError:
                faults.append(index)
                continue
            cl.enqueue_copy(queue, got, out)
            if not np.array_equal(got, np.arange(N)):
                wrong.append((index, launch))

    run_threads(work)
    assert wrong == []
    assert sorted(set(faults)) == [1, 3, 5, 7] and len(faults) == 4 * (LAUNCHES // 4)
