"""The ICD tests' shared fixtures: the vendor under test, and what a missing tool means.

These tests prove an OpenCL implementation through the ICD loader: loomcl's by default, PoCL or any
vendor file with LOOMCL_ICD_TEST_VENDOR=pocl|PATH (see icd_vendor.py). What they need beyond
loomcl (the vendor file, gcc and the OpenCL headers, the loader, clinfo, pyopencl) may be missing;
then each test is skipped with the reason, the reasons are repeated at the end of every run (even
under -q), and LOOMCL_ICD_REQUIRED=1 makes them failures instead.
"""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

import icd_vendor  # noqa: E402
from icd_skips import reasons, unavailable  # noqa: E402


@pytest.fixture(scope="session")
def _vendor_or_reason():
    try:
        return icd_vendor.resolve(icd_vendor.selected_choice())
    except icd_vendor.VendorUnavailable as reason:
        return f"no ICD to test: {reason}"


@pytest.fixture
def icd_vendor_under_test(_vendor_or_reason) -> icd_vendor.Vendor:
    if isinstance(_vendor_or_reason, str):
        unavailable(_vendor_or_reason)
    return _vendor_or_reason


def pytest_terminal_summary(terminalreporter):
    if not reasons:
        return
    terminalreporter.section("ICD tests not run", sep="-", yellow=True)
    for reason in reasons:
        terminalreporter.write_line(f"skipped: {reason}")
    terminalreporter.write_line(f"(set {icd_vendor.REQUIRED_VARIABLE}=1 to make these failures; "
                                f"{icd_vendor.SELECT_VARIABLE}=pocl tests the system's PoCL)")
