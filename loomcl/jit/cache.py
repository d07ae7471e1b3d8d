"""The on-disk object cache: a second process builds the same kernel without running LLVM's optimizer.

Key: sha256 over the unoptimized LLVM IR text (a complete function of the kernel IR, the local size,
the parameter kinds and the parallel-loop marks), the code-generating options
(`CompilerOptions.codegen_key`; the pipeline's options change the IR text itself), the loomcl, codegen
and LLVM versions, and the host CPU name and features (an object built for AVX-512 must not run on an
AVX2 machine sharing a home directory). Value: the object file, loaded by llvm.load_object.

Location and size limit: cache_config.py (`LOOMCL_CACHE_DIR`, the platform's user cache directory;
`LOOMCL_CACHE_SIZE`, default 1 GiB). One file `<key>.entry` per entry, in cache_entry.py's format.

A cache that never breaks the build:
- writes go to a temporary file in the same directory and are renamed into place (atomic on POSIX and
  Windows), so concurrent builders of one program and crashes never leave a torn entry where a
  reader looks; the last rename wins, and every writer wrote the same bytes;
- every entry is checked before its object reaches LLVM (a bad one crashed MCJIT); one that fails is
  deleted and counts as a miss, so the build compiles the kernel again and stores a good entry;
- a hit touches the entry's modification time, and a store that takes the total past the limit
  deletes the least recently used entries (access times are unreliable: `noatime` mounts);
- a directory that cannot be created or written warns once; the process then keeps its compiled code
  in memory only (the per-process memo of jit/__init__.py), and unreadable entries are misses.
"""
from __future__ import annotations

import hashlib
import os
import tempfile
import time
import warnings
from dataclasses import dataclass
from pathlib import Path

from ..options import CompilerOptions
from ..version import __version__
from . import cache_entry
from .cache_config import cache_directory, size_limit
from .llvm import features, host_cpu, llvm_version

CODEGEN_VERSION = "1"  # bump when compile_server.py's pipeline changes the code for unchanged LLVM IR text
SUFFIX = ".entry"
_OLD_SUFFIXES = (".o",)  # bare object files of earlier loomcl versions: never loaded, evicted first
_STALE_TEMPORARY_S = 3600  # a temporary file this old was left by a writer that died


def cache_key(llvm_text: str, options: CompilerOptions) -> str:
    digest = hashlib.sha256()
    for part in (CODEGEN_VERSION, __version__, llvm_version(), host_cpu()[0], features(options),
                 options.codegen_key(), llvm_text):
        digest.update(part.encode())
        digest.update(b"\0")
    return digest.hexdigest()


def _entry_path(key: str) -> Path:
    return cache_directory() / f"{key}{SUFFIX}"


def load(key: str) -> bytes | None:
    """The object file cached under `key`, checked; None on a miss. A bad entry is deleted."""
    if size_limit() == 0:
        return None
    path = _entry_path(key)
    try:
        data = path.read_bytes()
    except OSError:
        return None
    try:
        payload = cache_entry.unpack(key, data)
    except cache_entry.BadEntry:
        _remove(path)
        return None
    try:
        os.utime(path)  # most recently used
    except OSError:
        pass
    return payload


def certainly_empty() -> bool:
    """True when no lookup can hit: the disk cache is off, or its directory holds no entry yet."""
    if size_limit() == 0:
        return True
    try:
        with os.scandir(cache_directory()) as listing:
            return not any(item.name.endswith(SUFFIX) for item in listing)
    except OSError:
        return True


def store(key: str, data: bytes) -> None:
    limit = size_limit()
    if limit == 0:
        return
    directory = cache_directory()
    try:
        directory.mkdir(parents=True, exist_ok=True)
        fd, temporary = tempfile.mkstemp(dir=directory, prefix=f".{key[:16]}.", suffix=".tmp")
    except OSError as error:
        _warn_unwritable(directory, error)
        return
    try:
        with os.fdopen(fd, "wb") as out:
            out.write(cache_entry.pack(key, data))
        os.replace(temporary, directory / f"{key}{SUFFIX}")
    except OSError as error:
        _remove(Path(temporary))
        _warn_unwritable(directory, error)
        return
    evict(directory, limit, keep=key)


_warned_directories: set[Path] = set()


def _warn_unwritable(directory: Path, error: OSError) -> None:
    if directory not in _warned_directories:
        _warned_directories.add(directory)
        warnings.warn(f"loomcl cannot write its kernel cache in {directory} ({error.strerror or error}); "
                      "compiled kernels are kept in memory for this process only "
                      "(set LOOMCL_CACHE_DIR to a writable directory, or LOOMCL_CACHE_SIZE=0 to silence this)",
                      RuntimeWarning, stacklevel=2)


def _remove(path: Path) -> int | None:
    """Delete `path` if it is still there; the bytes freed, None if another process was first."""
    try:
        size = path.stat().st_size
        path.unlink()
        return size
    except OSError:
        return None


def _entries(directory: Path) -> list[tuple[os.stat_result, Path]]:
    found = []
    try:
        with os.scandir(directory) as listing:
            for item in listing:
                if item.name.endswith((SUFFIX, *_OLD_SUFFIXES)):
                    try:
                        found.append((item.stat(), Path(item.path)))
                    except OSError:
                        pass  # removed meanwhile
    except OSError:
        pass
    return found


def evict(directory: Path, limit: int, keep: str | None = None) -> int:
    """Delete least recently used entries until the total fits in `limit`, and temporary files that
    dead writers left; the number of entries deleted. Several processes may evict at once: a file
    another one deleted first is skipped."""
    now = time.time()
    for stale in directory.glob(".*.tmp"):
        try:
            if now - stale.stat().st_mtime > _STALE_TEMPORARY_S:
                _remove(stale)
        except OSError:
            pass
    entries = _entries(directory)
    total = sum(stat.st_size for stat, _ in entries)
    deleted = 0
    for stat, path in sorted(entries, key=lambda entry: entry[0].st_mtime):
        if total <= limit:
            break
        if path.name == f"{keep}{SUFFIX}":
            continue
        total -= stat.st_size
        deleted += _remove(path) is not None
    return deleted


@dataclass
class CacheInfo:
    directory: Path
    entries: int
    total_bytes: int
    limit_bytes: int
    writable: bool


def info() -> CacheInfo:
    directory = cache_directory()
    entries = _entries(directory)
    writable = os.access(directory, os.W_OK) if directory.exists() else _creatable(directory)
    return CacheInfo(directory, len(entries), sum(stat.st_size for stat, _ in entries), size_limit(), writable)


def _creatable(directory: Path) -> bool:
    parent = directory
    while not parent.exists() and parent != parent.parent:
        parent = parent.parent
    return parent.is_dir() and os.access(parent, os.W_OK)


def clear() -> tuple[int, int]:
    """Delete every entry and temporary file; (entries deleted, bytes freed)."""
    directory = cache_directory()
    count = freed = 0
    for _, path in _entries(directory):
        size = _remove(path)
        if size is not None:
            count, freed = count + 1, freed + size
    for temporary in directory.glob(".*.tmp"):
        freed += _remove(temporary) or 0
    return count, freed
