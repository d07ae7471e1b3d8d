"""The runtime's one door to the compiler (loomcl/driver/): building, compiling and linking programs,
reading build options, and the exceptions a failed build raises.

The driver is imported on the first call, never at import time: the compiler and LLVM are heavy to
import and not needed to create contexts and buffers, copy memory or query devices.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

if TYPE_CHECKING:
    from loomcl.driver import CompiledProgram, CompiledUnit


class CompilerErrors(NamedTuple):
    build: tuple[type, ...]  # a source error or LLVM's failure; each carries `.log`, the build log
    option: type  # a build option the compiler does not understand
    link: type  # an undefined or duplicate function at link time


def errors() -> CompilerErrors:
    from loomcl import driver

    return CompilerErrors(driver.BUILD_FAILURES, driver.OptionError, driver.LinkError)


def build(source: str, options: str) -> CompiledProgram:
    """clBuildProgram from source: the whole front half (the back half runs per local size)."""
    from loomcl import driver

    return driver.build(source, options)


def compile_unit(source: str, options: str, headers: dict[str, str]) -> CompiledUnit:
    """clCompileProgram: one unit, to be linked."""
    from loomcl import driver

    return driver.compile_unit(source, options, headers)


def link(units: list[CompiledUnit], options: str) -> CompiledProgram | None:
    """clLinkProgram: an executable, or None for -create-library."""
    from loomcl import driver

    return driver.link(units, options)


def parse_build_options(options: str):
    """The standard build options in `options` (raises errors().option for a bad one)."""
    from loomcl import driver

    return driver.parse_options(options)


def parse_link_options(options: str):
    """The link options in `options` (raises errors().option for a bad one)."""
    from loomcl import driver

    return driver.parse_link_options(options)


def link_math_options() -> frozenset[str]:
    """The math options that act at link time."""
    from loomcl import driver

    return frozenset(driver.LINK_MATH_OPTIONS)
