"""Remembered variant choices: micro-profiling's winners on disk, so a later process starts with them.

Next to the native-code cache (jit/cache_config.py: `LOOMCL_CACHE_DIR`; none when
`LOOMCL_CACHE_SIZE=0`), in its `choices/` folder: one small JSON file per key, `<key>.json`, written
to a temporary file and renamed into place (atomic), as the cache writes its entries. The key
(microprofile.py) covers the kernel's code, the launch's shape class and the variant table, so a
changed kernel, compiler or table never meets an old choice. A file that is unreadable, not the
format, for another key or naming a variant the table no longer has is ignored and deleted: the
launch profiles anew and writes a good one.
"""
from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path

from ..jit.cache_config import cache_directory, size_limit
from . import variants

FORMAT = 1
FOLDER = "choices"


def _path(key: str) -> Path:
    return cache_directory() / FOLDER / f"{key}.json"


def load(key: str) -> str | None:
    """The variant name remembered under `key`, or None (nothing usable there)."""
    if size_limit() == 0:
        return None
    path = _path(key)
    try:
        record = json.loads(path.read_text())
    except FileNotFoundError:
        return None
    except (OSError, ValueError):
        _remove(path)
        return None
    winner = record.get("winner") if isinstance(record, dict) else None
    if record_is_valid(record, key) and variants.named(winner) is not None:
        return winner
    _remove(path)
    return None


def record_is_valid(record, key: str) -> bool:
    return (isinstance(record, dict) and record.get("format") == FORMAT and record.get("key") == key
            and isinstance(record.get("winner"), str))


def store(key: str, winner: str, detail: dict) -> None:
    """Remember `winner` under `key` (`detail`: what it was chosen from, for a curious reader).
    A cache directory that cannot be written only loses the memory: the cache warns about it."""
    if size_limit() == 0:
        return
    folder = cache_directory() / FOLDER
    record = {"format": FORMAT, "key": key, "winner": winner, **detail}
    try:
        folder.mkdir(parents=True, exist_ok=True)
        fd, temporary = tempfile.mkstemp(dir=folder, prefix=f".{key[:16]}.", suffix=".tmp")
    except OSError:
        return
    try:
        with os.fdopen(fd, "w") as out:
            json.dump(record, out, indent=1, sort_keys=True)
        os.replace(temporary, folder / f"{key}.json")
    except OSError:
        _remove(Path(temporary))


def _remove(path: Path) -> None:
    try:
        path.unlink()
    except OSError:
        pass


def clear() -> int:
    """Forget every remembered choice (`loomcl cache clear`); the number forgotten."""
    folder = cache_directory() / FOLDER
    count = 0
    for path in folder.glob("*.json"):
        try:
            path.unlink()
            count += 1
        except OSError:
            pass
    for temporary in folder.glob(".*.tmp"):
        _remove(temporary)
    return count
