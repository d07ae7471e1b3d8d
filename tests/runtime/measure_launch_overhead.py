"""Launch overhead from Python (a measurement, not a test): launch + finish of an empty one-group
kernel, and of a trivial kernel (out[gid] = gid) over 64 groups of 64, with the fake compiler's
hand-written work-group functions or (--real) loomcl's compiler. Prints the best and median of
several runs in microseconds.

    PYTHONPATH=. python tests/runtime/measure_launch_overhead.py [--threads N] [--real]
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import loomcl as cl  # noqa: E402
from loomcl.engine import pool
from loomcl.runtime import program

from kernels import fake_build  # noqa: E402


SOURCE = """
__kernel void empty(void) {}
__kernel void store_gid(__global int *out) { out[get_global_id(0)] = get_global_id(0); }
"""


def per_call_us(fn, calls: int = 5000, runs: int = 9) -> tuple[float, float]:
    samples = []
    for _ in range(runs):
        start = time.perf_counter()
        for _ in range(calls):
            fn()
        samples.append((time.perf_counter() - start) / calls * 1e6)
    return min(samples), statistics.median(samples)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--threads", type=int, default=None)
    parser.add_argument("--real", action="store_true", help="use loomcl's compiler, not the fake")
    options = parser.parse_args()
    if options.threads:
        pool.set_thread_count(options.threads)
    if not options.real:
        program.compile_source = fake_build
    ctx = cl.create_some_context()
    queue = cl.CommandQueue(ctx)
    prg = cl.Program(ctx, SOURCE).build()
    out = cl.Buffer(ctx, cl.mem_flags.READ_WRITE, 4 * 64 * 64)
    empty, trivial = prg.empty, prg.store_gid
    cases = {
        "empty kernel, 1 group": lambda: (empty(queue, (1,), (1,)), queue.finish()),
        "trivial kernel, 64 groups of 64": lambda: (trivial(queue, (4096,), (64,), out), queue.finish()),
        "trivial kernel, 64x64, args preset": lambda: (trivial(queue, (4096,), (64,)), queue.finish()),
    }
    print(f"threads: {pool.get_thread_count()}, compiler: {'loomcl' if options.real else 'fake'}")
    for name, case in cases.items():
        case()
        best, median = per_call_us(case)
        print(f"{name:40s} best {best:6.2f} us   median {median:6.2f} us")


if __name__ == "__main__":
    main()
