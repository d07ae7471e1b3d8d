"""Building the ICD library and writing its vendor file.

The library is compiled from native/loomcl_icd.c with the C compiler on first use (`python -m loomcl
icd`), not by pip: it must name the Python that will run loomcl inside a C program (its libpython
and its site directories: a virtual environment's, an editable install's), and pip builds packages
in an isolated environment whose paths are temporary. The result is kept per interpreter and per
source in a directory of its own (LOOMCL_ICD_DIR, else ~/.local/share/loomcl/icd), so several
environments each get theirs, and a changed source is rebuilt.
"""
from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import loomcl

from . import native_entries

SOURCE = Path(__file__).with_name("native") / "loomcl_icd.c"
LIBRARY_NAME = "libloomcl_icd.so"
VENDOR_FILE_NAME = "loomcl.icd"
SYSTEM_VENDORS = Path("/etc/OpenCL/vendors")


class IcdUnavailable(Exception):
    """Why there is no ICD library on this machine (said to the user as is)."""


def icd_root() -> Path:
    configured = os.environ.get("LOOMCL_ICD_DIR")
    if configured:
        return Path(configured)
    data = os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share"
    return Path(data) / "loomcl" / "icd"


def libpython() -> str:
    """The shared libpython a C host opens, or '' when this Python has none (a static build)."""
    if not sysconfig.get_config_var("Py_ENABLE_SHARED"):
        return ""
    name = sysconfig.get_config_var("INSTSONAME") or sysconfig.get_config_var("LDLIBRARY")
    folder = sysconfig.get_config_var("LIBDIR") or ""
    path = Path(folder) / name
    return str(path) if path.exists() else name


def site_dirs() -> list[str]:
    """Where this interpreter finds loomcl and its dependencies (added to an embedded Python's path)."""
    package_parent = str(Path(loomcl.__file__).resolve().parent.parent)
    dirs = [package_parent] + [p for p in sys.path if p and Path(p).is_dir() and "site-packages" in p]
    return list(dict.fromkeys(dirs))


def _key(defines: list[str], entries: str) -> str:
    digest = hashlib.sha256(SOURCE.read_bytes())
    digest.update("\0".join([sys.executable, *defines, entries]).encode())
    return digest.hexdigest()[:16]


def _c_string(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def build_library() -> Path:
    """The ICD library for this interpreter, compiled now unless already there."""
    compiler = os.environ.get("CC") or shutil.which("gcc") or shutil.which("cc")
    if compiler is None:
        raise IcdUnavailable("no C compiler found (install gcc, or set CC): loomcl's ICD library is compiled "
                             "on first use; `import loomcl` works without it")
    defines = [f"-DLOOMCL_LIBPYTHON={_c_string(libpython())}", f"-DLOOMCL_PYTHON={_c_string(sys.executable)}",
               f"-DLOOMCL_SITE_DIRS={_c_string(':'.join(site_dirs()))}", *native_entries.defines()]
    entries = native_entries.header()
    folder = icd_root() / _key(defines, entries)
    library = folder / LIBRARY_NAME
    if library.exists():
        return library
    folder.mkdir(parents=True, exist_ok=True)
    (folder / native_entries.HEADER_NAME).write_text(entries)
    partial = folder / f".{LIBRARY_NAME}.{os.getpid()}"
    command = [compiler, "-shared", "-fPIC", "-O2", "-fvisibility=hidden", "-o", str(partial), str(SOURCE),
               f"-I{folder}", *defines, "-ldl", "-lpthread"]
    result = subprocess.run(command, capture_output=True, text=True)
    if result.returncode:
        raise IcdUnavailable(f"compiling the ICD library failed ({' '.join(command[:1])}):\n{result.stderr.strip()}")
    partial.replace(library)  # atomic: a concurrent build or a loader never sees half a file
    return library


def write_vendor_file(library: Path, folder: Path) -> Path:
    """A vendor file naming `library` (the ICD loader's one-line format) in `folder`."""
    folder.mkdir(parents=True, exist_ok=True)
    vendor = folder / VENDOR_FILE_NAME
    vendor.write_text(f"{library}\n")
    return vendor
