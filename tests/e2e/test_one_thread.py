"""The same kernels on one thread: LOOMCL_THREADS=1 runs every work-group on the calling thread.
A subprocess re-runs a representative selection of this directory's tests with that environment."""
from __future__ import annotations

import os
import subprocess
import sys

import pytest

CHILD = "LOOMCL_E2E_ONE_THREAD_CHILD"

SELECTION = " or ".join([
    "vector_add", "saxpy_2d", "tiled_matmul", "transpose", "3d_work_item_queries",
    "work_group_reduction", "blelloch_scan", "uniform_if", "varying_work", "listing_3_3",
    "store_after_barrier_loop", "barrier_in_helper", "local_scalar_flag", "remainder_group",
    "histogram", "atomics_global", "atomics_local", "atomic_buckets", "control_flow",
    "pool_has_one_thread",
])


@pytest.mark.slow  # the long tier: the representative kernels again, in a child process
@pytest.mark.skipif(os.environ.get(CHILD) == "1", reason="already the one-thread run")
def test_representative_kernels_on_one_thread():
    here = os.path.dirname(os.path.abspath(__file__))
    root = os.path.dirname(os.path.dirname(here))
    env = dict(os.environ, LOOMCL_THREADS="1", **{CHILD: "1"})
    env["PYTHONPATH"] = os.pathsep.join(p for p in (root, env.get("PYTHONPATH", "")) if p)
    cmd = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-rA", here, "-k", SELECTION]
    result = subprocess.run(cmd, cwd=root, env=env, capture_output=True, text=True, timeout=600)
    tail = "\n".join((result.stdout + result.stderr).splitlines()[-60:])
    assert result.returncode == 0, f"one-thread run failed (LOOMCL_THREADS=1):\n{tail}"
    assert "PASSED tests/e2e/test_one_thread.py::test_pool_has_one_thread" in result.stdout, tail
    passed = [line for line in result.stdout.splitlines() if line.startswith("PASSED")]
    assert len(passed) > 40, f"the selection ran only {len(passed)} tests:\n{tail}"


@pytest.mark.skipif(os.environ.get(CHILD) != "1", reason="only in the one-thread run")
def test_pool_has_one_thread():
    from loomcl.engine.pool import get_pool

    assert get_pool().thread_count == 1
