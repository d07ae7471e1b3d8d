"""The front half's disk cache: a program built again from the same source, options and included
files gets its kernel IR from disk, without preprocessing, parsing, checking or lowering it again.

Why: a loomcl program binary is the program's source (runtime/program_binary.py), so a program made
from a binary goes through the front end again. hashcat keeps the binaries of its kernels and makes
programs from them at every start; its kernels include thousands of lines of headers, and the
front end spent 89 of the 106 s of building m00000_a3-optimized.cl (a busy machine), at every start.

Key: sha256 over the text of loomcl's own source files (a changed compiler never reads an older
one's entry), the program's source, its file name and its build options. Entry: every path the
include search looked at, with the sha256 of the text it read there or None where it found no file,
then the pickled build. A hit needs every one of those paths to read the same text (or still be
absent) now, so the search would find the same files; anything else is a miss.

Stored through jit/cache.py (its directory, size limit, atomic writes and checked entries;
LOOMCL_CACHE_SIZE=0 turns it off). Every failure (pickling, reading, an unreadable or stale entry) is
a miss: the build then runs as if there were no cache.
"""
from __future__ import annotations

import hashlib
import os
import pickle
from pathlib import Path

from ..jit import cache

FORMAT = b"loomcl front-half cache 1\0"
_PACKAGE = Path(__file__).resolve().parents[1]
_SOURCE_SUFFIXES = (".py", ".c", ".h", ".cl")
_fingerprint: str | None = None


def _compiler_fingerprint() -> str:
    global _fingerprint
    if _fingerprint is None:
        digest = hashlib.sha256()
        for path in sorted(_PACKAGE.rglob("*")):
            if path.suffix in _SOURCE_SUFFIXES and "__pycache__" not in path.parts and path.is_file():
                digest.update(str(path.relative_to(_PACKAGE)).encode() + b"\0" + path.read_bytes() + b"\0")
        _fingerprint = digest.hexdigest()
    return _fingerprint


def enabled() -> bool:
    return cache.size_limit() != 0


def key(source: str, options: str, filename: str, *more: str) -> str:
    """`more`: what else the build depends on (a separately compiled unit's header programs)."""
    digest = hashlib.sha256(FORMAT)
    for part in (_compiler_fingerprint(), filename, options, source, *more):
        digest.update(part.encode("utf-8", "surrogatepass") + b"\0")
    return digest.hexdigest()


def _text_digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def _reads_the_same(files: list[tuple[str, str | None]]) -> bool:
    for path, digest in files:
        try:
            if os.path.isfile(path):
                with open(path, encoding="utf-8") as f:
                    now = _text_digest(f.read())
            else:
                now = None
        except (OSError, UnicodeError):
            return False
        if now != digest:
            return False
    return True


def load(entry_key: str):
    """The build stored under `entry_key`, if every file it read reads the same now; else None."""
    try:
        data = cache.load(entry_key)
        if data is None or not data.startswith(FORMAT):
            return None
        files, built = pickle.loads(data[len(FORMAT):])
        return built if _reads_the_same(files) else None
    except Exception:  # noqa: BLE001 - a damaged or foreign entry is a miss
        return None


def store(entry_key: str, files: dict[str, str | None], built) -> None:
    """Keep `built` (picklable) with the include search's `files` (Preprocessor.files)."""
    try:
        listed = [(path, None if text is None else _text_digest(text)) for path, text in files.items()]
        cache.store(entry_key, FORMAT + pickle.dumps((listed, built), protocol=pickle.HIGHEST_PROTOCOL))
    except Exception:  # noqa: BLE001 - an optional cache never fails a build
        return
