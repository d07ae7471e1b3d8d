"""Which OpenCL implementation the ICD tests run against, as an ICD loader sees it.

A vendor is an ICD vendor file (one line: the path of an implementation's library). With
`OCL_ICD_VENDORS=<file>` the ocl-icd loader (the system libOpenCL.so and the one in pyopencl's wheel)
loads that implementation alone, so one vendor file selects everything under test.

`LOOMCL_ICD_TEST_VENDOR` chooses it: `loomcl` (the default: the file
`python -m loomcl icd` prints as its last line), `pocl` (the system's PoCL, for comparison), or the
path of any vendor file. Whatever cannot be found is a `VendorUnavailable` whose message says why; the
tests turn it into a skip with that reason, or a failure under `LOOMCL_ICD_REQUIRED=1`.
"""
from __future__ import annotations

import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
POCL_VENDOR_FILE = Path("/etc/OpenCL/vendors/pocl.icd")
SELECT_VARIABLE = "LOOMCL_ICD_TEST_VENDOR"
REQUIRED_VARIABLE = "LOOMCL_ICD_REQUIRED"


class VendorUnavailable(Exception):
    """The vendor under test cannot be used here; the message is the reason, for the skip."""


@dataclass(frozen=True)
class Vendor:
    label: str           # "loomcl", "pocl" or the file's stem
    icd_file: Path
    platform_name: str   # what the loader lists for it

    def environment(self) -> dict[str, str]:
        """The variables that make any ocl-icd loader (and pyopencl's tests) see this vendor alone."""
        return {"OCL_ICD_VENDORS": str(self.icd_file), "PYOPENCL_TEST": self.platform_name,
                "PYOPENCL_CTX": self.platform_name}


def selected_choice(option: str | None = None) -> str:
    return option or os.environ.get(SELECT_VARIABLE) or "loomcl"


def required() -> bool:
    return os.environ.get(REQUIRED_VARIABLE, "") not in ("", "0")


def resolve(choice: str) -> Vendor:
    """The vendor named by `choice`, with its platform's name as the loader reports it."""
    if choice == "loomcl":
        label, icd_file = "loomcl", loomcl_vendor_file()
    elif choice == "pocl":
        label, icd_file = "pocl", POCL_VENDOR_FILE
    else:
        icd_file = Path(choice).expanduser().resolve()
        label = icd_file.stem
    if not icd_file.is_file():
        raise VendorUnavailable(f"the vendor file {icd_file} ({label}) does not exist")
    return Vendor(label, icd_file, platform_name(icd_file))


def loomcl_vendor_file() -> Path:
    """The vendor file `python -m loomcl icd` builds and prints as its last line."""
    try:
        done = subprocess.run([sys.executable, "-m", "loomcl", "icd"], cwd=ROOT, capture_output=True,
                              text=True, timeout=600, env={**os.environ, "PYTHONPATH": _pythonpath()})
    except subprocess.TimeoutExpired:
        raise VendorUnavailable("`python -m loomcl icd` did not finish in 600 s") from None
    lines = done.stdout.strip().splitlines()
    if done.returncode != 0 or not lines:
        said = (done.stderr.strip().splitlines() or ["no output"])[-1]
        raise VendorUnavailable(f"`python -m loomcl icd` exited with status {done.returncode} "
                                f"(loomcl's ICD is not built here): {said}")
    return Path(lines[-1].strip())


# Asked through the system loader with ctypes in a child process: needs neither pyopencl nor clinfo, and
# a crash in the implementation is a reason, not the end of the test session.
PLATFORM_PROBE = """
import ctypes, ctypes.util, sys
name = ctypes.util.find_library("OpenCL")
if not name:
    sys.exit("no OpenCL ICD loader (libOpenCL.so) is installed")
cl = ctypes.CDLL(name)
count = ctypes.c_uint32()
status = cl.clGetPlatformIDs(0, None, ctypes.byref(count))
if status != 0 or count.value == 0:
    sys.exit(f"the loader finds no platform (clGetPlatformIDs returned {status})")
ids = (ctypes.c_void_p * count.value)()
cl.clGetPlatformIDs(count.value, ids, None)
for platform in ids:
    text = ctypes.create_string_buffer(1024)
    cl.clGetPlatformInfo(ctypes.c_void_p(platform), 0x0902, 1024, text, None)  # CL_PLATFORM_NAME
    print(text.value.decode())
"""


def platform_name(icd_file: Path) -> str:
    """The name of the one platform the loader lists when it sees only `icd_file`."""
    try:
        done = subprocess.run([sys.executable, "-c", PLATFORM_PROBE], capture_output=True, text=True,
                              timeout=120, env={**os.environ, "OCL_ICD_VENDORS": str(icd_file)})
    except subprocess.TimeoutExpired:
        raise VendorUnavailable(f"listing the platforms of {icd_file} took over 120 s") from None
    if done.returncode != 0:
        said = (done.stderr.strip().splitlines() or [f"exit status {done.returncode}"])[-1]
        raise VendorUnavailable(f"the OpenCL loader cannot list the platforms of {icd_file}: {said}")
    names = [name for name in done.stdout.splitlines() if name.strip()]
    if len(names) != 1:
        raise VendorUnavailable(f"the loader lists {len(names)} platforms for {icd_file}: {names}")
    return names[0]


def _pythonpath() -> str:
    return os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))
