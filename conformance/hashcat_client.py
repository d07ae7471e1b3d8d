"""hashcat on one OpenCL implementation: its device list (`hashcat -I`), the self-test and benchmark
(`hashcat -b -m MODE`) of a spread of hash modes, and a real mask attack on a known hash.

hashcat runs every kernel it builds against a known hash before it benchmarks or cracks (its
self-test), so a mode that prints a speed has passed its self-test. Each mode runs in a private
HOME: hashcat keeps its compiled kernels in ~/.cache/hashcat, loomcl and PoCL their own caches
beside them, so modes and implementations share nothing. A mode runs twice, cold (every cache
empty) and warm; the first build, what a user waits for once per mode, is the cold run's wall time
less the warm run's.

Flags: `-D 1` (CPU devices: both implementations are CPU devices); the crack adds `-a 3 -O
--potfile-disable --quiet`. Nothing else (no --force: neither implementation needs it).
"""
from __future__ import annotations

import os
import re
import resource
import subprocess
import tempfile
import time
from pathlib import Path

MODES = {0: "MD5", 100: "SHA1", 1400: "SHA2-256", 1700: "SHA2-512", 1000: "NTLM", 500: "md5crypt",
         3200: "bcrypt", 8900: "scrypt", 22000: "WPA-PBKDF2", 13100: "Kerberos 5 TGS-REP"}
CRACK_HASH, CRACK_WORD, CRACK_MASK = "5d41402abc4b2a76b9719d911017c592", "hello", "?l?l?l?l?l"  # MD5("hello")
DEVICE_FLAGS = ["-D", "1"]
_ANSI = re.compile(r"\x1b\[[0-9;]*m")


def _children_cpu_s() -> float:
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def _run(arguments: list[str], icd: Path, home: Path, timeout: float) -> tuple[str, float, float, bool]:
    """(output, wall seconds, CPU seconds, timed out) of hashcat under `icd` with `home` as its HOME
    and caches. CPU seconds (hashcat's and its children's, such as loomcl's LLVM server) are what a
    busy machine changes least."""
    home.mkdir(parents=True, exist_ok=True)
    env = {**os.environ, "OCL_ICD_VENDORS": str(icd), "HOME": str(home), "XDG_CACHE_HOME": str(home / ".cache"),
           "LOOMCL_CACHE_DIR": str(home / "loomcl-cache"), "POCL_CACHE_DIR": str(home / "pocl-cache")}
    # hashcat's single-instance lock lives in the real user's home, whatever HOME says: one session each.
    session = [] if "-I" in arguments else [f"--session=conformance-{os.getpid()}-{home.name}"]
    started, cpu = time.monotonic(), _children_cpu_s()
    try:
        done = subprocess.run(["hashcat", *arguments, *session], capture_output=True, text=True, timeout=timeout, env=env,
                              cwd=home)
        output, late = done.stdout + done.stderr, False
    except subprocess.TimeoutExpired as hung:
        output, late = ((hung.stdout or b"") + (hung.stderr or b"")).decode(errors="replace"), True
    return _ANSI.sub("", output), time.monotonic() - started, _children_cpu_s() - cpu, late


def device_info(icd: Path, home: Path, timeout: float) -> dict:
    output, _, _, late = _run(["-I"], icd, home, timeout)
    devices = re.findall(r"Backend Device ID #\d+\n(?:.*\n)*?\s+Name\.+:\s*(.+)", output)
    version = re.search(r"OpenCL\.Version\.+:\s*(.+)", output)
    return {"devices": devices, "opencl_c": version.group(1).strip() if version else None, "timed out": late}


def _first_problem(output: str) -> str:
    lines = [line.strip() for line in output.splitlines()]
    return next((line for line in lines if re.search(r"error|fail|exception|abort", line, re.IGNORECASE)), "")[:200]


def read_bench(output: str, timed_out: bool) -> dict:
    """Self-test verdict, speed and first problem of one `hashcat -b` run's output."""
    speeds = re.findall(r"Speed\.#\d+\.*:\s*([\d.]+ \S*H/s)", output)
    if re.search(r"self-test failed", output, re.IGNORECASE):
        self_test = "fail"
    elif speeds:
        self_test = "pass"
    else:
        self_test = "timed out" if timed_out else "no result"
    return {"self-test": self_test, "speed": speeds[0] if speeds else None, "timed out": timed_out,
            "problem": "" if self_test == "pass" else _first_problem(output)}


def bench_mode(mode: int, icd: Path, home: Path, timeout: float) -> dict:
    """Self-test and speed of one mode, cold then warm."""
    output, cold_s, cold_cpu_s, late = _run(["-b", "-m", str(mode), *DEVICE_FLAGS], icd, home, timeout)
    found = {**read_bench(output, late), "cold_s": round(cold_s, 1), "cold_cpu_s": round(cold_cpu_s, 1)}
    if found["speed"]:
        _, warm_s, warm_cpu_s, warm_late = _run(["-b", "-m", str(mode), *DEVICE_FLAGS], icd, home, timeout)
        if not warm_late:
            found.update(warm_s=round(warm_s, 1), warm_cpu_s=round(warm_cpu_s, 1),
                         first_build_s=round(max(cold_s - warm_s, 0.0), 1),
                         first_build_cpu_s=round(max(cold_cpu_s - warm_cpu_s, 0.0), 1))
    return found


def crack(icd: Path, home: Path, timeout: float) -> dict:
    """MD5 of a known five-letter word, found with a mask attack."""
    home.mkdir(parents=True, exist_ok=True)
    (home / "hash.txt").write_text(CRACK_HASH + "\n")
    output, seconds, _, late = _run(["-m", "0", "-a", "3", "-O", *DEVICE_FLAGS, "--potfile-disable", "--quiet",
                                  str(home / "hash.txt"), CRACK_MASK], icd, home, timeout)
    cracked = f"{CRACK_HASH}:{CRACK_WORD}" in output
    return {"cracked": cracked, "seconds": round(seconds, 1), "timed out": late,
            "problem": "" if cracked else _first_problem(output)}


def hashcat(icd: Path, timeout: float, modes=tuple(MODES)) -> dict:
    """Everything above on the implementation of vendor file `icd`; `timeout`: seconds per hashcat run."""
    with tempfile.TemporaryDirectory(prefix="hashcat-client-") as folder:
        root = Path(folder)
        result = {"info": device_info(icd, root / "info", timeout), "modes": {}}
        for mode in modes:
            result["modes"][mode] = bench_mode(mode, icd, root / f"mode-{mode}", timeout)
        # The crack reuses MD5's home: its optimized kernel is built there already when mode 0 ran.
        result["crack"] = crack(icd, root / "mode-0", timeout)
    result["self-tests passed"] = sum(1 for m in result["modes"].values() if m["self-test"] == "pass")
    return result


def _seconds(value) -> str:
    return f"{value:g} s" if value is not None else "-"


def table(by_vendor: dict[str, dict]) -> str:
    """A markdown table: one row per mode, each vendor's self-test, speed, first build (cold run less
    warm run, wall clock) and the warm run's whole time (start, self-test and benchmark)."""
    vendors = list(by_vendor)
    head = "| mode | " + " | ".join(f"{v} self-test | {v} speed | {v} first build | {v} warm run" for v in vendors) + " |"
    rows = [head, "|" + "---|" * (1 + 4 * len(vendors))]
    modes = {m for found in by_vendor.values() for m in found.get("modes", {})}
    for mode in sorted(modes, key=lambda m: list(MODES).index(int(m)) if int(m) in MODES else 999):
        cells = [f"{mode} {MODES.get(int(mode), '')}".strip()]
        for vendor in vendors:
            entry = by_vendor[vendor].get("modes", {}).get(mode, {})
            cells += [entry.get("self-test", "-"), entry.get("speed") or "-", _seconds(entry.get("first_build_s")),
                      _seconds(entry.get("warm_s"))]
        rows.append("| " + " | ".join(cells) + " |")
    crack_cells = ["crack MD5 `-a 3 ?l?l?l?l?l`"]
    for vendor in vendors:
        found = by_vendor[vendor].get("crack", {})
        crack_cells += ["found" if found.get("cracked") else "not found", _seconds(found.get("seconds")), "", ""]
    rows.append("| " + " | ".join(crack_cells) + " |")
    return "\n".join(rows)
