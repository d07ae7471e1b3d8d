"""pyopencl's own tests and examples, taken from the sdist of the pyopencl version installed here.

The sdist is fetched once with pip (`pip download --no-deps --no-binary pyopencl`: the source archive,
never built) and only its test/ and examples/ folders are kept, under `$LOOMCL_PYOPENCL_SUITE` or
~/.cache/loomcl-pyopencl/pyopencl-<version>/. Only those two folders: the sdist's pyopencl/ source
package, were it on the path, would shadow the installed (compiled) pyopencl.
"""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tarfile
import tempfile
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path

KEPT_FOLDERS = ("test", "examples")


class SuiteUnavailable(Exception):
    """pyopencl or its sdist cannot be had here; the message says why."""


def installed_version() -> str:
    try:
        return version("pyopencl")
    except PackageNotFoundError:
        raise SuiteUnavailable("pyopencl is not installed (pip install pyopencl)") from None


def cache_root() -> Path:
    chosen = os.environ.get("LOOMCL_PYOPENCL_SUITE")
    return Path(chosen).expanduser() if chosen else Path.home() / ".cache" / "loomcl-pyopencl"


def suite_dir(pyopencl_version: str | None = None) -> Path:
    """The folder holding test/ and examples/ of pyopencl's sdist, fetched on first use."""
    pyopencl_version = pyopencl_version or installed_version()
    target = cache_root() / f"pyopencl-{pyopencl_version}"
    if not (target / "test" / "test_wrapper.py").is_file():
        _fetch(pyopencl_version, target)
    return target


def _fetch(pyopencl_version: str, target: Path) -> None:
    with tempfile.TemporaryDirectory() as download:
        done = subprocess.run(
            [sys.executable, "-m", "pip", "download", "--quiet", "--no-deps", "--no-binary", "pyopencl",
             f"pyopencl=={pyopencl_version}", "--dest", download],
            capture_output=True, text=True, timeout=600)
        archives = list(Path(download).glob("pyopencl-*.tar.gz"))
        if done.returncode != 0 or not archives:
            said = (done.stderr.strip().splitlines() or ["no archive"])[-1]
            raise SuiteUnavailable(f"cannot download pyopencl {pyopencl_version}'s sdist: {said}")
        staging = target.with_name(target.name + ".partial")
        shutil.rmtree(staging, ignore_errors=True)   # a fetch that was cut off
        shutil.rmtree(target, ignore_errors=True)
        _extract_kept_folders(archives[0], staging)
        staging.replace(target)


def _extract_kept_folders(archive: Path, destination: Path) -> None:
    """test/ and examples/ of the archive into `destination`, the archive's top folder dropped."""
    destination.mkdir(parents=True, exist_ok=True)
    with tarfile.open(archive) as tar:
        for member in tar.getmembers():
            parts = Path(member.name).parts
            if len(parts) < 3 or parts[1] not in KEPT_FOLDERS or not (member.isfile() or member.isdir()):
                continue
            member.name = str(Path(*parts[1:]))
            tar.extract(member, destination, filter="data")
