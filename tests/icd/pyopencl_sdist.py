"""pyopencl's own tests and examples, taken from the sdist of the pyopencl version installed here.

The sdist is fetched once through PyPI's simple index (its JSON form, PEP 691) and checked against the
digest the index gives (not with
`pip download`, which prepares a source archive's metadata by building it: pyopencl's needs a C++
toolchain) and only its test/ and examples/ folders are kept, under `$LOOMCL_PYOPENCL_SUITE` or
~/.cache/loomcl-pyopencl/pyopencl-<version>/. Only those two folders: the sdist's pyopencl/ source
package, were it on the path, would shadow the installed (compiled) pyopencl.
"""
from __future__ import annotations

import hashlib
import json
import os
import shutil
import tarfile
import tempfile
import urllib.request
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


PYPI_INDEX = "https://pypi.org/simple/pyopencl/"


def _fetch(pyopencl_version: str, target: Path) -> None:
    with tempfile.TemporaryDirectory() as download:
        archive = Path(download) / f"pyopencl-{pyopencl_version}.tar.gz"
        try:
            _download_sdist(pyopencl_version, archive)
        except StopIteration:
            raise SuiteUnavailable(f"PyPI's index lists no {archive.name}") from None
        except (OSError, ValueError, KeyError) as exc:
            raise SuiteUnavailable(f"cannot download pyopencl {pyopencl_version}'s sdist: {exc}") from None
        staging = target.with_name(target.name + ".partial")
        shutil.rmtree(staging, ignore_errors=True)   # a fetch that was cut off
        shutil.rmtree(target, ignore_errors=True)
        _extract_kept_folders(archive, staging)
        staging.replace(target)


def _download_sdist(pyopencl_version: str, archive: Path) -> None:
    request = urllib.request.Request(PYPI_INDEX, headers={"Accept": "application/vnd.pypi.simple.v1+json"})
    with urllib.request.urlopen(request, timeout=120) as answer:
        index = json.load(answer)
    sdist = next(item for item in index["files"] if item["filename"] == archive.name)
    with urllib.request.urlopen(sdist["url"], timeout=600) as answer:
        data = answer.read()
    if hashlib.sha256(data).hexdigest() != sdist["hashes"]["sha256"]:
        raise ValueError(f"{sdist['url']} does not match PyPI's sha256")
    archive.write_bytes(data)


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
