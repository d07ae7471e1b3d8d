"""Getting the Khronos OpenCL-CTS and building the binaries the gate runs.

Three public repositories make a CTS build: KhronosGroup/OpenCL-CTS, KhronosGroup/OpenCL-Headers and
KhronosGroup/SPIRV-Headers (test_api's build reads the SPIR-V grammar). `--source DIR` names a folder
that holds the three checkouts under those names; without it they are cloned from GitHub at the
commits below (the ones docs/compatibility.md's counts were taken with). Nothing fetched is part of
this repository.

The build is CMake against the system ICD loader (Debian: ocl-icd-opencl-dev), Release, with the
CTS's warnings-as-errors off (a newer compiler must not stop the gate), and `make` of the named
targets only: the whole CTS is more than 50 binaries.
"""
from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

REPOSITORIES = {
    "OpenCL-CTS": ("https://github.com/KhronosGroup/OpenCL-CTS", "b8f8906c251926b1b3679323bfbf3df730b40fb8"),
    "OpenCL-Headers": ("https://github.com/KhronosGroup/OpenCL-Headers", "15b536b7fbe1098cea462a27db496b287ac89b63"),
    "SPIRV-Headers": ("https://github.com/KhronosGroup/SPIRV-Headers", "0d25db97cb9b8f725e4c95e4553001710e7fc39d"),
}
LOADER_DIRS = ("/usr/lib/x86_64-linux-gnu", "/usr/lib/aarch64-linux-gnu", "/usr/lib64", "/usr/lib")


class BuildError(Exception):
    """The CTS cannot be fetched or built here; the message says what is missing."""


def sources(source: Path | None, work: Path) -> Path:
    """The folder holding the three checkouts: `source`, or clones made under `work`/src."""
    root = source or work / "src"
    for name, (url, commit) in REPOSITORIES.items():
        if not (root / name).is_dir():
            if source:
                raise BuildError(f"{root / name} does not exist (--source must hold {', '.join(REPOSITORIES)})")
            _clone(url, commit, root / name)
    _stub_spir(root / "OpenCL-CTS")
    return root


def _clone(url: str, commit: str | None, into: Path) -> None:
    if shutil.which("git") is None:
        raise BuildError("git is not installed, and no --source was given")
    into.mkdir(parents=True)
    steps = [["git", "init", "-q"], ["git", "remote", "add", "origin", url],
             ["git", "fetch", "-q", "--depth", "1", "origin", commit or "HEAD"],
             ["git", "checkout", "-q", "FETCH_HEAD"]]
    for step in steps:
        done = subprocess.run(step, cwd=into, capture_output=True, text=True)
        if done.returncode != 0:
            shutil.rmtree(into)
            raise BuildError(f"`{' '.join(step)}` failed in {into}: {done.stderr.strip()}")


def _stub_spir(cts: Path) -> None:
    """test_conformance/spir holds large zip files that some mirrors lack; the gate never runs
    test_spir, so an empty CMakeLists.txt lets CMake configure without them."""
    spir = cts / "test_conformance" / "spir"
    if not (spir / "CMakeLists.txt").exists():
        spir.mkdir(parents=True, exist_ok=True)
        (spir / "CMakeLists.txt").write_text("# the SPIR sources are absent: test_spir is not built\n")


def loader_dir() -> str:
    for folder in LOADER_DIRS:
        if Path(folder, "libOpenCL.so").exists():
            return folder
    raise BuildError("no libOpenCL.so (the ICD loader's development files: apt-get install ocl-icd-opencl-dev)")


def configure(root: Path, build: Path) -> None:
    if (build / "CMakeCache.txt").exists():
        return
    for tool in ("cmake", "make", "g++"):
        if shutil.which(tool) is None:
            raise BuildError(f"{tool} is not installed (apt-get install cmake make g++)")
    build.mkdir(parents=True, exist_ok=True)
    command = ["cmake", str(root / "OpenCL-CTS"), "-DCMAKE_BUILD_TYPE=Release",
               f"-DCL_INCLUDE_DIR={root / 'OpenCL-Headers'}", f"-DCL_LIB_DIR={loader_dir()}",
               f"-DSPIRV_INCLUDE_DIR={root / 'SPIRV-Headers'}", "-DOPENCL_LIBRARIES=OpenCL",
               "-DCMAKE_COMPILE_WARNING_AS_ERROR=OFF"]
    _logged(command, build, build / "cmake.log")


def build_targets(build: Path, targets: list[str], jobs: int) -> list[str]:
    """Makes each target (those already built are up to date at once); returns those that failed,
    each with the log that says why."""
    failed = []
    logs = build / "logs"
    logs.mkdir(exist_ok=True)
    for target in targets:
        if target == "test_compiler" and shutil.which("spirv-as") is None:  # its build assembles SPIR-V
            failed.append(f"{target}: spirv-as is not installed (apt-get install spirv-tools)")
            continue
        try:
            _logged(["make", f"-j{jobs}", target], build, logs / f"{target}.log")
        except BuildError as why:
            failed.append(f"{target}: {why}")
    return failed


def _logged(command: list[str], cwd: Path, log: Path) -> None:
    with open(log, "w") as out:
        done = subprocess.run(command, cwd=cwd, stdout=out, stderr=subprocess.STDOUT,
                              env={**os.environ, "LC_ALL": "C"})
    if done.returncode != 0:
        raise BuildError(f"`{' '.join(command[:3])}` exited with status {done.returncode} (see {log})")
