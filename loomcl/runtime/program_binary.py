"""Program binaries (`Program.binaries`, `Program(ctx, devices, binaries)`).

loomcl compiles at build time and caches the native code on disk, keyed by source, options and
compiler version, so its "binary" is what rebuilds that code: the OpenCL C source and the build
options, behind a magic line so other bytes are recognised as foreign. Building a program made from
a binary compiles it again (a disk-cache hit when the same loomcl built it before). An `#include`
is read again at that build, from the `-I` directories the options name.
"""
from __future__ import annotations

import json

from loomcl.errors import LogicError, status_code

MAGIC = b"loomcl program binary\n"
FORMAT = 1


def to_binary(source: str, options: str) -> bytes:
    payload = {"format": FORMAT, "source": source, "options": options}
    return MAGIC + json.dumps(payload, ensure_ascii=False).encode()


def from_binary(binary, index: int) -> tuple[str, str]:
    """(source, options) of one binary, or LogicError INVALID_BINARY naming what is wrong with it."""
    routine = "clCreateProgramWithBinary"
    if not isinstance(binary, (bytes, bytearray, memoryview)):
        raise LogicError(routine, status_code.INVALID_BINARY,
                         f"binaries[{index}] is a {type(binary).__name__}, not bytes")
    binary = bytes(binary)
    if not binary.startswith(MAGIC):
        raise LogicError(routine, status_code.INVALID_BINARY,
                         f"binaries[{index}] is not a loomcl program binary (it does not start with {MAGIC!r})")
    try:
        payload = json.loads(binary[len(MAGIC):].decode())
        source, options = payload["source"], payload["options"]
        version = payload["format"]
    except (ValueError, KeyError, TypeError):
        raise LogicError(routine, status_code.INVALID_BINARY, f"binaries[{index}] is a damaged loomcl binary") from None
    if version != FORMAT or not isinstance(source, str) or not isinstance(options, str):
        raise LogicError(routine, status_code.INVALID_BINARY,
                         f"binaries[{index}] has format {version!r}; this loomcl reads format {FORMAT}")
    return source, options
