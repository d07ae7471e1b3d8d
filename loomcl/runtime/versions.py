"""The versions loomcl reports, in one place: the OpenCL API version of the platform and its device,
the OpenCL C versions its compiler accepts, and OpenCL 3.0's numeric form of them.

loomcl implements OpenCL 3.0 with the optional features it really has (device.py lists them) and
compiles OpenCL C 1.0-1.2 and 3.0 (without 3.0's optional features that need OpenCL C 2.0's
machinery: generic address space, pipes, device-side enqueue, subgroups, C11 atomics). A version
string is "OpenCL<space><major.minor><space><vendor-specific>" (OpenCL 3.0 API spec, 4.1 and 4.2).
"""
from __future__ import annotations

from dataclasses import dataclass

from ..version import __version__ as LOOMCL_VERSION
from .constants import version_bits

CL_VERSION = (3, 0)
"""The OpenCL version of the platform and its device."""
VERSION_STRING = f"OpenCL {CL_VERSION[0]}.{CL_VERSION[1]} loomcl {LOOMCL_VERSION}"
OPENCL_C_VERSION = (1, 2)
"""CL_DEVICE_OPENCL_C_VERSION: the highest OpenCL C 1.x (a 3.0 device names a 1.x version here)."""
OPENCL_C_ALL_VERSIONS = ((1, 0), (1, 1), (1, 2), (3, 0))
CONFORMANCE_NOT_PASSED = "v0000-01-01-00"
"""LATEST_CONFORMANCE_VERSION_PASSED's "vYYYY-MM-DD-XX" form for an implementation that has not
passed the conformance suite (no real date can be that old)."""


def make_version(major: int, minor: int, patch: int = 0) -> int:
    """cl_version: CL_MAKE_VERSION(major, minor, patch)."""
    return (((major & version_bits.MAJOR_MASK) << (version_bits.MINOR_BITS + version_bits.PATCH_BITS))
            | ((minor & version_bits.MINOR_MASK) << version_bits.PATCH_BITS)
            | (patch & version_bits.PATCH_MASK))


def version_parts(version: int) -> tuple[int, int, int]:
    """(major, minor, patch) of a cl_version."""
    return (version >> (version_bits.MINOR_BITS + version_bits.PATCH_BITS),
            (version >> version_bits.PATCH_BITS) & version_bits.MINOR_MASK,
            version & version_bits.PATCH_MASK)


@dataclass(frozen=True)
class NameVersion:
    """cl_name_version (pyopencl's NameVersion): a name of at most 63 bytes and its cl_version."""

    version: int = 0
    name: str = ""

    def __repr__(self) -> str:
        major, minor, patch = version_parts(self.version)
        return f"NameVersion({self.name!r}, {major}.{minor}.{patch})"


def name_versions(names, version: tuple[int, int, int] = (1, 0, 0)) -> list[NameVersion]:
    """One NameVersion per name (a space-separated string or an iterable), all of `version`."""
    if isinstance(names, str):
        names = names.split()
    return [NameVersion(make_version(*version), name) for name in names]
