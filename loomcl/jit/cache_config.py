"""Where the object cache lives and how large it may grow: `LOOMCL_CACHE_DIR`, `LOOMCL_CACHE_SIZE`.

The default directory follows the platform's convention for per-user caches: `$XDG_CACHE_HOME/loomcl`
(else `~/.cache/loomcl`) on Linux and other Unixes, `~/Library/Caches/loomcl` on macOS,
`%LOCALAPPDATA%\\loomcl\\Cache` on Windows. The size limit is a byte count with an optional
suffix (`500M`, `2G`, `1GiB`, `64k`; powers of 1024); `0` turns the disk cache off.
"""
from __future__ import annotations

import os
import re
import sys
import warnings
from pathlib import Path

DEFAULT_SIZE_LIMIT = 1 << 30
_UNITS = {"": 1, "k": 1 << 10, "m": 1 << 20, "g": 1 << 30, "t": 1 << 40}
_SIZE = re.compile(r"\s*(\d+(?:\.\d+)?)\s*([kmgt]?)(?:i?b)?\s*", re.IGNORECASE)


def cache_directory() -> Path:
    configured = os.environ.get("LOOMCL_CACHE_DIR")
    if configured:
        return Path(configured)
    home = Path.home()
    if sys.platform == "win32":
        base = os.environ.get("LOCALAPPDATA")
        return (Path(base) if base else home / "AppData" / "Local") / "loomcl" / "Cache"
    if sys.platform == "darwin":
        return home / "Library" / "Caches" / "loomcl"
    xdg = os.environ.get("XDG_CACHE_HOME")
    return (Path(xdg) if xdg and os.path.isabs(xdg) else home / ".cache") / "loomcl"


def parse_size(text: str) -> int:
    """Bytes in `text` ("1073741824", "500M", "1.5GiB"); ValueError if it is not a size."""
    match = _SIZE.fullmatch(text)
    if not match:
        raise ValueError(f"not a size: {text!r}")
    return int(float(match[1]) * _UNITS[match[2].lower()])


_warned_size: set[str] = set()


def size_limit() -> int:
    """`LOOMCL_CACHE_SIZE` in bytes (default 1 GiB); an unusable value warns once and gives the default."""
    text = os.environ.get("LOOMCL_CACHE_SIZE", "")
    if not text:
        return DEFAULT_SIZE_LIMIT
    try:
        return parse_size(text)
    except ValueError:
        if text not in _warned_size:
            _warned_size.add(text)
            warnings.warn(f"LOOMCL_CACHE_SIZE={text!r} is not a size (such as 500M or 2G); using 1G",
                          RuntimeWarning, stacklevel=3)
        return DEFAULT_SIZE_LIMIT
