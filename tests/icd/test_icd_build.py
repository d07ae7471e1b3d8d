"""The ICD library: built by `python -m loomcl icd`, its vendor file, and the dispatch table's layout."""
from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from loomcl.icd.build import SOURCE
from loomcl.icd.dispatch_table import ENTRIES, INDEX

needs_gcc = pytest.mark.skipif(shutil.which("gcc") is None, reason="gcc is needed to build the ICD library")


def run_icd_command(tmp_path, *args):
    env = {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path), "LOOMCL_ICD_DIR": str(tmp_path / "icd")}
    return subprocess.run([sys.executable, "-m", "loomcl", "icd", *args], capture_output=True, text=True, env=env,
                          cwd=Path(__file__).resolve().parents[2], timeout=120)


@needs_gcc
def test_icd_command_builds_the_library_and_prints_its_vendor_file_last(tmp_path):
    result = run_icd_command(tmp_path)
    assert result.returncode == 0, result.stderr
    vendor = Path(result.stdout.strip().splitlines()[-1])
    assert vendor.name == "loomcl.icd" and vendor.is_absolute()
    library = Path(vendor.read_text().strip())
    assert library.is_file() and library.parent == vendor.parent
    symbols = subprocess.run(["nm", "-D", "--defined-only", str(library)], capture_output=True, text=True).stdout
    exported = {line.split()[-1] for line in symbols.splitlines() if " T " in line}
    assert exported == {"clIcdGetPlatformIDsKHR", "clGetExtensionFunctionAddress"}
    again = run_icd_command(tmp_path)  # the second call finds the same library
    assert again.stdout.strip().splitlines()[-1] == str(vendor)


def test_icd_command_says_why_when_no_compiler(tmp_path, monkeypatch):
    env_result = subprocess.run(
        [sys.executable, "-m", "loomcl", "icd"], capture_output=True, text=True, timeout=60,
        env={"PATH": str(tmp_path), "HOME": str(tmp_path), "LOOMCL_ICD_DIR": str(tmp_path / "icd"), "CC": ""},
        cwd=Path(__file__).resolve().parents[2])
    assert env_result.returncode == 1
    assert "no C compiler found" in env_result.stderr


def test_install_without_permission_says_why(tmp_path):
    if shutil.which("gcc") is None:
        pytest.skip("gcc is needed to build the ICD library")
    vendors = Path("/etc/OpenCL/vendors")
    if vendors.exists() and (vendors.stat().st_mode & 0o002 or __import__("os").geteuid() == 0):
        pytest.skip("this user may write /etc/OpenCL/vendors; --install would change the machine")
    result = run_icd_command(tmp_path, "--install")
    assert result.returncode == 1 and "cannot write /etc/OpenCL/vendors/loomcl.icd" in result.stderr


def test_dispatch_table_has_every_entry_point_once_in_abi_order():
    names = [entry.name for entry in ENTRIES]
    assert len(names) == len(set(names)) == 149
    assert names[:4] == ["clGetPlatformIDs", "clGetPlatformInfo", "clGetDeviceIDs", "clGetDeviceInfo"]
    assert names[-3:] == ["clCreateBufferWithProperties", "clCreateImageWithProperties", "clSetContextDestructorCallback"]
    assert INDEX["clCreateCommandQueueWithProperties"] == 123 and INDEX["clSetEventCallback"] == 81


def test_native_library_forwards_lookups_through_the_table_slot_python_fills():
    declared = re.search(r"DISPATCH_GET_EXTENSION_FUNCTION_ADDRESS = (\d+)", SOURCE.read_text())
    assert int(declared.group(1)) == INDEX["clGetExtensionFunctionAddress"]


def test_every_pointer_returning_entry_reports_errors_through_its_last_argument():
    for entry in ENTRIES:
        if entry.reports_error_by_pointer:
            assert entry.arguments.endswith("p"), entry.name


def test_entries_answer_without_python_after_the_interpreters_end():
    """Generated C: each entry first asks python_usable(); without Python a release, retain, flush or
    wait succeeds, a call returning an object sets errcode_ret, anything else fails."""
    from loomcl.icd import native_entries

    text = native_entries.header()

    def first_line(name):
        body = text[text.index(f" entry_{name}("):]
        return body.splitlines()[1].strip()

    for name in ("clReleaseMemObject", "clRetainContext", "clFinish", "clWaitForEvents"):
        assert first_line(name) == "if (!python_usable()) return 0;"
    assert first_line("clEnqueueNDRangeKernel") == "if (!python_usable()) return -5;"
    assert first_line("clCreateBuffer") == "if (!python_usable()) { if (a4) *(cl_int *)a4 = -5; return NULL; }"
