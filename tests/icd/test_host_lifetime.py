"""The ICD across its host's life: OpenCL objects released by a C++ library's static destructors
after the host's Python has finalized (a Python host loading the library with ctypes, and a C++
host), and Ctrl-C stopping an endless kernel: a KeyboardInterrupt in a pyopencl host, SIGINT's own
meaning in a C host (lifetime/interrupted.c)."""
from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from icd_skips import unavailable

HERE = Path(__file__).resolve().parent / "lifetime"
TIMEOUT_S = 120


@pytest.fixture(scope="module")
def _library(tmp_path_factory):
    """static_objects.cpp as a shared library and host.cpp linked with it, or why they cannot be."""
    if shutil.which("g++") is None:
        return "g++ is not installed (apt-get install g++)"
    out = tmp_path_factory.mktemp("lifetime")
    library = out / "libstatic_objects.so"
    for command in (["g++", "-shared", "-fPIC", "-O1", "-o", str(library), str(HERE / "static_objects.cpp"), "-lOpenCL"],
                    ["g++", "-O1", "-o", str(out / "host"), str(HERE / "host.cpp"), str(library),
                     f"-Wl,-rpath,{out}"]):
        done = subprocess.run(command, capture_output=True, text=True, timeout=TIMEOUT_S)
        if "CL/cl.h" in done.stderr or "-lOpenCL" in done.stderr:
            return f"the OpenCL headers or loader are not installed: {done.stderr.strip().splitlines()[0]}"
        assert done.returncode == 0, done.stderr
    return out


@pytest.fixture
def built(_library) -> Path:
    if isinstance(_library, str):
        unavailable(_library)
    return _library


def _run(command, vendor, **kwargs):
    env = {**os.environ, **vendor.environment()}
    return subprocess.run(command, capture_output=True, text=True, timeout=TIMEOUT_S, env=env, **kwargs)


def test_static_objects_released_after_python_finalized(built, icd_vendor_under_test):
    script = (f"import ctypes\nlibrary = ctypes.CDLL({str(built / 'libstatic_objects.so')!r})\n"
              "assert library.static_objects_run() == 0\nprint('ran')\n")
    done = _run([sys.executable, "-c", script], icd_vendor_under_test)
    assert done.returncode == 0, f"exit status {done.returncode}:\n{done.stderr}"
    assert done.stdout == "ran\n" and "static_objects: released at exit" in done.stderr
    assert "internal error" not in done.stderr


def test_static_objects_released_at_a_cpp_hosts_exit(built, icd_vendor_under_test):
    done = _run([str(built / "host")], icd_vendor_under_test)
    assert done.returncode == 0, f"exit status {done.returncode}:\n{done.stderr}"
    assert done.stdout == "static_objects: PASS\n" and "static_objects: released at exit" in done.stderr


ENDLESS = """
import sys

import numpy as np
import pyopencl as cl

ctx = cl.create_some_context(interactive=False)
queue = cl.CommandQueue(ctx)
program = cl.Program(ctx, '''
kernel void spin(global int *data, int stop) { int i = 0; while (data[0] != stop) i++; data[1] = i; }
kernel void add_one(global int *data) { data[get_global_id(0)] += 1; }
''').build()
spin, add_one = program.spin, program.add_one
data = cl.Buffer(ctx, cl.mem_flags.READ_WRITE | cl.mem_flags.COPY_HOST_PTR, hostbuf=np.zeros(4, np.int32))
out = np.empty(4, np.int32)


def spin_and_wait():
    spinning = spin(queue, (1,), None, data, np.int32(7))
    print("spinning", flush=True)
    if sys.argv[1] == "finish":
        queue.finish()
    elif sys.argv[1] == "event":
        spinning.wait()
    else:
        cl.enqueue_copy(queue, out, data)


try:
    spin_and_wait()
except KeyboardInterrupt:
    print("KeyboardInterrupt caught", flush=True)
add_one(queue, (4,), None, data)
cl.enqueue_copy(queue, out, data)
print("after:", out.tolist(), flush=True)
spin_and_wait()
print("not interrupted", flush=True)
"""


def _interrupt_when_spinning(child) -> None:
    """SIGINT to `child` once it has printed "spinning" and then kept a core busy for a second."""
    assert child.stdout.readline() == "spinning\n"
    start = _cpu_seconds(child.pid)  # the kernel is running once the process keeps a core busy
    deadline = time.monotonic() + TIMEOUT_S
    while _cpu_seconds(child.pid) - start < 1.0 and time.monotonic() < deadline:
        time.sleep(0.1)
    child.send_signal(signal.SIGINT)


def _start(command, vendor):
    # (as from a terminal: a test run in the background would pass SIGINT on ignored)
    return subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env={**os.environ, **vendor.environment()},
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))


@pytest.mark.parametrize("wait", ["finish", pytest.param("event", marks=pytest.mark.slow),
                                  pytest.param("copy", marks=pytest.mark.slow)])
def test_ctrl_c_through_the_icd_is_a_keyboard_interrupt_in_python(wait, icd_vendor_under_test, tmp_path):
    """As through the native API: the wait that Ctrl-C interrupts raises KeyboardInterrupt, the queue
    works after it, and an uncaught one ends the script by SIGINT (a shell's exit status 130)."""
    pytest.importorskip("pyopencl")
    script = tmp_path / "endless.py"
    script.write_text(ENDLESS)
    child = _start([sys.executable, str(script), wait], icd_vendor_under_test)
    try:
        _interrupt_when_spinning(child)
        assert child.stdout.readline() == "KeyboardInterrupt caught\n"
        assert child.stdout.readline() == "after: [1, 1, 1, 1]\n"  # spin's data[1] never written
        _interrupt_when_spinning(child)
        out, err = child.communicate(timeout=TIMEOUT_S)
    finally:
        child.kill()
    assert child.returncode == -signal.SIGINT, err
    assert out == "" and err.startswith("Traceback") and err.endswith("\nKeyboardInterrupt\n"), err
    assert "spin_and_wait()" in err and "loomcl" not in err, err  # the user's lines, nothing from loomcl


@pytest.fixture(scope="module")
def _interrupted_host(tmp_path_factory):
    """lifetime/interrupted.c built, or why it cannot be."""
    if shutil.which("gcc") is None:
        return "gcc is not installed (apt-get install gcc)"
    program = tmp_path_factory.mktemp("interrupted") / "interrupted"
    done = subprocess.run(["gcc", "-std=c11", "-D_POSIX_C_SOURCE=200809L", "-O1", "-Wall", "-Wextra", "-Werror",
                           "-o", str(program), str(HERE / "interrupted.c"), "-lOpenCL"],
                          capture_output=True, text=True, timeout=TIMEOUT_S)
    if "CL/cl.h" in done.stderr or "-lOpenCL" in done.stderr:
        return f"the OpenCL headers or loader are not installed: {done.stderr.strip().splitlines()[0]}"
    assert done.returncode == 0, done.stderr
    return program


def test_ctrl_c_keeps_its_default_meaning_in_a_c_host(_interrupted_host, icd_vendor_under_test):
    if isinstance(_interrupted_host, str):
        unavailable(_interrupted_host)
    child = _start([str(_interrupted_host)], icd_vendor_under_test)
    try:
        _interrupt_when_spinning(child)
        out, err = child.communicate(timeout=TIMEOUT_S)
    finally:
        child.kill()
    assert child.returncode == -signal.SIGINT and out == "", (out, err)


def test_ctrl_c_under_a_c_hosts_own_handler_stops_the_kernel(_interrupted_host, icd_vendor_under_test):
    """The host's handler runs, the wait returns an error status, and the queue works after it."""
    if isinstance(_interrupted_host, str):
        unavailable(_interrupted_host)
    child = _start([str(_interrupted_host), "handler"], icd_vendor_under_test)
    try:
        _interrupt_when_spinning(child)
        out, err = child.communicate(timeout=TIMEOUT_S)
    finally:
        child.kill()
    assert child.returncode == 0, err
    assert out == "wait: -5 handled: 1\nafter: 1 1 1 1\n", (out, err)  # -5: CL_OUT_OF_RESOURCES
    assert "kernel 'spin' was interrupted (SIGINT)" in err and "bug in loomcl" not in err, err


def _cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")  # utime + stime
