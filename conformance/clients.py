"""OpenCL programs that people already run, on loomcl's ICD and on PoCL, with their counts side by side.

    python conformance/clients.py [--clients clblast clpeak pyopencl hashcat clfft piglit loopy]
                                  [--vendors loomcl pocl] [--timeout S] [--json FILE] [--loopy-python PY]
                                  [--hashcat-modes 0 100 ...]
    python conformance/clients.py --only hashcat          # --only is --clients

- clblast: Debian's clblast-tests (`clblast_test_<routine>`), the routines in CLBLAST_ROUTINES, each
  checked against a reference BLAS; counts its "test(s) passed / skipped / failed".
- clpeak (apt): bandwidth, compute, transfer and kernel-latency figures; counts the figures printed.
- pyopencl: pyopencl's own test suite, CI's subset (tests/icd/pyopencl_suite.py --subset).
- hashcat (apt): `hashcat -I`, the self-test and `hashcat -b -m MODE` of ten modes (MD5 to scrypt,
  WPA and Kerberos), each cold and warm for its first-build time, and a mask attack on a known MD5
  (conformance/hashcat_client.py); prints the table of both vendors.
- clfft: Debian's clfft-client, the transforms in CLFFT_TRANSFORMS, each checked by the client
  against its reference FFT ("Internal Client Test *****PASS*****").
- piglit (apt): `piglit run cl`, piglit's OpenCL API, language and kernel tests (710); counts its
  results. The whole run is one program under `--timeout` (it took over 40 minutes on a loaded
  2-core machine); a run cut off still counts the tests it finished.
- loopy: loopy's tests (conformance/loopy_suite.py) in the Python environment `--loopy-python`.

Each client runs under OCL_ICD_VENDORS naming the implementation's vendor file alone, with a time
limit (`--timeout` seconds per program); a client that is not installed is reported as such.
"""
from __future__ import annotations

import argparse
import bz2
import gzip
import json
import lzma
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from cts import ROOT, vendor_file  # noqa: E402
from hashcat_client import MODES as HASHCAT_MODES, hashcat, table as hashcat_table  # noqa: E402
from loopy_suite import run_loopy  # noqa: E402

CLBLAST_ROUTINES = ("xaxpy", "xdot", "xnrm2", "xscal", "xcopy", "xswap", "xamax", "xasum", "xgemv", "xger",
                    "xsymv", "xtrmv", "xgemm", "xsyrk")
# clFFT-client's transforms: 1D/2D/3D, single and double, powers of 2 and mixed radices (2, 3, 5, 7),
# forward and backward, in and out of place, batched, planar and real (hermitian) layouts.
CLFFT_TRANSFORMS = (
    "-x 16", "-x 1024", "-x 60", "-x 210", "-x 4096 -b 4", "-x 1000 --double", "-x 1024 --double --inv",
    "-x 256 -o", "-x 120 -o --double", "-x 512 --inLayout 2 --outLayout 2",
    "-x 1024 -o --inLayout 5 --outLayout 3", "-x 1024 -o --inLayout 3 --outLayout 5",
    "-x 64 -y 64", "-x 30 -y 50", "-x 128 -y 128 --double", "-x 16 -y 16 -z 16",
    "-x 12 -y 10 -z 8 --double", "-x 32 -y 32 -z 32 -o")
_ANSI = re.compile(r"\x1b\[[0-9;]*m")


def run(command: list[str], icd: Path, timeout: float, cwd: Path | None = None) -> tuple[str, float, bool]:
    """(output, seconds, timed out) of one program under the vendor file `icd`."""
    env = {**os.environ, "OCL_ICD_VENDORS": str(icd)}
    started = time.monotonic()
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=timeout, env=env, cwd=cwd)
        output, late = done.stdout + done.stderr, False
    except subprocess.TimeoutExpired as hung:
        output, late = ((hung.stdout or b"") + (hung.stderr or b"")).decode(errors="replace"), True
    return _ANSI.sub("", output), time.monotonic() - started, late


def clblast(icd: Path, timeout: float) -> dict:
    counts = {"passed": 0, "skipped": 0, "failed": 0, "routines failing": [], "routines timed out": []}
    for routine in CLBLAST_ROUTINES:
        output, _, late = run([f"clblast_test_{routine}"], icd, timeout)
        for kind in ("passed", "skipped", "failed"):
            counts[kind] += sum(int(n) for n in re.findall(rf"(\d+) test\(s\) {kind}", output))
        if late:
            counts["routines timed out"].append(routine)
        elif re.search(r"[1-9]\d* test\(s\) failed", output):
            counts["routines failing"].append(routine)
    return counts


def clpeak(icd: Path, timeout: float) -> dict:
    output, seconds, late = run(["clpeak"], icd, timeout)
    figures = re.findall(r"^[ \t]+(\S[^:\n]*?)[ \t]*:[ \t]*([\d.]+)[ \t]*$", output, re.MULTILINE)
    return {"figures": len(figures), "values": dict(figures), "seconds": round(seconds), "timed out": late}


def pyopencl(label: str, timeout: float) -> dict:
    with tempfile.TemporaryDirectory() as folder:
        result = Path(folder) / "run.json"
        subprocess.run([sys.executable, str(ROOT / "tests/icd/pyopencl_suite.py"), "--vendor", label, "--subset",
                        "--timeout", str(timeout), "--json", str(result)], capture_output=True, text=True)
        if not result.exists():
            return {"error": "pyopencl_suite.py wrote no result"}
        files = json.loads(result.read_text()).get("files", {})
    totals = {"passed": 0, "failed": 0, "skipped": 0}
    for entry in files.values():
        for kind in totals:
            totals[kind] += entry.get("counts", {}).get(kind, 0)
    return totals


def clfft(icd: Path, timeout: float) -> dict:
    failing = []
    for transform in CLFFT_TRANSFORMS:
        output, _, late = run(["clFFT-client", "-p", "1", *transform.split()], icd, timeout)
        if late or "Internal Client Test *****PASS*****" not in output:
            failing.append(transform + (" (timed out)" if late else ""))
    return {"passed": len(CLFFT_TRANSFORMS) - len(failing), "failed": len(failing), "failing": failing}


def piglit(icd: Path, timeout: float) -> dict:
    with tempfile.TemporaryDirectory() as folder:
        results = Path(folder) / "results"
        _, seconds, late = run(["piglit", "run", "cl", "--timeout", "300", str(results)], icd, timeout)
        found = _piglit_results(results)
    counts: dict = {}
    for outcome in found.values():
        counts[outcome] = counts.get(outcome, 0) + 1
    failing = sorted(name for name, outcome in found.items() if outcome in ("fail", "crash", "timeout"))
    return {**counts, "seconds": round(seconds), "timed out": late, "failing": failing}


def _piglit_results(folder: Path) -> dict[str, str]:
    """Each test's result: from piglit's final file, or from the per-test files a cut-off run leaves."""
    opener = {".bz2": bz2.open, ".gz": gzip.open, ".xz": lzma.open, ".json": open}
    for final in sorted(folder.glob("results.json*")):
        with opener[final.suffix](final, "rt") as text:
            return {name: test["result"] for name, test in json.load(text)["tests"].items()}
    found = {}
    for partial in folder.glob("tests/*.json"):
        try:
            found.update({name: test["result"] for name, test in json.loads(partial.read_text()).items()})
        except (ValueError, KeyError, TypeError):
            continue   # the test that was running when the run was cut off
    return found


CLIENTS = {"clblast": ("clblast_test_xaxpy", clblast), "clpeak": ("clpeak", clpeak),
           "pyopencl": (None, None), "hashcat": ("hashcat", hashcat),
           "clfft": ("clFFT-client", clfft), "piglit": ("piglit", piglit), "loopy": (None, None)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clients", "--only", nargs="*", default=list(CLIENTS))
    parser.add_argument("--vendors", nargs="*", default=["loomcl", "pocl"])
    parser.add_argument("--timeout", type=float, default=900, help="seconds one client program may take")
    parser.add_argument("--json", type=Path)
    parser.add_argument("--hashcat-modes", nargs="*", type=int, default=list(HASHCAT_MODES))
    parser.add_argument("--loopy-python", default=sys.executable,
                        help="a Python with loopy, pyopencl, pytest and llvmlite (loopy's own environment)")
    args = parser.parse_args(argv)
    results: dict = {}
    for label in args.vendors:
        icd = vendor_file(label)
        for client in args.clients:
            program, function = CLIENTS[client]
            if program and shutil.which(program) is None:
                found = {"error": f"{program} is not installed"}
            elif client == "pyopencl":
                found = pyopencl(label, args.timeout)
            elif client == "loopy":
                found = run_loopy(label, args.loopy_python, args.timeout)
            elif client == "hashcat":
                found = hashcat(icd, args.timeout, args.hashcat_modes)
            else:
                found = function(icd, args.timeout)
            results.setdefault(client, {})[label] = found
            shown = {key: value for key, value in found.items() if key != "outcomes"}
            print(f"clients: {label} {client}: {json.dumps(shown)}", flush=True)
    if "hashcat" in results:
        print(hashcat_table(results["hashcat"]), flush=True)
    if args.json:
        args.json.write_text(json.dumps({"date": time.strftime("%Y-%m-%d %H:%M"), "results": results}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
