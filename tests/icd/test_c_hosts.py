"""C host programs (tests/icd/c/) through the ICD loader, and clinfo, on the vendor under test.

Each program is compiled with gcc against <CL/cl.h> and the loader's libOpenCL.so (Debian:
ocl-icd-opencl-dev, opencl-headers), run with OCL_ICD_VENDORS naming the vendor file alone, and
must print "NAME: PASS" and exit 0; each checks its own results against a host computation.
"""
from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

import known_gaps
from icd_skips import unavailable

SOURCES = Path(__file__).resolve().parent / "c"
PROGRAM_TIMEOUT_S = 120   # each takes about a second on PoCL
PROGRAMS = ("vector_add", "reduction", "events_profiling", "image_blur", "error_conventions")
MISSING_PIECES = [
    (re.compile(r"(stdio|stdlib)\.h: No such file"), "the C library's headers are not installed (apt-get install libc6-dev)"),
    (re.compile(r"CL/cl\.h: No such file"), "the OpenCL headers are not installed (apt-get install opencl-headers)"),
    (re.compile(r"cannot find -lOpenCL"), "the ICD loader's libOpenCL.so is not installed "
                                          "(apt-get install ocl-icd-opencl-dev)"),
]


@pytest.fixture(scope="session")
def _built(tmp_path_factory):
    """Every program compiled once, or the reason none can be."""
    if shutil.which("gcc") is None:
        return "gcc is not installed (apt-get install gcc)"
    out = tmp_path_factory.mktemp("c_hosts")
    for name in PROGRAMS:
        done = subprocess.run(["gcc", "-std=c11", "-O1", "-Wall", "-Wextra", "-Werror", "-o", str(out / name),
                               str(SOURCES / f"{name}.c"), "-lOpenCL", "-lm"], capture_output=True, text=True,
                              timeout=120)
        for pattern, reason in MISSING_PIECES:
            if pattern.search(done.stderr):
                return reason
        assert done.returncode == 0, f"{name}.c does not compile:\n{done.stderr}"
    return out


@pytest.fixture
def built(_built) -> Path:
    if isinstance(_built, str):
        unavailable(_built)
    return _built


@pytest.mark.parametrize("name", PROGRAMS)
def test_c_host_program_passes(name, built, icd_vendor_under_test, request):
    known_gaps.expect_gap(request, icd_vendor_under_test, known_gaps.C_PROGRAMS, name)
    try:
        done = subprocess.run([str(built / name)], capture_output=True, text=True, timeout=PROGRAM_TIMEOUT_S,
                              env={**os.environ, **icd_vendor_under_test.environment()})
    except subprocess.TimeoutExpired as hung:
        pytest.fail(f"{name} did not finish in {PROGRAM_TIMEOUT_S} s; its output so far:\n"
                    f"{(hung.stdout or b'').decode(errors='replace')}", pytrace=False)
    shown = f"stdout:\n{done.stdout}\nstderr:\n{done.stderr[-3000:]}"
    assert done.returncode == 0, f"{name} exited with status {done.returncode}\n{shown}"
    assert f"{name}: PASS" in done.stdout, shown
    assert icd_vendor_under_test.platform_name in done.stdout, shown


def test_clinfo_lists_the_platform_with_one_cpu_device(icd_vendor_under_test):
    if shutil.which("clinfo") is None:
        unavailable("clinfo is not installed (apt-get install clinfo)")
    env = {**os.environ, **icd_vendor_under_test.environment()}
    listing = subprocess.run(["clinfo", "--json"], capture_output=True, text=True, timeout=120, env=env)
    assert listing.returncode == 0, listing.stderr
    found = json.loads(listing.stdout)
    names = [platform["CL_PLATFORM_NAME"] for platform in found["platforms"]]
    assert names == [icd_vendor_under_test.platform_name]
    if icd_vendor_under_test.label == "loomcl":
        assert "loomcl" in names[0]
    devices = found["devices"][0]["online"]
    assert [device["CL_DEVICE_TYPE"]["type"] for device in devices] == [["CL_DEVICE_TYPE_CPU"]]


def test_clinfo_gets_an_answer_to_every_query(icd_vendor_under_test):
    """clinfo asks for every platform and device property the platform's version defines; an
    implementation that reports OpenCL 3.0 must answer each (clinfo shows failures as <... error ...>)."""
    if shutil.which("clinfo") is None:
        unavailable("clinfo is not installed (apt-get install clinfo)")
    env = {**os.environ, **icd_vendor_under_test.environment()}
    done = subprocess.run(["clinfo"], capture_output=True, text=True, timeout=120, env=env)
    assert done.returncode == 0, done.stderr
    failed = [line.strip() for line in done.stdout.splitlines() if re.search(r"<[^>]*(error|CL_INVALID)", line)]
    assert not failed, "\n".join(failed)
