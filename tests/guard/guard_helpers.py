"""Kernels and a subprocess runner for the guard tests (faults, Ctrl-C, threads)."""
from __future__ import annotations

import os
import subprocess
import sys
import textwrap

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

SOURCE = """
__kernel void far_write(__global int *p, int bad) {
    int i = get_global_id(0);
    if (i == bad) p[1L << 40] = 1;
    else p[i] = i;
}
__kernel void fill(__global int *out, int scale) { int i = get_global_id(0); out[i] = scale * i; }
/* flag[1] = 1 says that kernel code runs (the tests signal only then); flag[0] is never set. */
__kernel void endless(__global volatile int *flag, __global int *out) {
    int i = get_global_id(0);
    flag[1] = 1;
    while (flag[0] == 0) { }
    out[i] = i;
}
/* Group 0 waits (bounded) for another group to raise flag[0]; every other group raises it and
   faults. The caller claims group 0 first, so the fault happens on a worker thread; flag[1] says
   that group 0 saw the flag, i.e. that another thread ran a faulting group meanwhile. */
__kernel void worker_fault(__global volatile int *flag, __global int *p) {
    if (get_group_id(0) == 0) {
        if (get_local_id(0) == 0) {
            for (long k = 0; k < 20000000000L && flag[0] == 0; k++) { }
            flag[1] = flag[0];
        }
    } else {
        flag[0] = 1;
        p[1L << 40] = 1;
    }
}
"""

PRELUDE = textwrap.dedent(
    """
    import ctypes, faulthandler, os, signal, sys, threading, time
    import numpy as np
    import loomcl as cl
    sys.path.insert(0, {here!r})
    from guard_helpers import SOURCE
    ctx = cl.create_some_context(interactive=False)
    queue = cl.CommandQueue(ctx)
    prg = cl.Program(ctx, SOURCE).build()
    mf = cl.mem_flags
    n = 1024
    out = cl.Buffer(ctx, mf.READ_WRITE, 4 * n)

    running = np.zeros(2, np.int32)  # the endless kernel's flags, in host memory (USE_HOST_PTR)
    flag = cl.Buffer(ctx, mf.READ_WRITE | mf.USE_HOST_PTR, hostbuf=running)

    def once_running(send, *args):  # send(*args) from another thread once the endless kernel runs
        def wait_and_send():
            while running[1] == 0:
                time.sleep(0.01)
            time.sleep(0.2)  # let every participant enter kernel code
            send(*args)
        running[1] = 0
        threading.Thread(target=wait_and_send, daemon=True).start()

    def check_fill(scale=3):
        prg.fill(queue, (n,), (64,), out, np.int32(scale))
        got = np.empty(n, np.int32)
        cl.enqueue_copy(queue, got, out)
        print("fill ok" if (got == scale * np.arange(n)).all() else "fill WRONG", flush=True)
    """
)


def run_script(*bodies: str, threads: int | None = None, timeout: float = 120) -> subprocess.CompletedProcess:
    """Run PRELUDE and the bodies in a fresh interpreter (LOOMCL_THREADS=threads if given)."""
    env = dict(os.environ, PYTHONPATH=ROOT)
    env.pop("LOOMCL_THREADS", None)
    if threads is not None:
        env["LOOMCL_THREADS"] = str(threads)
    prelude = PRELUDE.format(here=os.path.dirname(os.path.abspath(__file__)))
    script = prelude + "".join(textwrap.dedent(body) for body in bodies)
    return subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True,
                          timeout=timeout)
