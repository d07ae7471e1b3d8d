"""loopy's own tests (a code generator whose kernels run through pyopencl) on one OpenCL vendor.

loopy is not loomcl's dependency: it runs in a Python environment of its own (`--loopy-python`, which
needs loopy, pyopencl, pytest and llvmlite; pytest-xdist and pytest-timeout are used when there). Its
tests are not in its wheel: they come from loopy's repository at the tag of the installed version,
cloned once under ~/.cache/loomcl-loopy/ (or `$LOOMCL_LOOPY_TESTS` naming a test/ folder already there).
"""
from __future__ import annotations

import os
import re
import subprocess
from collections import Counter
from pathlib import Path

from cts import ROOT, vendor_file

LOOPY_TEST_FILES = ("test_statistics.py", "test_reduction.py", "test_loopy.py")
LOOPY_REPOSITORY = "https://github.com/inducer/loopy"
_KINDS = "PASSED|FAILED|SKIPPED|XFAIL|XPASS|ERROR"
_OUTCOME = re.compile(rf"\b(?:({_KINDS}) (test_\S+)|(test_\S+) ({_KINDS}))")   # with -n, and without
_DEVICE = re.compile(r"<context factory for <pyopencl\.Device '[^']*' on '[^']*'>>")


class LoopyUnavailable(Exception):
    """loopy or its tests cannot be had in this environment; the message says why."""


def _python_has(python: str, *modules: str) -> bool:
    probe = "import importlib.util, sys; sys.exit(any(importlib.util.find_spec(m) is None for m in sys.argv[1:]))"
    return subprocess.run([python, "-c", probe, *modules], capture_output=True).returncode == 0


def tests_folder(python: str) -> Path:
    """loopy's test/ folder at the installed version's tag, cloned on first use."""
    chosen = os.environ.get("LOOMCL_LOOPY_TESTS")
    if chosen:
        return Path(chosen).expanduser()
    if not _python_has(python, "loopy", "pyopencl", "pytest", "llvmlite"):
        raise LoopyUnavailable(f"{python} lacks loopy, pyopencl, pytest or llvmlite (pip install loopy pytest llvmlite)")
    version = subprocess.run([python, "-c", "import importlib.metadata as m; print(m.version('loopy'))"],
                             capture_output=True, text=True).stdout.strip()
    checkout = Path.home() / ".cache" / "loomcl-loopy" / f"loopy-{version}"
    if not (checkout / "test" / "test_loopy.py").is_file():
        cloned = subprocess.run(["git", "clone", "--quiet", "--depth", "1", "--branch", f"v{version}",
                                 LOOPY_REPOSITORY, str(checkout)], capture_output=True, text=True)
        if cloned.returncode != 0:
            raise LoopyUnavailable(f"cannot clone loopy v{version}: {cloned.stderr.strip()[-200:]}")
    return checkout / "test"


def outcomes(pytest_output: str) -> dict[str, str]:
    """Each test's outcome in `pytest -v` output, the device's name taken out of its id."""
    return {name or name_first: kind or kind_after
            for kind, name, name_first, kind_after in _OUTCOME.findall(_DEVICE.sub("CTX", pytest_output))}


def run_loopy(label: str, python: str, timeout: float) -> dict:
    """Counts of loopy's tests on the vendor `label`; `outcomes` keeps each test's for comparisons."""
    try:
        folder = tests_folder(python)
        icd = vendor_file(label) if label != "loomcl" else _loomcl_vendor_file(python)
    except LoopyUnavailable as why:
        return {"error": str(why)}
    command = [python, "-m", "pytest", "-v", "-p", "no:cacheprovider", *LOOPY_TEST_FILES]
    if _python_has(python, "xdist"):
        command[3:3] = ["-n", "2"]
    if _python_has(python, "pytest_timeout"):
        command[3:3] = ["--timeout", "400"]
    env = {**os.environ, "OCL_ICD_VENDORS": str(icd), "PYTHONPATH": str(ROOT)}
    try:
        done = subprocess.run(command, cwd=folder, env=env, capture_output=True, text=True, timeout=timeout)
        output, late = done.stdout + done.stderr, False
    except subprocess.TimeoutExpired as hung:
        output, late = ((hung.stdout or b"") + (hung.stderr or b"")).decode(errors="replace"), True
    found = outcomes(output)
    counts = Counter(found.values())
    return {"passed": counts["PASSED"], "failed": counts["FAILED"] + counts["ERROR"],
            "skipped": counts["SKIPPED"] + counts["XFAIL"], "timed out": late, "outcomes": found}


def _loomcl_vendor_file(python: str) -> Path:
    """loomcl's ICD as built for loopy's Python environment (the ICD is built once per environment)."""
    done = subprocess.run([python, "-m", "loomcl", "icd"], cwd=ROOT, capture_output=True, text=True)
    if done.returncode != 0:
        raise LoopyUnavailable(f"loomcl's ICD cannot be built for {python}: {done.stderr.strip()[-300:]}")
    return Path(done.stdout.strip().splitlines()[-1])
