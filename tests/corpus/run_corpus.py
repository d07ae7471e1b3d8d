"""Build a folder of other people's OpenCL kernels with loomcl, and run those that have a host here.

    python3 -m tests.corpus.run_corpus /tmp/corpus [--timeout 120] [--run] [--local 16]

Each `.cl` file is built in a subprocess of its own with a time limit, because a kernel may hang
or crash a stage (LLVM included): the front half (`compiler.build`) and then every kernel's
work-group function down to native code. The table has one row per file: its kernels and the
outcome, `built`, the first line of the diagnostic, `crash` (the last line the child printed) or
`timeout`. `--options` apply to every file (pyopencl's kernels need `-I` of its headers); files
that need macros get them from OPTIONS. With `--run`, files with a host program in
hosts.py are launched on small random inputs and compared with numpy.

The kernels themselves are not part of loomcl (they belong to their projects and are fetched to a
scratch folder); the tests never need them.
"""
from __future__ import annotations

import argparse
import json
import pathlib
import subprocess
import sys
import time

OPTIONS = {  # per-file build options: macros the benchmarks' host programs pass
    "hotspot_kernel.cl": "-D BLOCK_SIZE=16",
    "lud_kernel.cl": "-D BLOCK_SIZE=16",
    "nw.cl": "-D BLOCK_SIZE=16",
    "reduction.cl": "-D SINGLE_PRECISION", "md.cl": "-D K_DOUBLE_PRECISION=1",
    "spmv.cl": "-D SINGLE_PRECISION",
}


def file_options(path: pathlib.Path, common: str) -> str:
    return f"{common} {OPTIONS.get(path.name, '')}".strip()


def build_one(path: pathlib.Path, local: int, options: str) -> dict:
    """Build one file in this process; the outcome as a dict (for the parent, as JSON)."""
    from loomcl.driver import compiler
    from loomcl.frontend import CompileError

    try:
        program = compiler.build(path.read_text(errors="replace"), options, filename=path.name)
    except CompileError as error:
        return {"kernels": [], "status": "diagnostic", "detail": _first_error(error)}
    kernels = sorted(program.kernels)
    for name in kernels:
        size = program.kernels[name].reqd_work_group_size or (local, 1, 1)
        try:
            program.work_group_function(name, tuple(size))
        except CompileError as error:
            return {"kernels": kernels, "status": "diagnostic", "detail": f"{name}: {_first_error(error)}"}
    return {"kernels": kernels, "status": "built", "detail": ""}


def _first_error(error) -> str:
    errors = [d for d in error.diagnostics if d.severity.value == "error"] or error.diagnostics
    return errors[0].render().splitlines()[0] if errors else str(error).splitlines()[0]


def build_in_child(path: pathlib.Path, timeout: float, local: int, options: str) -> dict:
    command = [sys.executable, "-m", "tests.corpus.run_corpus", "--one", str(path), "--local", str(local),
               f"--options={options}"]
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return {"kernels": [], "status": "timeout", "detail": f"no result after {timeout:.0f} s"}
    lines = done.stdout.strip().splitlines()
    if done.returncode == 0 and lines:
        return json.loads(lines[-1])
    tail = (done.stderr.strip().splitlines() or ["(no output)"])[-1]
    return {"kernels": [], "status": "crash", "detail": f"exit {done.returncode}: {tail}"}


def run_hosts(paths: list[pathlib.Path], common: str) -> dict[str, str]:
    """file name -> "ran ok" or the first mismatch, for files with a host program."""
    from . import hosts

    results = {}
    for path in paths:
        host = hosts.HOSTS.get(path.name)
        if host is None:
            continue
        try:
            host(path.read_text(), file_options(path, common))
            results[path.name] = "ran ok"
        except AssertionError as error:
            results[path.name] = "WRONG: " + (str(error).strip().splitlines() or ["?"])[0][:100]
        except Exception as error:  # noqa: BLE001 - reported in the table
            results[path.name] = f"run failed: {type(error).__name__}: {str(error).splitlines()[0][:80]}"
    return results


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", nargs="?")
    parser.add_argument("--one", help=argparse.SUPPRESS)
    parser.add_argument("--timeout", type=float, default=120)
    parser.add_argument("--local", type=int, default=16, help="local size of the work-group functions")
    parser.add_argument("--run", action="store_true", help="also run files that have a host program")
    parser.add_argument("--options", default="", help="build options for every file (e.g. -I DIR)")
    args = parser.parse_args()
    if args.one:
        print(json.dumps(build_one(pathlib.Path(args.one), args.local, args.options)))
        return 0
    paths = sorted(pathlib.Path(args.folder).rglob("*.cl"))
    ran = run_hosts(paths, args.options) if args.run else {}
    tally: dict[str, int] = {}
    print(f"{'file':<44} {'kernels':>7}  outcome")
    for path in paths:
        started = time.time()
        result = build_in_child(path, args.timeout, args.local, file_options(path, args.options))
        tally[result["status"]] = tally.get(result["status"], 0) + 1
        outcome = result["status"] + (f": {result['detail']}" if result["detail"] else "")
        if path.name in ran:
            outcome += f"; {ran[path.name]}"
        name = str(path.relative_to(args.folder))
        print(f"{name:<44} {len(result['kernels']):>7}  {outcome}  ({time.time() - started:.1f} s)")
    print(f"\n{len(paths)} files: " + ", ".join(f"{n} {k}" for k, n in sorted(tally.items())))
    if ran:
        ok = sum(v == "ran ok" for v in ran.values())
        print(f"host programs: {ok} of {len(ran)} ran and matched numpy")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
