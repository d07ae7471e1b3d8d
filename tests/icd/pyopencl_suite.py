"""Run pyopencl's own test suite and examples on one OpenCL implementation, through the ICD loader.

    python tests/icd/pyopencl_suite.py                       # loomcl's ICD (`python -m loomcl icd`)
    python tests/icd/pyopencl_suite.py --vendor pocl         # the system's PoCL, for comparison
    python tests/icd/pyopencl_suite.py --compare tests/icd/pocl_baseline.json --json run.json
    python tests/icd/pyopencl_suite.py --subset --compare tests/icd/pocl_baseline.json   # CI's part

Each test file runs in its own pytest process (a crash or a hang costs one file, not the run) with
OCL_ICD_VENDORS naming the vendor file alone and PYOPENCL_TEST naming its platform; the
pyopencl_outcomes plugin records every outcome as it happens. Each example runs as a script with
PYOPENCL_CTX set, non-interactive. The result is JSON (per file: counts, failing ids with their
messages, passing ids, seconds) and a table; `--write-baseline` keeps it as the comparison point,
`--compare` prints how many of a baseline's passing tests pass here.

Importable: `run_file`, `run_examples` and `run_suite` serve tests/icd/test_pyopencl_suite.py.
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from importlib.util import find_spec
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import icd_vendor  # noqa: E402
import pyopencl_sdist  # noqa: E402
from suite_results import (  # noqa: E402
    FileResult, comparison, comparison_table, normalize_id, progress, read_record, table)

TEST_FILES = ("test_wrapper.py", "test_array.py", "test_algorithm.py", "test_clmath.py",
              "test_clrandom.py", "test_enqueue_copy.py", "test_arrays_in_structs.py")
FILE_TIMEOUT_S = 1800
STALL_S = 300        # a test without an outcome for this long is hung (the slowest take ~15 s on loomcl)
MAX_RESTARTS = 5
POLL_S = 2
EXAMPLE_TIMEOUT_S = 300

# A subset for CI (tests/icd/test_pyopencl_suite.py): a file -> its test functions (every
# parametrization of each), or None for the whole file. The wrapper (every API object), array
# arithmetic, indexing, reductions, scans, sorts, math functions and random numbers, chosen to take
# about a minute on PoCL here.
CI_SUBSET = {
    "test_wrapper.py": None,
    "test_enqueue_copy.py": None,
    "test_arrays_in_structs.py": None,
    "test_array.py": (
        "test_addition_array", "test_addition_scalar", "test_multiply_array", "test_pow_array",
        "test_basic_complex", "test_slice", "test_concatenate", "test_stack", "test_copy", "test_reshape",
        "test_transpose", "test_fancy_indexing", "test_custom_type_zeros", "test_vector_fill",
        "test_get_async", "test_event_management", "test_any_all", "test_zero_size_array",
        "test_empty_reductions_vs_numpy", "test_reduction_nan_handling", "test_outoforderqueue_reductions"),
    "test_algorithm.py": (
        "test_elwise_kernel", "test_ranged_elwise_kernel", "test_take_put", "test_astype", "test_sum",
        "test_minmax", "test_struct_reduce", "test_scan", "test_copy_if", "test_list_builder",
        "test_sort"),
    "test_clmath.py": (
        "test_sin", "test_cos", "test_exp", "test_log", "test_sqrt", "test_atan2", "test_fmod",
        "test_frexp", "test_ldexp", "test_modf", "test_complex_muladd"),
    "test_clrandom.py": None,
}


def subset_selection(name: str) -> list[str] | None:
    """The node ids that select CI_SUBSET's part of test file `name` (None: the whole file)."""
    functions = CI_SUBSET[name]
    return None if functions is None else [f"{name}::{function}" for function in functions]


def in_subset(test_id: str) -> bool:
    name, _, rest = test_id.partition("::")
    functions = CI_SUBSET.get(name, ())
    return functions is None or rest.split("[")[0] in functions

# The examples that run unattended: name -> the modules beyond pyopencl and numpy each imports
# (an example whose module is missing is skipped with that reason).
EXAMPLES = {
    "demo.py": (), "demo_array.py": (), "demo-struct-reduce.py": (), "demo_elementwise.py": (),
    "demo_elementwise_complex.py": (), "narray.py": (), "dump-properties.py": (),
    "dump-performance.py": (), "svm.py": (), "demo_array_svm.py": (),
    "demo_meta_template.py": ("mako",), "demo_meta_codepy.py": ("cgen",),
    "image_filters_using_image2d_t.py": ("PIL",), "median-filter.py": ("imageio",),
}
# The rest, and why they are left out.
EXAMPLES_LEFT_OUT = {
    "demo_mandelbrot.py": "opens a Tk window",
    "gl_interop_demo.py": "needs OpenGL and a display", "gl_particle_animation.py": "needs OpenGL and a display",
    "n-body.py": "an interactive OpenGL benchmark",
    "transpose.py": "a bandwidth benchmark: 3 kernels x 24 sizes up to 8192 x 8192, minutes on a CPU",
    "pi-monte-carlo.py": "a benchmark of 10^9 iterations per run, also written for pycuda",
    "black-hole-accretion.py": "a rendering benchmark that needs PIL (and pycuda for its CUDA half)",
}


def run_file(suite: Path, vendor: icd_vendor.Vendor, name: str, selection: list[str] | None = None,
             timeout: float = FILE_TIMEOUT_S, logs: Path | None = None, stall: float = STALL_S) -> FileResult:
    """One of pyopencl's test files (or `selection`, node ids within it) in its own pytest process.

    A test that hangs (no outcome for `stall` seconds) or kills the process is recorded as an error
    and the file goes on in a new process without it and without the tests already run, up to
    MAX_RESTARTS times and `timeout` seconds in all."""
    logs = logs or Path(tempfile.mkdtemp(prefix="pyopencl-suite-"))
    record, log = logs / f"{Path(name).stem}.jsonl", logs / f"{Path(name).stem}.log"
    record.unlink(missing_ok=True)
    log.unlink(missing_ok=True)
    env = _environment(vendor, PYOPENCL_OUTCOMES_FILE=str(record))
    result, already_run = FileResult(name), []
    for _ in range(MAX_RESTARTS + 1):
        command = [sys.executable, "-m", "pytest", "-p", "pyopencl_outcomes", "-p", "no:cacheprovider",
                   "-c", os.devnull, "--rootdir", str(suite / "test"), "-q", "-W", "ignore::DeprecationWarning",
                   *(selection or [name]), *(f"--deselect={test}" for test in already_run)]
        code, seconds, stopped = _run(command, suite / "test", env, timeout - result.seconds, log, record, stall)
        result.seconds += seconds
        result.status = "completed" if code in (0, 1) else stopped or _ending(code)   # 1: some failed
        done, running = progress(record)
        if result.status == "completed" or running is None:
            break
        result.interrupted[normalize_id(running)] = result.status
        if result.seconds >= timeout:
            break
        already_run = done + [running]
    if result.interrupted and result.status == "completed":
        result.status = f"completed in {len(result.interrupted) + 1} processes"
    read_record(result, record)
    return result


def run_examples(suite: Path, vendor: icd_vendor.Vendor, timeout: float = EXAMPLE_TIMEOUT_S,
                 logs: Path | None = None) -> dict[str, dict]:
    """Each unattended example as a script, in a scratch copy of examples/ (some write files)."""
    logs = logs or Path(tempfile.mkdtemp(prefix="pyopencl-suite-"))
    results = {}
    with tempfile.TemporaryDirectory() as scratch:
        workdir = Path(shutil.copytree(suite / "examples", Path(scratch) / "examples"))
        for name, needs in EXAMPLES.items():
            missing = [module for module in needs if find_spec(module) is None]
            if missing:
                results[name] = {"outcome": "skipped", "seconds": 0.0, "reason": f"needs {', '.join(missing)}"}
                continue
            log = logs / f"example-{Path(name).stem}.log"
            code, seconds, stopped = _run([sys.executable, name], workdir, _environment(vendor), timeout, log)
            outcome = "passed" if code == 0 else "failed"
            reason = "" if code == 0 else _last_line(log, stopped or _ending(code))
            results[name] = {"outcome": outcome, "seconds": round(seconds, 1), "reason": reason}
    results.update({name: {"outcome": "left out", "seconds": 0.0, "reason": why}
                    for name, why in EXAMPLES_LEFT_OUT.items()})
    return results


def run_suite(vendor: icd_vendor.Vendor, files=TEST_FILES, examples=True, file_timeout=FILE_TIMEOUT_S,
              example_timeout=EXAMPLE_TIMEOUT_S, logs: Path | None = None, subset=False, echo=print) -> dict:
    suite = pyopencl_sdist.suite_dir()
    logs = logs or Path(tempfile.mkdtemp(prefix="pyopencl-suite-"))
    report = {"pyopencl_version": pyopencl_sdist.installed_version(), "vendor": vendor.label,
              "platform": vendor.platform_name, "icd_file": str(vendor.icd_file), "logs": str(logs),
              "files": {}, "examples": {}}
    for name in files:
        selection = subset_selection(name) if subset else None
        result = run_file(suite, vendor, name, selection, file_timeout, logs)
        report["files"][name] = result.as_json()
        echo(f"{name}: {result.counts()} in {result.seconds:.1f} s ({result.status})")
    if examples:
        report["examples"] = run_examples(suite, vendor, example_timeout, logs)
    return report


def _environment(vendor: icd_vendor.Vendor, **extra: str) -> dict[str, str]:
    pythonpath = os.pathsep.join(filter(None, [str(HERE), os.environ.get("PYTHONPATH")]))
    return {**os.environ, **vendor.environment(), "PYTHONPATH": pythonpath, "MPLBACKEND": "Agg", **extra}


def _run(command: list[str], cwd: Path, env: dict, timeout: float, log: Path, record: Path | None = None,
         stall: float | None = None) -> tuple[int | None, float, str | None]:
    """Run in a session of its own, so that a hang is stopped with its children: the exit status
    (None when stopped), the seconds it took, and why it was stopped (past `timeout`, or `record`
    unchanged for `stall` seconds)."""
    start, started_at = time.perf_counter(), time.time()
    with open(log, "a") as out:
        process = subprocess.Popen(command, cwd=cwd, env=env, stdout=out, stderr=subprocess.STDOUT,
                                   stdin=subprocess.DEVNULL, start_new_session=True)
        while True:
            try:
                return process.wait(timeout=POLL_S), time.perf_counter() - start, None
            except subprocess.TimeoutExpired:
                pass
            if time.perf_counter() - start > timeout:
                stopped = f"timed out after {timeout:g} s"
                break
            last_news = max(started_at, record.stat().st_mtime if record and record.exists() else 0)
            if stall and time.time() - last_news > stall:
                stopped = f"hung (no outcome for {stall:g} s)"
                break
        os.killpg(process.pid, signal.SIGKILL)
        process.wait()
    return None, time.perf_counter() - start, stopped


def _ending(code: int) -> str:
    if code < 0:
        return f"crashed ({signal.Signals(-code).name})"
    return f"exit status {code}"


def _last_line(log: Path, status: str) -> str:
    lines = [line for line in log.read_text(errors="replace").splitlines() if line.strip()]
    return f"{status}: {lines[-1][:200]}" if lines else status


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--vendor", default=None,
                        help="loomcl (default, or $LOOMCL_ICD_TEST_VENDOR), pocl, or a vendor file's path")
    parser.add_argument("--files", nargs="*", default=list(TEST_FILES),
                        help="pyopencl test files to run (none: the examples only)")
    parser.add_argument("--no-examples", action="store_true", help="run the test files only")
    parser.add_argument("--subset", action="store_true", help="only CI_SUBSET's tests of each file (and no examples)")
    parser.add_argument("--timeout", type=float, default=FILE_TIMEOUT_S, help="seconds per test file")
    parser.add_argument("--example-timeout", type=float, default=EXAMPLE_TIMEOUT_S, help="seconds per example")
    parser.add_argument("--json", type=Path, help="write the results here")
    parser.add_argument("--logs", type=Path, help="keep each file's pytest output here")
    parser.add_argument("--compare", type=Path, help="a baseline JSON: how many of its passes pass here")
    parser.add_argument("--write-baseline", type=Path, help="write the results as a baseline (no logs path)")
    args = parser.parse_args(argv)
    try:
        vendor = icd_vendor.resolve(icd_vendor.selected_choice(args.vendor))
        if args.logs:
            args.logs.mkdir(parents=True, exist_ok=True)
        files = [name for name in args.files if name in CI_SUBSET] if args.subset else args.files
        report = run_suite(vendor, files, not (args.no_examples or args.subset), args.timeout,
                           args.example_timeout, args.logs, args.subset)
    except (icd_vendor.VendorUnavailable, pyopencl_sdist.SuiteUnavailable) as reason:
        print(f"pyopencl's suite cannot run: {reason}", file=sys.stderr)
        return 2
    print(table(report["files"], report["examples"]))
    if args.json:
        args.json.write_text(json.dumps(report, indent=1) + "\n")
    if args.write_baseline:
        baseline = {key: value for key, value in report.items() if key != "logs"}
        baseline["recorded"] = f"{time.strftime('%Y-%m-%d')}, {os.cpu_count()} cores"
        for entry in baseline["files"].values():
            entry["failing"] = sorted(entry["failing"])   # the ids; pyopencl's messages stay in the logs
        args.write_baseline.write_text(json.dumps(baseline, indent=1) + "\n")
    if args.compare:
        print()
        keep = in_subset if args.subset else (lambda test: True)
        print(comparison_table(comparison(report, json.loads(args.compare.read_text()), keep)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
