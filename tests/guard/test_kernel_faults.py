"""Kernel faults in the default mode: a SIGSEGV/SIGBUS/SIGFPE raised by kernel code becomes a
KernelFaultError on the launching thread, and the process, context and queue stay usable; a fault
outside kernel code still reaches the handler that was there before (faulthandler, or the default)."""
import os
import signal
import sys
import threading
import time

import numpy as np
import pytest

sys.path.insert(0, os.path.dirname(__file__))

import loomcl as cl  # noqa: E402
from loomcl.engine import pool

from guard_helpers import SOURCE, run_script  # noqa: E402

mf = cl.mem_flags
N = 4096


@pytest.fixture(scope="module")
def prg(ctx):
    return cl.Program(ctx, SOURCE).build()


@pytest.fixture(params=[1, 2, 4], ids=lambda t: f"{t}threads")
def threads(request):
    before = pool.get_thread_count()
    pool.set_thread_count(request.param)
    yield request.param
    pool.set_thread_count(before)


def launch_far_write(ctx, queue, prg, bad):
    buf = cl.Buffer(ctx, mf.READ_WRITE, 4 * N)
    prg.far_write(queue, (N,), (64,), buf, np.int32(bad))
    got = np.empty(N, np.int32)
    cl.enqueue_copy(queue, got, buf)
    return got


@pytest.mark.parametrize("bad", [0, 1000, N - 1])
def test_far_write_raises_and_the_queue_stays_usable(ctx, queue, prg, threads, bad):
    for _ in range(3):
        with pytest.raises(cl.KernelFaultError) as info:
            launch_far_write(ctx, queue, prg, bad)
        assert isinstance(info.value, cl.RuntimeError) and isinstance(info.value, cl.Error)
        message = str(info.value)
        assert "kernel 'far_write' faulted: SIGSEGV (address not mapped) at address 0x" in message
        assert message.endswith("run with LOOMCL_CHECK=1 to find the access")
        assert info.value.code == cl.status_code.OUT_OF_RESOURCES
        assert np.array_equal(launch_far_write(ctx, queue, prg, -1), np.arange(N))


def test_fault_address_is_the_far_element(ctx, queue, prg):
    buf = cl.Buffer(ctx, mf.READ_WRITE, 4 * N)
    with pytest.raises(cl.KernelFaultError) as info:
        prg.far_write(queue, (N,), (64,), buf, np.int32(7)).wait()
    address = int(str(info.value).split("at address ")[1].split(";")[0], 16)
    assert address == buf.int_ptr + 4 * (1 << 40)


def test_fault_on_a_worker_thread(ctx, queue, prg):
    before = pool.get_thread_count()
    pool.set_thread_count(2)
    try:
        for _ in range(3):
            flag = cl.Buffer(ctx, mf.READ_WRITE | mf.COPY_HOST_PTR, hostbuf=np.zeros(2, np.int32))
            target = cl.Buffer(ctx, mf.READ_WRITE, 64)
            with pytest.raises(cl.KernelFaultError, match="kernel 'worker_fault' faulted: SIGSEGV"):
                prg.worker_fault(queue, (4 * 64,), (64,), flag, target).wait()
            seen = np.empty(2, np.int32)
            cl.enqueue_copy(queue, seen, flag)
            assert seen.tolist() == [1, 1]  # the faulting groups ran while group 0 was still running
        assert np.array_equal(launch_far_write(ctx, queue, prg, -1), np.arange(N))
    finally:
        pool.set_thread_count(before)


def test_sigfpe_in_kernel_code(ctx, queue, prg):
    """Integer division is guarded in generated code, so a SIGFPE is sent to the launching thread
    while it runs an endless kernel alone; the handler takes it for a fault of that kernel."""
    before = pool.get_thread_count()
    pool.set_thread_count(1)
    try:
        running = np.zeros(2, np.int32)  # running[1] becomes 1 once the kernel runs
        flag = cl.Buffer(ctx, mf.READ_WRITE | mf.USE_HOST_PTR, hostbuf=running)
        out = cl.Buffer(ctx, mf.READ_WRITE, 4 * 64)
        launcher = threading.get_ident()

        def send_once_running():
            while running[1] == 0:
                time.sleep(0.01)
            signal.pthread_kill(launcher, signal.SIGFPE)

        sender = threading.Thread(target=send_once_running)
        sender.start()
        with pytest.raises(cl.KernelFaultError) as info:
            prg.endless(queue, (64,), (64,), flag, out).wait()  # this thread runs it (waiters help)
        sender.join()
        assert "kernel 'endless' faulted: SIGFPE (sent by kill or raise); run with LOOMCL_CHECK=1" in str(info.value)
        assert np.array_equal(launch_far_write(ctx, queue, prg, -1), np.arange(N))
    finally:
        pool.set_thread_count(before)


@pytest.mark.parametrize("threads", [1, 3])
def test_fault_in_a_fresh_process(threads):
    result = run_script(
        """
        try:
            prg.far_write(queue, (n,), (64,), out, np.int32(100)).wait()
        except cl.KernelFaultError as exc:
            print("caught", exc, flush=True)
        check_fill()
        """,
        threads=threads,
    )
    assert result.returncode == 0, result.stderr
    assert "caught clEnqueueNDRangeKernel failed: OUT_OF_RESOURCES - kernel 'far_write' faulted" in result.stdout
    assert result.stdout.endswith("fill ok\n")


FAULT_OUTSIDE_KERNELS = """
check_fill()
time.sleep(0.01)
ctypes.string_at(0)
print("survived", flush=True)
"""


def test_fault_outside_kernel_code_reaches_faulthandler():
    result = run_script("faulthandler.enable()\n" + FAULT_OUTSIDE_KERNELS)
    assert result.returncode == -signal.SIGSEGV
    assert "fill ok" in result.stdout and "survived" not in result.stdout
    assert "Fatal Python error: Segmentation fault" in result.stderr
    assert "string_at" in result.stderr  # faulthandler's traceback of the faulting thread


def test_faulthandler_enabled_after_the_guard_still_dumps():
    body = "check_fill()\nfaulthandler.enable()\n" + FAULT_OUTSIDE_KERNELS
    result = run_script(body)
    assert result.returncode == -signal.SIGSEGV
    assert "Fatal Python error: Segmentation fault" in result.stderr


def test_fault_outside_kernel_code_without_a_handler_ends_the_process():
    result = run_script(FAULT_OUTSIDE_KERNELS)
    assert result.returncode == -signal.SIGSEGV
    assert "fill ok" in result.stdout and "survived" not in result.stdout


def test_fault_in_a_forked_child(ctx, queue, prg):
    assert np.array_equal(launch_far_write(ctx, queue, prg, -1), np.arange(N))  # the parent's pool runs
    pid = os.fork()
    if pid == 0:
        try:
            try:
                launch_far_write(ctx, queue, prg, 3)
                os._exit(3)
            except cl.KernelFaultError:
                pass
            os._exit(0 if np.array_equal(launch_far_write(ctx, queue, prg, -1), np.arange(N)) else 1)
        except BaseException:
            os._exit(2)
    _, status = os.waitpid(pid, 0)
    assert os.waitstatus_to_exitcode(status) == 0
    assert np.array_equal(launch_far_write(ctx, queue, prg, -1), np.arange(N))


def test_a_launch_stopped_with_a_status_claims_no_more_groups():
    """`loomcl_pool_stop` (for checked mode): the status comes back from the run and no participant
    claims another group. A fresh NativePool, alone on the caller, with a Python entry function."""
    import ctypes

    from loomcl.engine import native_pool as worker_pool
    from loomcl.engine.guard import STATUS_CHECK

    native = worker_pool.NativePool()
    arenas = (ctypes.c_void_p * 1)(None)
    slots = (ctypes.c_uint8 * worker_pool.SLOT_BYTES)()
    native.configure(0, 0, ctypes.addressof(arenas), ctypes.addressof(slots), 1)
    stop = ctypes.CFUNCTYPE(None, ctypes.c_int32)(native.stop_address)
    seen = []

    def entry(args, launch, begin, end, arena):
        seen.append((begin, end))
        if end == 12:  # the first chunk of a 100-group launch
            stop(STATUS_CHECK)

    function = ctypes.CFUNCTYPE(None, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int64, ctypes.c_int64,
                                ctypes.c_void_p)(entry)
    region = worker_pool.RegionDesc(ctypes.cast(function, ctypes.c_void_p).value, None, None, 0, 100)
    request = worker_pool.LaunchRequest(ctypes.addressof(region), 1, 100)
    assert native.run(ctypes.addressof(request)) == STATUS_CHECK
    assert seen == [(0, 12)]  # chunks of 12 groups (about 8 per participant), then no more
    seen.clear()
    assert native.run(ctypes.addressof(request)) == STATUS_CHECK  # the status is per launch...
    region.count = request.total = 3
    seen.clear()
    assert native.run(ctypes.addressof(request)) == 0  # ...and cleared by the next one
    assert seen == [(0, 1), (1, 2), (2, 3)]
    native.configure(0, 1, ctypes.addressof(arenas), ctypes.addressof(slots), 1)


def test_a_launching_thread_gets_an_alternate_signal_stack(ctx, queue, prg):
    """Where a kernel overflows its stack, the fault handler runs on the alternate stack."""
    import ctypes

    class Stack(ctypes.Structure):
        _fields_ = [("sp", ctypes.c_void_p), ("flags", ctypes.c_int), ("size", ctypes.c_size_t)]

    sigaltstack = ctypes.CDLL(None).sigaltstack
    seen = {}

    def launch():
        before = Stack()
        sigaltstack(None, ctypes.byref(before))
        launch_far_write(ctx, queue, prg, -1)
        after = Stack()
        sigaltstack(None, ctypes.byref(after))
        seen.update(before=before.flags & 2, after=after.flags & 2, size=after.size)

    thread = threading.Thread(target=launch)
    thread.start()
    thread.join()
    assert seen == {"before": 2, "after": 0, "size": 64 * 1024}  # SS_DISABLE before, 64 KiB after


def test_sigbus_from_a_truncated_mapped_file(ctx, queue, prg, tmp_path):
    """A USE_HOST_PTR buffer over a mapped file that shrank: the kernel's stores hit pages past the
    end of the file, which raises SIGBUS."""
    path = tmp_path / "mapped.bin"
    path.write_bytes(bytes(4 * N))
    mapped = np.memmap(path, dtype=np.int32, mode="r+", shape=(N,))
    buf = cl.Buffer(ctx, mf.READ_WRITE | mf.USE_HOST_PTR, hostbuf=mapped)
    assert buf.int_ptr == mapped.ctypes.data
    os.truncate(path, 0)
    with pytest.raises(cl.KernelFaultError) as info:
        prg.fill(queue, (N,), (64,), buf, np.int32(1)).wait()
    message = str(info.value)
    assert "kernel 'fill' faulted: SIGBUS (nonexistent physical address) at address 0x" in message
    address = int(message.split("at address ")[1].split(";")[0], 16)
    assert buf.int_ptr <= address < buf.int_ptr + 4 * N  # the first page some participant touched
    assert np.array_equal(launch_far_write(ctx, queue, prg, -1), np.arange(N))


def test_what_a_faulting_kernel_printed_before_the_fault_is_printed(ctx, queue, capsys):
    program = cl.Program(ctx, """
    __kernel void say_then_fault(__global int *p) {
        if (get_global_id(0) == 0) printf("before the fault: %d\\n", 42);
        barrier(CLK_GLOBAL_MEM_FENCE);
        if (get_global_id(0) == 0) p[1L << 40] = 1;
    }""").build()
    before = pool.get_thread_count()
    pool.set_thread_count(1)
    try:
        with pytest.raises(cl.KernelFaultError, match="kernel 'say_then_fault' faulted: SIGSEGV"):
            program.say_then_fault(queue, (64,), (64,), cl.Buffer(ctx, mf.READ_WRITE, 4 * 64)).wait()
    finally:
        pool.set_thread_count(before)
    assert capsys.readouterr().out == "before the fault: 42\n"
