"""The Khronos OpenCL-CTS as loomcl's gate: build the binaries below, run each on loomcl's ICD and on
another implementation (PoCL by default), and write a table of passed / failed / not supported.

    python conformance/cts.py [--source DIR] [--work DIR] [--quick] [--binaries B ...]
                              [--vendors loomcl pocl] [--timeout S] [--baseline FILE] [--json FILE]

Every binary runs in its wimpy mode (CL_WIMPY_MODE), with the arguments the CTS's own quick list
(opencl_conformance_tests_quick.csv) gives it; each test has `--timeout` seconds and each binary a
budget (cts_run.py). `--quick` is the subset for CI: a few fast binaries, and the tests of those
that finish in seconds. `--baseline FILE` (a JSON this script wrote, e.g. on PoCL) makes it a gate:
the exit status is 1 when a test that passed there does not pass on loomcl, unless
known_failures.py names it with its reason; it is 2 when the CTS cannot be fetched or built here
(no git, cmake or network), which CI reports as a skip.

Needs: git (or --source), cmake, make, g++, for test_compiler spirv-as (Debian: spirv-tools; its
build assembles SPIR-V), the ICD loader's development files (ocl-icd-opencl-dev) and, to compare, PoCL
(pocl-opencl-icd). Build and logs go under --work
(default ~/.cache/loomcl-cts).
"""
from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import cts_build  # noqa: E402
import cts_run  # noqa: E402
from known_failures import KNOWN_FAILURES  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
POCL_VENDOR_FILE = Path("/etc/OpenCL/vendors/pocl.icd")


@dataclass(frozen=True)
class Binary:
    """A CTS binary: its make target, where the build puts it, its arguments and tests."""

    name: str
    folder: str
    options: tuple[str, ...] = ()
    patterns: tuple[str, ...] = ()   # the tests to run ('*' wildcards); all when empty
    quick: tuple[str, ...] | None = None  # the tests --quick runs; not in --quick when None
    target: str = ""
    names_tests: bool = True  # False: the binary takes no test names (test_conversions reads its
    # arguments as conversion names), so it runs all its tests and is told none

    @property
    def make_target(self) -> str:
        return self.target or self.name


BINARIES = [
    Binary("test_basic", "basic", quick=("hostptr", "fpmath", "intmath_int", "hiloeo", "local_arg_def",
                                         "constant", "readimage", "writeimage", "kernel_call_kernel_function",
                                         "vstore_global", "vload_global", "enqueue_map_buffer", "work_item_functions",
                                         "get_linear_ids", "global_linear_id", "local_linear_id",
                                         "kernel_memory_alignment_global", "kernel_memory_alignment_local")),
    Binary("test_api", "api", quick=("*",)),
    Binary("test_compiler", "compiler"),
    Binary("test_buffers", "buffers"),
    Binary("test_commonfns", "commonfns"),
    Binary("test_geometrics", "geometrics"),
    Binary("test_relationals", "relationals"),
    Binary("test_integer_ops", "integer_ops", patterns=("integer_*", "quick_*")),
    # scalar conversions only ("-1"; wimpy): every type pair, saturation and rounding mode
    Binary("test_conversions", "conversions", options=("-w", "-1"), names_tests=False),
    # float and double (the device has fp64), scalar kernels only, a spread of the library
    Binary("test_bruteforce", "math_brute_force", options=("-w", "-1"),
           patterns=("add", "multiply", "divide", "sqrt", "rsqrt", "fma", "exp", "exp2", "log", "log2", "sin",
                     "cos", "tan", "pow", "atan2", "hypot", "cbrt", "fmod", "half_sin", "half_exp")),
    Binary("test_atomics", "atomics"),
    Binary("test_events", "events", quick=("*",)),
    Binary("test_profiling", "profiling", quick=("*",)),
    Binary("test_mem_host_flags", "mem_host_flags", quick=("*",)),
    Binary("test_printf", "printf"),
    Binary("test_select", "select"),
    Binary("test_vectors", "vectors"),
    Binary("test_allocations", "allocations", options=("single", "2%")),
    # the kernel read/write subset: RGBA images of every channel type, small sizes, nearest filtering
    Binary("test_image_streams", "images/kernel_read_write", options=("CL_FILTER_NEAREST", "CL_RGBA", "small_images"),
           patterns=("1D", "1Darray", "2D", "2Darray", "3D")),
]


def vendor_file(label: str) -> Path:
    if label == "pocl":
        return POCL_VENDOR_FILE
    if label == "loomcl":
        done = subprocess.run([sys.executable, "-m", "loomcl", "icd"], cwd=ROOT, capture_output=True, text=True)
        if done.returncode != 0:
            sys.exit(f"loomcl's ICD cannot be built: {done.stderr.strip()[-400:]}")
        return Path(done.stdout.strip().splitlines()[-1])
    return Path(label)


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    work = args.work.expanduser()
    chosen = [b for b in BINARIES if (not args.binaries or b.name in args.binaries)
              and (not args.quick or b.quick is not None)]
    try:
        root = cts_build.sources(args.source, work)
        build = work / "build"
        if not args.no_build:
            cts_build.configure(root, build)
            unbuilt = cts_build.build_targets(build, [b.make_target for b in chosen], args.jobs)
            for failure in unbuilt:
                print(f"cts: not built: {failure}", file=sys.stderr)
            if unbuilt and args.baseline:  # a gate that runs less than it was asked says so
                raise cts_build.BuildError("a binary to gate on was not built, so the gate cannot decide")
    except cts_build.BuildError as why:
        print(f"cts: {why}", file=sys.stderr)
        return 2
    results = {label: run_vendor(label, chosen, build, args, work) for label in args.vendors}
    report = {"date": time.strftime("%Y-%m-%d %H:%M"), "quick": args.quick, "results": results}
    if args.json:
        args.json.write_text(json.dumps(report, indent=1))
    print(table(results, chosen))
    if args.baseline:
        recorded = json.loads(args.baseline.read_text())["results"]
        baseline = recorded.get("pocl") or next(iter(recorded.values()))
        return gate(baseline, results.get("loomcl", {}))
    return 0


def run_vendor(label: str, chosen: list[Binary], build: Path, args, work: Path) -> dict:
    found, logs = {}, work / "logs" / label
    logs.mkdir(parents=True, exist_ok=True)
    icd = vendor_file(label)
    for binary in chosen:
        path = build / "test_conformance" / binary.folder / binary.name
        if not path.exists():
            found[binary.name] = {"error": "not built"}
            continue
        tests = cts_run.select(cts_run.listed_tests(path), list(binary.quick if args.quick else binary.patterns))
        outcomes = cts_run.run_binary(path, tests, list(binary.options), icd, args.timeout, args.budget,
                                      logs / f"{binary.name}.log", binary.names_tests)
        found[binary.name] = {"tests": outcomes.tests, "seconds": round(outcomes.seconds, 1)}
        print(f"cts: {label} {binary.name}: {summary(found[binary.name])} ({outcomes.seconds:.0f} s)", flush=True)
    return found


def summary(result: dict) -> str:
    if "error" in result:
        return result["error"]
    outcomes = list(result["tests"].values())
    broken = (cts_run.TIMEOUT, cts_run.CRASHED, cts_run.NOT_REPORTED)
    failed = sum(1 for o in outcomes if o == cts_run.FAILED or o in broken)
    hung = sum(1 for o in outcomes if o in broken)
    text = (f"{outcomes.count(cts_run.PASSED)} / {failed} / {outcomes.count(cts_run.NOT_SUPPORTED)}")
    return text + (f" ({hung} timed out, crashed or unreported)" if hung else "")


def table(results: dict, chosen: list[Binary]) -> str:
    labels = list(results)
    rows = ["| binary | " + " | ".join(f"{label}: passed / failed / not supported" for label in labels) + " |",
            "|---" * (len(labels) + 1) + "|"]
    for binary in chosen:
        cells = [summary(results[label].get(binary.name, {"error": "not run"})) for label in labels]
        rows.append(f"| {binary.name} | " + " | ".join(cells) + " |")
    return "\n".join(rows)


def gate(baseline: dict, loomcl: dict) -> int:
    """1 when a test that passed in the baseline fails on loomcl (known failures aside). A test
    loomcl reports not supported is a feature its device reports absent, as the spec allows."""
    regressions = []
    for binary, result in baseline.items():
        for test, outcome in result.get("tests", {}).items():
            ours = loomcl.get(binary, {}).get("tests", {}).get(test)
            if outcome == cts_run.PASSED and ours not in (None, cts_run.PASSED, cts_run.NOT_SUPPORTED) \
                    and (binary, test) not in KNOWN_FAILURES:
                regressions.append(f"{binary} {test}: {ours}")
    for line in regressions:
        print(f"cts: passes in the baseline, not on loomcl: {line}", file=sys.stderr)
    return 1 if regressions else 0


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--source", type=Path, help="a folder holding OpenCL-CTS, OpenCL-Headers, SPIRV-Headers")
    parser.add_argument("--work", type=Path, default=Path("~/.cache/loomcl-cts"))
    parser.add_argument("--quick", action="store_true", help="CI's subset: a few minutes")
    parser.add_argument("--binaries", nargs="*", help="run only these (e.g. test_basic test_api)")
    parser.add_argument("--vendors", nargs="*", default=["loomcl", "pocl"],
                        help="loomcl, pocl or vendor files (default: loomcl pocl)")
    parser.add_argument("--timeout", type=float, default=600, help="seconds one test may take")
    parser.add_argument("--budget", type=float, default=3600, help="seconds one binary may take")
    parser.add_argument("--jobs", type=int, default=2, help="make's -j")
    parser.add_argument("--no-build", action="store_true", help="run what is built already")
    parser.add_argument("--baseline", type=Path, help="a JSON this script wrote: fail on what passed there")
    parser.add_argument("--json", type=Path, help="write the outcomes of every test here")
    return parser


if __name__ == "__main__":
    sys.exit(main())
