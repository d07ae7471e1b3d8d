"""One owner of LLVM in the process (jit/llvm.py): builds and launches from several threads at once,
and an exit right after them while micro-profiling still compiles variants in the background, leave
correct results and a clean exit; after the door closes at exit, LLVM is refused, not touched.

Each case runs in a fresh interpreter with a private, empty object cache (so every kernel is compiled
and loaded, not found on disk)."""
import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

THREADS_THEN_EXIT = """
import json, sys, threading
import numpy as np
import loomcl as cl

THREADS = 4
ctx = cl.create_some_context(interactive=False)
results, errors = {}, []

def work(k):
    try:
        queue = cl.CommandQueue(ctx)
        source = f'''__kernel void f(__global const float *a, __global float *out) {{
            int i = get_global_id(0);
            out[i] = a[i] * {k + 2}.0f + sin(a[i]) * {k}.0f;
        }}'''
        program = cl.Program(ctx, source).build()
        a = np.linspace(-3, 3, 1 << 20).astype(np.float32)
        a_buf = cl.Buffer(ctx, cl.mem_flags.READ_ONLY | cl.mem_flags.COPY_HOST_PTR, hostbuf=a)
        out = cl.Buffer(ctx, cl.mem_flags.WRITE_ONLY, a.nbytes)
        got = np.empty_like(a)
        for _ in range(3):  # launched again: micro-profiling starts compiling variants in the background
            program.f(queue, a.shape, None, a_buf, out)
        cl.enqueue_copy(queue, got, out)
        queue.finish()
        want = a * (k + 2) + np.sin(a) * k
        results[k] = bool(np.allclose(got, want, rtol=1e-5, atol=1e-5))
    except BaseException as exc:
        errors.append(repr(exc))

threads = [threading.Thread(target=work, args=(k,)) for k in range(THREADS)]
for thread in threads:
    thread.start()
for thread in threads:
    thread.join()
print(json.dumps({"results": results, "errors": errors}), flush=True)
# and exit at once: background variant compiles may still be under way
"""

AFTER_CLOSE = """
from loomcl.jit import llvm
llvm.host()                         # LLVM in use before the exit
llvm.close()                        # what atexit does
try:
    llvm.load_object(b"", "f")
except llvm.LLVMClosed as exc:
    print("refused:", exc)
"""


def _run(code: str, tmp_path) -> subprocess.CompletedProcess:
    env = dict(os.environ, LOOMCL_CACHE_DIR=str(tmp_path / "cache"))
    env.pop("LOOMCL_MICROPROFILE", None)  # the default: variants compile in the background
    return subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=600)


def test_threads_build_and_launch_then_the_process_exits_cleanly(tmp_path):
    for attempt in range(2):  # the race at exit needs a background compile under way: try twice
        result = _run(THREADS_THEN_EXIT, tmp_path / str(attempt))
        assert result.returncode == 0, result.stderr[-3000:]
        report = json.loads(result.stdout.splitlines()[-1])
        assert report["errors"] == []
        assert report["results"] == {str(k): True for k in range(4)}
        assert "Assertion" not in result.stderr and "LLVM ERROR" not in result.stderr, result.stderr[-3000:]


def test_after_the_door_closes_llvm_is_refused(tmp_path):
    result = _run(AFTER_CLOSE, tmp_path)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "refused: LLVM is closed: the interpreter is exiting"
