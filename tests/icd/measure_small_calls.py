"""What a small pyopencl.array operation costs through an ICD (a measurement, not a test): `a + b`,
`2 * a`, `a.fill(0)`, `sum(a)` and `a.get()` on 1K float32 arrays, in microseconds of wall time and
of the calling thread's CPU time (less disturbed by a busy machine), with numpy's time for the same
operation; on loomcl also the calls that entered loomcl's Python per operation, by entry point (those
the native library answers alone, such as clSetKernelArg with the bytes already set, do not count).

    OCL_ICD_VENDORS=$(python -m loomcl icd | tail -1) python tests/icd/measure_small_calls.py
    OCL_ICD_VENDORS=/etc/OpenCL/vendors/pocl.icd python tests/icd/measure_small_calls.py
"""
from __future__ import annotations

import argparse
import collections
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # this checkout's loomcl
entered: collections.Counter = collections.Counter()


def count_entries() -> None:
    """Counts the Python entries of loomcl's ICD in this process (before the library connects)."""
    from loomcl.icd import dispatch

    guarded = dispatch.guarded

    def counting(entry, function):
        inner = guarded(entry, function)

        def call(*args):
            entered[entry.name] += 1
            return inner(*args)
        return call
    dispatch.guarded = counting


def best_of(body, finish, calls: int, runs: int = 7) -> tuple[float, float]:
    for _ in range(calls // 5):
        body()
    finish()
    walls, cpus = [], []
    for _ in range(runs):
        wall, cpu = time.perf_counter(), time.thread_time()
        for _ in range(calls):
            body()
        finish()
        walls.append((time.perf_counter() - wall) / calls * 1e6)
        cpus.append((time.thread_time() - cpu) / calls * 1e6)
    return min(walls), min(cpus)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=1000)
    calls = parser.parse_args().calls
    count_entries()
    import pyopencl as cl
    import pyopencl.array as cla

    context = cl.Context([cl.get_platforms()[0].get_devices()[0]])
    queue = cl.CommandQueue(context)
    host_a, host_b = np.random.rand(1024).astype(np.float32), np.random.rand(1024).astype(np.float32)
    a, b = cla.to_device(queue, host_a), cla.to_device(queue, host_b)
    operations = {"a + b": (lambda: a + b, lambda: host_a + host_b),
                  "2 * a": (lambda: 2 * a, lambda: 2 * host_a),
                  "a.fill(0)": (lambda: a.fill(0), lambda: host_a.fill(0)),
                  "sum(a)": (lambda: cla.sum(a), host_a.sum),
                  "a.get()": (a.get, host_a.copy)}
    print(f"platform: {context.devices[0].platform.name}")
    for name, (operation, with_numpy) in operations.items():
        wall, cpu = best_of(operation, queue.finish, calls)
        numpy_wall, _ = best_of(with_numpy, lambda: None, calls)
        entered.clear()
        for _ in range(100):
            operation()
        queue.finish()
        per_op = ", ".join(f"{n} {c / 100:g}" for n, c in entered.most_common() if c >= 10)
        print(f"{name:10s} {wall:7.1f} us wall {cpu:7.1f} us cpu   numpy {numpy_wall:5.2f} us"
              + (f"   entries/op: {sum(entered.values()) / 100:g} ({per_op})" if entered else ""))


if __name__ == "__main__":
    main()
