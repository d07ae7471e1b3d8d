"""The on-disk object cache: a second process builds the same kernel without running LLVM's optimizer.

Key: sha256 over the unoptimized LLVM IR text (a complete function of the kernel IR, the local size,
the parameter kinds and the parallel-loop marks), the code-generating options
(`CompilerOptions.codegen_key`; the pipeline's options change the IR text itself), the loomcl, codegen
and LLVM versions, and the host CPU name and features (an object built for AVX-512 must not run on an
AVX2 machine sharing a home directory). Value: the object file, loaded by jit.load_object.

Location: `$LOOMCL_CACHE_DIR`, else `~/.cache/loomcl/`, one file `<key>.o` per entry. Writes go to a
temporary file in the same directory and are renamed into place (atomic on POSIX), so concurrent
builders and crashes never leave a torn object; a file that cannot be read or written is a miss.
"""
from __future__ import annotations

import hashlib
import os
import tempfile
from pathlib import Path

from ..version import __version__
from ..options import CompilerOptions
from .target import host_cpu, llvm_version

CODEGEN_VERSION = "1"  # bump when target.py's pipeline changes the code for unchanged LLVM IR text


def cache_directory() -> Path:
    configured = os.environ.get("LOOMCL_CACHE_DIR")
    return Path(configured) if configured else Path.home() / ".cache" / "loomcl"


def cache_key(llvm_text: str, options: CompilerOptions) -> str:
    cpu, features = host_cpu()
    digest = hashlib.sha256()
    for part in (CODEGEN_VERSION, __version__, llvm_version(), cpu, features, options.codegen_key(), llvm_text):
        digest.update(part.encode())
        digest.update(b"\0")
    return digest.hexdigest()


def load(key: str) -> bytes | None:
    try:
        return (cache_directory() / f"{key}.o").read_bytes()
    except OSError:
        return None


def store(key: str, data: bytes) -> None:
    directory = cache_directory()
    try:
        directory.mkdir(parents=True, exist_ok=True)
        fd, temporary = tempfile.mkstemp(dir=directory, prefix=f".{key[:16]}.", suffix=".tmp")
    except OSError:
        return  # a read-only or missing directory costs speed, never correctness
    try:
        with os.fdopen(fd, "wb") as out:
            out.write(data)
        os.replace(temporary, directory / f"{key}.o")
    except OSError:
        Path(temporary).unlink(missing_ok=True)
