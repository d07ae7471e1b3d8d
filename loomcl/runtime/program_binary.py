"""Program binaries (`Program.binaries`, `Program(ctx, devices, binaries)`).

loomcl compiles at build time and caches the native code on disk, keyed by the LLVM IR and the
compiler's version, so its "binary" is what rebuilds that code: the OpenCL C source of each unit
with its compile options and the text of the headers it was compiled with, how the units were made
into a program (built, or linked with which options), and the binary's type (OpenCL 3.0 API spec
5.8.1: a compiled object, a library or an executable). The bytes are a magic line and JSON, so
other bytes are recognised as foreign. Loading a binary compiles its units again (a disk-cache hit
for the native code when the same loomcl built it before); an `#include` of a file (not a header
program) is read again then, from the `-I` directories the options name.
"""
from __future__ import annotations

import json
from dataclasses import dataclass

from loomcl.errors import LogicError, status_code

from .constants import program_binary_type

MAGIC = b"loomcl program binary\n"
FORMAT = 2
_TYPE_NAMES = {program_binary_type.COMPILED_OBJECT: "object", program_binary_type.LIBRARY: "library",
               program_binary_type.EXECUTABLE: "executable"}
_TYPES = {name: value for value, name in _TYPE_NAMES.items()}


@dataclass(frozen=True)
class UnitSource:
    """One unit of a program as it was compiled: source, options and header programs' text."""

    source: str
    options: str = ""
    headers: tuple[tuple[str, str], ...] = ()  # (include name, text)
    takes_link_options: bool = True  # see compiler.CompiledUnit


@dataclass(frozen=True)
class ProgramBinary:
    binary_type: int  # a program_binary_type other than NONE
    units: tuple[UnitSource, ...]
    link_options: str | None = None
    """None: an executable built from its one unit (clBuildProgram); else the link's options."""


def to_binary(binary: ProgramBinary) -> bytes:
    payload = {"format": FORMAT, "type": _TYPE_NAMES[binary.binary_type], "link_options": binary.link_options,
               "units": [{"source": unit.source, "options": unit.options, "headers": [list(h) for h in unit.headers],
                          "takes_link_options": unit.takes_link_options} for unit in binary.units]}
    return MAGIC + json.dumps(payload, ensure_ascii=False).encode()


def from_binary(binary, index: int) -> ProgramBinary:
    """The program a binary holds, or LogicError INVALID_BINARY naming what is wrong with it."""
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
        version = payload["format"]
        found = _read(payload, version)
    except (ValueError, KeyError, TypeError, AttributeError):
        raise LogicError(routine, status_code.INVALID_BINARY, f"binaries[{index}] is a damaged loomcl binary") from None
    if found is None:
        raise LogicError(routine, status_code.INVALID_BINARY,
                         f"binaries[{index}] has format {version!r}; this loomcl reads formats 1 and {FORMAT}")
    return found


def _read(payload: dict, version) -> ProgramBinary | None:
    """The binary of a payload of `version` (None for an unknown version); malformed fields raise."""
    if version == 1:  # loomcl before separate compilation: an executable's source and options
        return ProgramBinary(program_binary_type.EXECUTABLE, (UnitSource(_text(payload["source"]),
                                                                        _text(payload["options"])),))
    if version != FORMAT:
        return None
    units = tuple(UnitSource(_text(unit["source"]), _text(unit["options"]),
                             tuple((_text(name), _text(text)) for name, text in unit["headers"]),
                             bool(unit["takes_link_options"])) for unit in payload["units"])
    link_options = payload["link_options"]
    if not units or (link_options is not None and not isinstance(link_options, str)):
        raise ValueError("no units, or bad link options")
    return ProgramBinary(_TYPES[payload["type"]], units, link_options)


def _text(value) -> str:
    if not isinstance(value, str):
        raise TypeError(f"{value!r} is not text")
    return value
