"""OpenCL programs that people already run, on loomcl's ICD and on PoCL, with their counts side by side.

    python conformance/clients.py [--clients clblast clpeak pyopencl hashcat] [--vendors loomcl pocl]
                                  [--timeout S] [--json FILE] [--hashcat-modes 0 100 ...]
    python conformance/clients.py --only hashcat          # --only is --clients

- clblast: Debian's clblast-tests (`clblast_test_<routine>`), the routines in CLBLAST_ROUTINES, each
  checked against a reference BLAS; counts its "test(s) passed / skipped / failed".
- clpeak (apt): bandwidth, compute, transfer and kernel-latency figures; counts the figures printed.
- pyopencl: pyopencl's own test suite, CI's subset (tests/icd/pyopencl_suite.py --subset).
- hashcat (apt): `hashcat -I`, the self-test and `hashcat -b -m MODE` of ten modes (MD5 to scrypt,
  WPA and Kerberos), each cold and warm for its first-build time, and a mask attack on a known MD5
  (conformance/hashcat_client.py); prints the table of both vendors.

Each client runs under OCL_ICD_VENDORS naming the implementation's vendor file alone, with a time
limit (`--timeout` seconds per program); a client that is not installed is reported as such.
"""
from __future__ import annotations

import argparse
import json
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

CLBLAST_ROUTINES = ("xaxpy", "xdot", "xnrm2", "xscal", "xcopy", "xswap", "xamax", "xasum", "xgemv", "xger",
                    "xsymv", "xtrmv", "xgemm", "xsyrk")
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


CLIENTS = {"clblast": ("clblast_test_xaxpy", clblast), "clpeak": ("clpeak", clpeak),
           "pyopencl": (None, None), "hashcat": ("hashcat", hashcat)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clients", "--only", nargs="*", default=list(CLIENTS))
    parser.add_argument("--vendors", nargs="*", default=["loomcl", "pocl"])
    parser.add_argument("--timeout", type=float, default=900, help="seconds one client program may take")
    parser.add_argument("--json", type=Path)
    parser.add_argument("--hashcat-modes", nargs="*", type=int, default=list(HASHCAT_MODES))
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
            elif client == "hashcat":
                found = hashcat(icd, args.timeout, args.hashcat_modes)
            else:
                found = function(icd, args.timeout)
            results.setdefault(client, {})[label] = found
            print(f"clients: {label} {client}: {json.dumps(found)}", flush=True)
    if "hashcat" in results:
        print(hashcat_table(results["hashcat"]), flush=True)
    if args.json:
        args.json.write_text(json.dumps({"date": time.strftime("%Y-%m-%d %H:%M"), "results": results}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
