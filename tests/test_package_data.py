"""What an installed loomcl opens at run time is in its wheel: every file of the package that is not a
Python module matches a package-data pattern of pyproject.toml, and the code's own data paths exist.

The wheel itself is built and used from a fresh environment by .ci/check_install (the `install` tier);
this test is the quick guard against a new kind of data file that the patterns forget.
"""
from __future__ import annotations

import subprocess
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "loomcl"


def _package_data_patterns() -> list[str]:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    return config["tool"]["setuptools"]["package-data"]["loomcl"]


def _data_files() -> set[Path]:
    """The package's tracked files that are not Python modules (untracked scratch files are no data)."""
    listed = subprocess.run(["git", "ls-files", "loomcl"], cwd=ROOT, capture_output=True, text=True)
    if listed.returncode == 0 and listed.stdout.strip():
        paths = {ROOT / line for line in listed.stdout.splitlines()}
    else:  # not a git checkout (an unpacked sdist, say): every file there
        paths = {path for path in PACKAGE.rglob("*") if path.is_file() and "__pycache__" not in path.parts}
    return {path for path in paths if path.suffix not in (".py", ".pyc")}


def test_every_data_file_is_package_data():
    shipped = {path for pattern in _package_data_patterns() for path in PACKAGE.glob(pattern)}
    missing = sorted(str(path.relative_to(ROOT)) for path in _data_files() - shipped)
    assert not missing, f"not in pyproject.toml's package-data, so absent from an installed loomcl: {missing}"


def test_the_paths_the_code_opens_are_package_files():
    from loomcl.bench.case import KERNEL_DIR
    from loomcl.icd.build import SOURCE

    for path in (SOURCE, KERNEL_DIR / "machine.cl", KERNEL_DIR / "machine_vec.cl"):
        assert path.is_file() and PACKAGE in path.resolve().parents, path
    assert len(list((PACKAGE / "bench" / "baselines").glob("*.json"))) >= 1


def test_the_license_is_named_and_shipped():
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert config["license"] == "MIT" and config["license-files"] == ["LICENSE"]
    assert (ROOT / "LICENSE").read_text().startswith("MIT License\n")
