"""Measure the Python twins beside their OpenCL C twins (not a test: times belong to benchmarks).

    python -m tests.pykernels.measure_twins [--quick] [--runs N] [--only NAME,...]

For each pair: the build time of each (front half: the build call, translation or parsing,
checking and lowering; total: that and the back half of every kernel the problem launches, which
runs at the first launch, estimated as the first run's time beyond the second's, with the on-disk
cache off so that LLVM runs), then N rounds alternating the two (the order flipped every
round, so neither always runs on caches the other warmed), and the best run of each. Builds are
timed in a fresh interpreter each, at the quick size. The problems,
launches and numpy checks are the bench's (loomcl/bench/suite/python_twins.py).
"""
from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time

os.environ["LOOMCL_CACHE_SIZE"] = "0"  # cold builds: LLVM runs for every kernel (before loomcl is imported)

import numpy as np  # noqa: E402

from loomcl.bench import runner  # noqa: E402
from loomcl.bench.configs import CONFIGS  # noqa: E402
from loomcl.bench.impls import open_loomcl  # noqa: E402
from loomcl.bench.suite import python_twins  # noqa: E402


def prepared_with_build_times(impl, case, problem):
    """(Prepared, front half s, first-launch compile s): the front half is the build call alone;
    the back half is the first run's time beyond a later run's (LLVM for each launched kernel)."""
    spent = []
    build, build_python = impl.build, impl.build_python

    def timed(function):
        def run(*args, **kwargs):
            start = time.perf_counter()
            try:
                return function(*args, **kwargs)
            finally:
                spent.append(time.perf_counter() - start)
        return run

    impl.build, impl.build_python = timed(build), timed(build_python)
    try:
        prepared = runner.Prepared(impl, case, problem)
    finally:
        impl.build, impl.build_python = build, build_python
    first = prepared.run()[0]
    prepared.reset()
    again = prepared.run()[0]
    return prepared, sum(spent), max(first - again, 0.0)


def measure(c_case, py_case, impl, runs: int, quick: bool) -> dict:
    """Best run times of the two, alternating, on one problem."""
    problem = c_case.setup(c_case.quick if quick else c_case.full, np.random.default_rng(0))
    reference = problem.reference()
    c_ready, py_ready = runner.Prepared(impl, c_case, problem), runner.Prepared(impl, py_case, problem)
    for prepared in (c_ready, py_ready):
        prepared.reset()
        prepared.run()
        agreement = prepared.check(reference, c_case.tolerance)
        assert agreement.ok, agreement.message
        runner.settle(prepared)  # micro-profiling has chosen its variants before the timed runs
    best = {"c": float("inf"), "py": float("inf")}
    for round_ in range(runs):
        order = [("c", c_ready), ("py", py_ready)]
        for name, prepared in order if round_ % 2 == 0 else reversed(order):
            prepared.reset()
            best[name] = min(best[name], prepared.run()[0])
    return {"size": problem.size, "c_ms": best["c"] * 1e3, "py_ms": best["py"] * 1e3}


def build_in_fresh_process(case_name: str) -> tuple[float, float]:
    """(front half ms, total ms) of one case built in a new interpreter: nothing compiled before
    (the compiler memoizes native code per process, and the Python twin of saxpy compiles to the
    same code as its OpenCL C twin)."""
    result = subprocess.run([sys.executable, "-m", "tests.pykernels.measure_twins", "--build-one", case_name],
                            capture_output=True, text=True, check=True)
    front, total = map(float, result.stdout.split())
    return front, total


def build_one(case_name: str) -> None:
    case = next(c for c in (*python_twins.C_TWINS, *python_twins.CASES) if c.name == case_name)
    impl = open_loomcl(CONFIGS["default"], None)
    warm_up_imports()
    problem = case.setup(case.quick, np.random.default_rng(0))
    _, front, back = prepared_with_build_times(impl, case, problem)
    print(front * 1e3, (front + back) * 1e3)


def warm_up_imports() -> None:
    """Both front ends once, so that neither build time includes importing the compiler's modules."""
    import loomcl as cl
    from loomcl.driver import compiler

    @cl.kernel
    def warm(a: cl.global_ptr(np.int32)):
        a[cl.global_id(0)] = a[0] // 3 % 5

    warm.compiled_program()
    compiler.build("kernel void warm(global int *a) { a[get_global_id(0)] = a[0] / 3 % 5; }")


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--quick", action="store_true")
    p.add_argument("--runs", type=int, default=9)
    p.add_argument("--only")
    p.add_argument("--build-one", help=argparse.SUPPRESS)
    args = p.parse_args()
    if args.build_one:
        return build_one(args.build_one)
    impl = open_loomcl(CONFIGS["default"], None)
    warm_up_imports()
    print(f"{'kernel':14} {'size':10} {'C ms':>8} {'Py ms':>8} {'run':>5}   {'C front':>8} {'Py front':>8}"
          f" {'C build':>8} {'Py build':>8} {'build':>5}")
    for c_case, py_case in zip(python_twins.C_TWINS, python_twins.CASES):
        if args.only and c_case.name not in args.only.split(","):
            continue
        m = measure(c_case, py_case, impl, args.runs, args.quick)
        c_front, c_build = build_in_fresh_process(c_case.name)
        py_front, py_build = build_in_fresh_process(py_case.name)
        print(f"{c_case.name:14} {m['size']:10} {m['c_ms']:8.2f} {m['py_ms']:8.2f} {m['py_ms'] / m['c_ms']:5.2f}   "
              f"{c_front:8.1f} {py_front:8.1f} {c_build:8.1f} {py_build:8.1f} {py_build / c_build:5.2f}", flush=True)


if __name__ == "__main__":
    main()
