"""Volatile accesses inside work-item loops.

LLVM 22's loop vectorizer asserts (VPlanRecipes.cpp, "underlying instruction may write to memory") on a
predicated volatile load in a loop annotated parallel; llvmlite's LLVM is built with assertions, so the
process aborted. The kernels below are the smallest found (a guarded volatile read, global and __local;
the second is the shape of a CSR sparse matrix-vector reduction with a volatile __local partial-sum
array). Each runs in a child process so that a regression fails this test instead of killing pytest.
The fix: volatile global accesses stay out of the work-item loop's access group (LLVM then keeps them
scalar), and `volatile __local` is emitted as plain memory (no one else can see a group's local memory).
"""
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).parents[2]

GUARDED_GLOBAL = """
kernel void k(global float *out, global volatile float *in) {
    int t = get_local_id(0);
    if ((t & 1) == 0) out[get_global_id(0)] = in[get_global_id(0)];
}
"""

GUARDED_LOCAL = """
kernel void k(global float *out, global volatile float *in) {
    __local volatile float s[128];
    int t = get_local_id(0);
    s[t] = in[get_global_id(0)];
    barrier(CLK_LOCAL_MEM_FENCE);
    if ((t & 31) < 16) s[t] += s[t + 16];
    barrier(CLK_LOCAL_MEM_FENCE);
    out[get_global_id(0)] = s[t];
}
"""

_CHILD = """
import json, sys
import numpy as np
import loomcl as cl
source = sys.stdin.read()
ctx = cl.create_some_context()
queue = cl.CommandQueue(ctx)
prg = cl.Program(ctx, source).build()
mf = cl.mem_flags
data = np.arange(512, dtype=np.float32)
out = np.zeros_like(data)
out_buf = cl.Buffer(ctx, mf.READ_WRITE | mf.COPY_HOST_PTR, hostbuf=out)
in_buf = cl.Buffer(ctx, mf.READ_ONLY | mf.COPY_HOST_PTR, hostbuf=data)
prg.k(queue, (512,), (128,), out_buf, in_buf)
cl.enqueue_copy(queue, out, out_buf)
queue.finish()
print(json.dumps(out.tolist()))
"""


def _run(source: str, cache_dir: Path) -> list[float]:
    env = dict(os.environ, LOOMCL_CACHE_DIR=str(cache_dir), PYTHONPATH=str(ROOT))
    child = subprocess.run([sys.executable, "-c", _CHILD], input=source, env=env, capture_output=True,
                           text=True, timeout=300)
    assert child.returncode == 0, child.stderr[-2000:]
    return json.loads(child.stdout.strip().splitlines()[-1])


def _expected_global(data):
    return [x if i % 2 == 0 else 0.0 for i, x in enumerate(data)]


def _expected_local(data):
    out = []
    for i, x in enumerate(data):
        t = i % 128
        out.append(x + data[i + 16] if t % 32 < 16 else x)
    return out


@pytest.mark.parametrize("source, expected", [(GUARDED_GLOBAL, _expected_global), (GUARDED_LOCAL, _expected_local)],
                         ids=["global", "local"])
def test_guarded_volatile_load_compiles_and_runs(source, expected, tmp_path):
    data = [float(i) for i in range(512)]
    assert _run(source, tmp_path) == expected(data)


def _unoptimized_llvm(source: str) -> str:
    from loomcl.driver import backend
    from loomcl.driver import compiler

    program = compiler.build(source)
    function = program.work_group_ir("k", (128, 1, 1), ids_fit_int=True)
    return backend.llvm_ir(function, program.kernels["k"], program.options, optimized=False)


def test_volatile_global_stays_volatile_and_out_of_the_parallel_loop():
    text = _unoptimized_llvm(GUARDED_GLOBAL)
    (load,) = [line for line in text.splitlines() if " = load volatile float" in line]
    assert "llvm.access.group" not in load


def test_volatile_local_is_plain_memory_in_the_parallel_loop():
    """One thread runs a work-group: nothing else can see its local memory, so `volatile __local`
    constrains nothing observable, and the reduction keeps its vectorizable work-item loops."""
    text = _unoptimized_llvm(GUARDED_LOCAL)
    assert "load volatile" in text  # the global input
    local_accesses = [line for line in text.splitlines()
                      if ("= load float" in line or "store float" in line) and "llvm.access.group" in line]
    assert len(local_accesses) >= 4 and not any("volatile" in line for line in local_accesses)
