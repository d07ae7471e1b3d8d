"""The format of one cache entry: a header that lets a reader trust the object file behind it.

    magic "LOOMCLO\\0" | format version (u32) | payload length (u64) | key (32 bytes) | blake2b-256 of
    the payload (32 bytes) | payload (the object file)

Loading a corrupt object file into MCJIT crashes the process (a truncated entry did, with SIGSEGV), so
`unpack` checks everything before the object is handed to LLVM: a short or long file (truncated, or
two writers' bytes), another format or version, an entry filed under the wrong key (copied or renamed
by hand), a payload whose checksum differs (bit rot, a torn write after a power loss).
"""
from __future__ import annotations

import hashlib
import struct

MAGIC = b"LOOMCLO\0"
FORMAT_VERSION = 1
_HEADER = struct.Struct("<8sIQ32s32s")
HEADER_SIZE = _HEADER.size


class BadEntry(ValueError):
    """An entry that must not be loaded; the message says why."""


def _digest(payload: bytes) -> bytes:
    return hashlib.blake2b(payload, digest_size=32).digest()


def pack(key: str, payload: bytes) -> bytes:
    return _HEADER.pack(MAGIC, FORMAT_VERSION, len(payload), bytes.fromhex(key), _digest(payload)) + payload


def unpack(key: str, data: bytes) -> bytes:
    """The payload of an entry read from the file for `key`; BadEntry if any check fails."""
    if len(data) < HEADER_SIZE:
        raise BadEntry(f"{len(data)} bytes, shorter than the header")
    magic, version, length, stored_key, digest = _HEADER.unpack_from(data)
    if magic != MAGIC:
        raise BadEntry("not a loomcl cache entry")
    if version != FORMAT_VERSION:
        raise BadEntry(f"format version {version}, this loomcl reads {FORMAT_VERSION}")
    if stored_key != bytes.fromhex(key):
        raise BadEntry("the entry belongs to another key")
    payload = data[HEADER_SIZE:]
    if len(payload) != length:
        raise BadEntry(f"payload of {len(payload)} bytes, the header says {length}")
    if _digest(payload) != digest:
        raise BadEntry("checksum mismatch")
    return payload
