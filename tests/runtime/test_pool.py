"""The native worker pool: thread counts, the one-thread mode, and exit with parked workers."""
import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import loomcl as cl
from loomcl.engine import pool

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))

SCRIPT = textwrap.dedent(
    """
    import sys, threading
    sys.path.insert(0, {here!r})
    import numpy as np
    import loomcl as cl
    from loomcl.runtime import program
    from loomcl.engine import pool
    from kernels import fake_build
    program.compile_source = fake_build
    ctx = cl.create_some_context()
    queue = cl.CommandQueue(ctx)
    prg = cl.Program(ctx, "x").build()
    n = 1 << 16
    count = cl.Buffer(ctx, cl.mem_flags.READ_WRITE, 4 * n)
    scratch = [cl.Buffer(ctx, cl.mem_flags.READ_WRITE, 12 * n) for _ in range(3)]
    for _ in range(20):
        prg.record(queue, (n,), (16,), count, *scratch)
    got = np.empty(n, np.int32)
    cl.enqueue_copy(queue, got, count)
    assert (got == 20).all()
    workers = [t for t in threading.enumerate() if t.name.startswith("loomcl-worker")]
    print("threads", pool.get_thread_count(), "workers", len(workers))
    """
)


def run_script(env_threads):
    env = dict(os.environ, PYTHONPATH=ROOT)
    env.pop("LOOMCL_THREADS", None)
    if env_threads is not None:
        env["LOOMCL_THREADS"] = env_threads
    return subprocess.run(
        [sys.executable, "-c", SCRIPT.format(here=HERE)], env=env, capture_output=True, text=True, timeout=120
    )


def test_one_thread_mode_runs_on_the_caller():
    result = run_script("1")
    assert result.returncode == 0, result.stderr
    assert "threads 1 workers 0" in result.stdout


def test_more_threads_than_cores_and_clean_exit():
    result = run_script("4")
    assert result.returncode == 0, result.stderr
    assert "threads 4 workers 3" in result.stdout


def test_bad_thread_variable_is_reported():
    result = run_script("zero")
    assert result.returncode != 0 and "LOOMCL_THREADS" in result.stderr


@pytest.mark.parametrize("threads", [1, 3, 2])
def test_set_thread_count_between_launches(ctx, queue, prg, threads):
    previous = pool.get_thread_count()
    n = 1 << 15
    count = cl.Buffer(ctx, cl.mem_flags.READ_WRITE, 4 * n)
    scratch = [cl.Buffer(ctx, cl.mem_flags.READ_WRITE, 12 * n) for _ in range(3)]
    try:
        pool.set_thread_count(threads)
        assert pool.get_thread_count() == threads
        for _ in range(50):
            prg.record(queue, (n,), (8,), count, *scratch)
    finally:
        pool.set_thread_count(previous)
    got = np.empty(n, np.int32)
    cl.enqueue_copy(queue, got, count)
    assert (got == 50).all()


def test_thread_count_must_be_positive():
    with pytest.raises(ValueError):
        pool.set_thread_count(0)


def test_chunk_size():
    p = pool.WorkerPool(2)
    assert p.chunk_size(1) == 1 and p.chunk_size(64) == 4 and p.chunk_size(10**9) == 1024


def test_forked_child_gets_a_working_pool(ctx, queue, prg):
    n = 1 << 14
    count = cl.Buffer(ctx, cl.mem_flags.READ_WRITE, 4 * n)
    scratch = [cl.Buffer(ctx, cl.mem_flags.READ_WRITE, 12 * n) for _ in range(3)]
    prg.record(queue, (n,), (8,), count, *scratch)  # the parent's pool is running
    pid = os.fork()
    if pid == 0:
        try:
            for _ in range(10):
                prg.record(queue, (n,), (8,), count, *scratch)
            got = np.empty(n, np.int32)
            cl.enqueue_copy(queue, got, count)
            os._exit(0 if (got == 11).all() else 1)
        except BaseException:
            os._exit(2)
    _, status = os.waitpid(pid, 0)
    assert os.waitstatus_to_exitcode(status) == 0


def test_native_pool_is_jitted_by_codegen_and_runs_a_launch_alone():
    """A fresh NativePool (as a forked child makes) compiles through jit/llvm.py and runs a launch
    on the caller when no worker is allowed: an empty one, then one region of a few groups."""
    import ctypes

    from loomcl.jit import llvm
    from loomcl.engine import native_pool as worker_pool

    engines = llvm.engine_count()
    native = worker_pool.NativePool()
    assert llvm.engine_count() == engines + 1
    arenas = (ctypes.c_void_p * 1)(None)
    slots = (ctypes.c_uint8 * worker_pool.SLOT_BYTES)()
    native.configure(0, 0, ctypes.addressof(arenas), ctypes.addressof(slots), 1)
    empty = worker_pool.LaunchRequest(None, 0, 0)
    assert native.run(ctypes.addressof(empty)) == 0

    seen = []
    entry = ctypes.CFUNCTYPE(None, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int64, ctypes.c_int64,
                             ctypes.c_void_p)(lambda args, launch, begin, end, arena: seen.append((begin, end)))
    region = worker_pool.RegionDesc(ctypes.cast(entry, ctypes.c_void_p).value, None, None, 0, 5)
    request = worker_pool.LaunchRequest(ctypes.addressof(region), 1, 5)
    assert native.run(ctypes.addressof(request)) == 0
    assert sorted(seen) == [(group, group + 1) for group in range(5)]  # chunks of one group
    native.configure(0, 1, ctypes.addressof(arenas), ctypes.addressof(slots), 1)


def test_a_launch_noted_solo_starts_on_the_caller_and_shares_what_is_left_after_solo_ns():
    """A request's `solo` note (worker_pool.SOLO_NS): noted solo, the caller starts alone; once SOLO_NS
    have passed (each call of the group function sleeps 1 ms) it claims no more chunks alone, the
    groups left are shared, and the note is cleared; the next run is shared from the start. Every
    group runs exactly once."""
    import ctypes
    import threading
    import time

    from loomcl.engine import native_pool as worker_pool

    native = worker_pool.NativePool()
    arenas = (ctypes.c_void_p * 2)(None, None)
    slots = (ctypes.c_uint8 * (2 * worker_pool.SLOT_BYTES))()
    native.configure(1, 0, ctypes.addressof(arenas), ctypes.addressof(slots), 2)
    worker = threading.Thread(target=native.worker, args=(0,), daemon=True)
    worker.start()
    calls = []

    def groups_run(args, launch, begin, end, arena):
        calls.append((begin, end, threading.get_ident()))
        time.sleep(0.001)

    def each_group_once() -> bool:
        ranges = sorted((begin, end) for begin, end, _ in calls)
        return [group for begin, end in ranges for group in range(begin, end)] == list(range(groups))

    entry = ctypes.CFUNCTYPE(None, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int64, ctypes.c_int64,
                             ctypes.c_void_p)(groups_run)
    groups = 64
    region = worker_pool.RegionDesc(ctypes.cast(entry, ctypes.c_void_p).value, None, None, 0, groups)
    request = worker_pool.LaunchRequest(ctypes.addressof(region), 1, groups, 1)
    try:
        assert native.run(ctypes.addressof(request)) == 0
        assert each_group_once()
        assert len(calls) > 1  # claimed in chunks
        assert min(calls)[2] == threading.get_ident()  # the first chunk: the caller's, alone
        assert request.solo == 0  # it took over a millisecond: share the next one
        calls.clear()
        assert native.run(ctypes.addressof(request)) == 0
        assert each_group_once()
        assert len(calls) > 1  # claimed in chunks, for the worker to share
        assert request.solo == 0  # the caller's part alone took milliseconds
    finally:
        native.configure(0, 1, ctypes.addressof(arenas), ctypes.addressof(slots), 2)
        worker.join(timeout=60)
