"""Capture the OpenCL programs pyopencl's own tests build, then build each of them with loomcl.

    python3 -m tests.corpus.pyopencl_survey capture TESTDIR [FILE.py ...]   # runs on the system ICD
    python3 -m tests.corpus.pyopencl_survey capture EXAMPLEDIR demo.py demo_elementwise.py ...
    python3 -m tests.corpus.pyopencl_survey survey [--folder /tmp/pyopencl_kernels] [--timeout 300]

`capture` runs pyopencl's tests (from its source distribution, e.g. `pip download --no-deps
--no-binary :all: pyopencl` unpacked in /tmp; its test/ folder) with PYOPENCL_TEST=portable (PoCL)
and the pyopencl_capture plugin, and prints each file's time and pass/fail/skip line: the baseline.
Files not named test_* are scripts (pyopencl's examples/), run on their own with the capture.
`survey` builds every captured program with loomcl, with pyopencl's options (its `-I` of its
headers, `-D` defines), in a subprocess of its own with a time limit: the front half and then every
kernel's work-group function down to native code. Outcomes: `built`, `diagnostic` (the first
error), `crash`, `timeout`, `skipped` (programs with images, which another part of loomcl covers),
`reference fails` (the program did not build on the reference either: pyopencl's tests of build
errors). A tally of the first diagnostics shows which gap blocks the most programs.

The programs are pyopencl's and stay in /tmp; nothing here is run in CI.
"""
from __future__ import annotations

import argparse
import collections
import json
import os
import pathlib
import re
import subprocess
import sys
import time

FOLDER = pathlib.Path("/tmp/pyopencl_kernels")
TEST_FILES = ["test_arrays_in_structs.py", "test_enqueue_copy.py", "test_wrapper.py", "test_clmath.py",
              "test_clrandom.py", "test_algorithm.py", "test_array.py"]
IMAGES = re.compile(r"\b(image[123]d(_array|_buffer)?_t|sampler_t|read_image\w*|write_image\w*)\b")
LOCAL_SIZE = 32
RECORD = re.compile(r"[0-9a-f]{20}")  # the capture's file names; the folder also holds the results


def capture(test_dir: pathlib.Path, files: list[str], folder: pathlib.Path, timeout: float) -> None:
    env = dict(os.environ, PYOPENCL_TEST="portable", PYOPENCL_CAPTURE_DIR=str(folder),
               PYTHONPATH=os.pathsep.join([str(pathlib.Path(__file__).parents[2]), os.environ.get("PYTHONPATH", "")]))
    for name in files:
        started = time.time()
        command = [sys.executable, "-m", "pytest", "-q", "-p", "tests.corpus.pyopencl_capture",
                   "-p", "no:cacheprovider", name]
        if not pathlib.Path(name).name.startswith("test_"):  # an example: a script of its own
            command = [sys.executable, "-c", "import runpy, sys, tests.corpus.pyopencl_capture; "
                       "runpy.run_path(sys.argv[1], run_name='__main__')", name]
        try:
            done = subprocess.run(command, cwd=test_dir, env=env, capture_output=True, text=True, timeout=timeout)
            last = (done.stdout.strip().splitlines() or ["(no output)"])[-1][:100]
            if done.returncode:
                last = f"exit {done.returncode}: " + (done.stderr.strip().splitlines() or [""])[-1][:100]
        except subprocess.TimeoutExpired:
            last = f"timeout after {timeout:.0f} s"
        print(f"{name:<28} {time.time() - started:7.1f} s  {last}", flush=True)


def build_one(entry: dict) -> dict:
    """Build one captured program in this process; the outcome as a dict (for the parent, as JSON)."""
    from loomcl.driver import compiler
    from loomcl.frontend import CompileError, OptionError

    try:
        program = compiler.build(entry["source"], entry["options"], filename="<pyopencl>")
        for name in sorted(program.kernels):
            size = program.kernels[name].reqd_work_group_size or (LOCAL_SIZE, 1, 1)
            program.work_group_function(name, tuple(size))
    except (CompileError, OptionError) as error:
        return {"status": "diagnostic", "detail": _first_error(error)}
    return {"status": "built", "detail": f"{len(program.kernels)} kernels"}


def _first_error(error) -> str:
    diagnostics = getattr(error, "diagnostics", None)
    if not diagnostics:
        return str(error).splitlines()[0]
    errors = [d for d in diagnostics if d.severity.value == "error"] or diagnostics
    return errors[0].render().splitlines()[0]


def survey_one(path: pathlib.Path, timeout: float) -> dict:
    entry = json.loads(path.read_text())
    if IMAGES.search(entry["source"]):
        return {"status": "skipped", "detail": "images"}
    command = [sys.executable, "-m", "tests.corpus.pyopencl_survey", "one", str(path)]
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return {"status": "timeout", "detail": f"no result after {timeout:.0f} s"}
    lines = done.stdout.strip().splitlines()
    if done.returncode == 0 and lines:
        result = json.loads(lines[-1])
    else:
        tail = (done.stderr.strip().splitlines() or ["(no output)"])[-1]
        result = {"status": "crash", "detail": f"exit {done.returncode}: {tail}"}
    if result["status"] != "built" and not entry["built_on_reference"]:
        result["status"] = "reference fails"
    return result


def gap_of(detail: str) -> str:
    """A diagnostic without its location and identifiers: programs blocked by one gap share it."""
    message = re.sub(r"^[^:]*:\d+:\d+: (error: )?", "", detail)
    return re.sub(r"'[^']*'", "'…'", message)[:110]


def survey(folder: pathlib.Path, timeout: float, only: str | None) -> None:
    paths = sorted(p for p in folder.glob("*.json") if RECORD.fullmatch(p.stem))
    if only:
        paths = [p for p in paths if only in p.read_text()]
    results, tally, gaps = {}, collections.Counter(), collections.Counter()
    for path in paths:
        started = time.time()
        result = survey_one(path, timeout)
        results[path.stem] = result
        tally[result["status"]] += 1
        if result["status"] in ("diagnostic", "crash", "timeout"):
            gaps[gap_of(result["detail"])] += 1
        print(f"{path.stem}  {result['status']:<15} {result['detail'][:140]}  ({time.time() - started:.1f} s)",
              flush=True)
    (folder / "survey.json").write_text(json.dumps(results, indent=1))
    print(f"\n{len(paths)} programs: " + ", ".join(f"{n} {k}" for k, n in sorted(tally.items())))
    for gap, count in gaps.most_common():
        print(f"{count:5}  {gap}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    cap = sub.add_parser("capture", help="run pyopencl's tests on the system ICD, recording programs")
    cap.add_argument("test_dir", type=pathlib.Path)
    cap.add_argument("files", nargs="*", default=TEST_FILES)
    cap.add_argument("--folder", type=pathlib.Path, default=FOLDER)
    cap.add_argument("--timeout", type=float, default=3600)
    sur = sub.add_parser("survey", help="build every captured program with loomcl")
    sur.add_argument("--folder", type=pathlib.Path, default=FOLDER)
    sur.add_argument("--timeout", type=float, default=300)
    sur.add_argument("--only", help="only programs whose record contains this text")
    one = sub.add_parser("one", help=argparse.SUPPRESS)
    one.add_argument("path", type=pathlib.Path)
    args = parser.parse_args()
    if args.command == "capture":
        capture(args.test_dir, args.files, args.folder, args.timeout)
    elif args.command == "survey":
        survey(args.folder, args.timeout, args.only)
    else:
        print(json.dumps(build_one(json.loads(args.path.read_text()))))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
