"""The ICD across its host's life: OpenCL objects released by a C++ library's static destructors
after the host's Python has finalized (a Python host loading the library with ctypes, and a C++
host), and Ctrl-C stopping an endless kernel launched by pyopencl through the ICD."""
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
import numpy as np
import pyopencl as cl

ctx = cl.create_some_context(interactive=False)
queue = cl.CommandQueue(ctx)
program = cl.Program(ctx, '''
kernel void spin(global int *data, int stop) { int i = 0; while (data[0] != stop) i++; data[1] = i; }
kernel void add_one(global int *data) { data[get_global_id(0)] += 1; }
''').build()
data = cl.Buffer(ctx, cl.mem_flags.READ_WRITE | cl.mem_flags.COPY_HOST_PTR, hostbuf=np.zeros(4, np.int32))
program.spin(queue, (1,), None, data, np.int32(7))
print("spinning", flush=True)
try:
    queue.finish()
except cl.Error as error:
    print("pyopencl:", error, flush=True)
program.add_one(queue, (4,), None, data)
out = np.empty(4, np.int32)
cl.enqueue_copy(queue, out, data)
print("after:", out.tolist(), flush=True)
"""


def _cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")  # utime + stime


def test_ctrl_c_stops_an_endless_kernel_through_the_icd(icd_vendor_under_test, tmp_path):
    pytest.importorskip("pyopencl")
    script = tmp_path / "endless.py"
    script.write_text(ENDLESS)
    env = {**os.environ, **icd_vendor_under_test.environment()}
    # (as from a terminal: a test run in the background would pass SIGINT on ignored)
    child = subprocess.Popen([sys.executable, str(script)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                             env=env, preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    try:
        assert child.stdout.readline() == "spinning\n"
        start = _cpu_seconds(child.pid)  # the kernel is running once the process keeps a core busy
        deadline = time.monotonic() + TIMEOUT_S
        while _cpu_seconds(child.pid) - start < 1.0 and time.monotonic() < deadline:
            time.sleep(0.1)
        child.send_signal(signal.SIGINT)
        out, err = child.communicate(timeout=TIMEOUT_S)
    finally:
        child.kill()
    assert child.returncode == 0, err
    assert "pyopencl: clFinish failed: OUT_OF_RESOURCES\n" in out, out
    assert "after: [1, 1, 1, 1]\n" in out  # the queue and the buffer still work; spin's data[1] never written
    assert "Ctrl-C (SIGINT) stopped" in err or "was interrupted (SIGINT)" in err, err
    assert "bug in loomcl" not in err and "Traceback" not in err, err
