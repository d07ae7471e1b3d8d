"""Build options: the string passed to `Program.build(options=...)`, parsed once into a frozen object.

Accepted, as pyopencl passes them (a string, or a list of strings each of which may hold several
options, split as a POSIX shell would): `-D NAME`, `-DNAME=VALUE`, `-D NAME=VALUE`, a function-like
`-D 'F(x)=#x'`, `-U NAME`, `-I DIR`, `-IDIR`, the standard OpenCL options (OpenCL 3.0 API spec, sec.
5.8.6) and clang's other `-W...` warning switches, which change nothing here. Each is read where it acts: -D/-U/-I and -cl-std
by the preprocessor (predefined.py) and sema, -w/-Werror by Diagnostics, -cl-single-precision-constant
by the lexer, the math options, -cl-denorms-are-zero, -cl-opt-disable and -cl-uniform-work-group-size by code generation
(CompilerOptions.with_build_options, loomcl/options.py), -cl-kernel-arg-info by the runtime's
clGetKernelArgInfo. Anything else raises `OptionError` naming the option, rather than being silently
ignored, so a typo such as `-cl-fast-relaxed-maths` is caught at build time.
"""
from __future__ import annotations

import re
import shlex
from dataclasses import dataclass, replace

from .diagnostics import CompileError, Diagnostic, OptionError, Severity
from .source import BUILTIN_LOCATION


@dataclass(frozen=True)
class MacroOption:
    """`-D name[=value]` (value '1' when omitted) or `-U name` (value None), in command-line order.
    A function-like macro keeps its parameter list in `name` (`XM2S(x)`)."""

    name: str
    value: str | None


@dataclass(frozen=True)
class BuildOptions:
    macros: tuple[MacroOption, ...] = ()
    include_dirs: tuple[str, ...] = ()
    cl_std: str | None = None
    """-cl-std's version, or None when not given (OpenCL C 1.2, the device's; predefined.py).
    CL2.x fails the build: the device has no OpenCL C 2.0 (runtime/versions.py)."""
    fast_relaxed_math: bool = False
    mad_enable: bool = False
    no_signed_zeros: bool = False
    unsafe_math_optimizations: bool = False
    finite_math_only: bool = False
    denorms_are_zero: bool = False
    single_precision_constant: bool = False
    opt_disable: bool = False
    kernel_arg_info: bool = False
    uniform_work_group_size: bool = False
    debug_info: bool = False
    suppress_warnings: bool = False
    warnings_as_errors: bool = False
    warn_all: bool = False  # -Wall: also the warnings clang keeps for it (unused variables)


# Flag options: option text -> BuildOptions field set to True.
_FLAGS = {
    "-cl-fast-relaxed-math": "fast_relaxed_math",
    "-cl-mad-enable": "mad_enable",
    "-cl-no-signed-zeros": "no_signed_zeros",
    "-cl-unsafe-math-optimizations": "unsafe_math_optimizations",
    "-cl-finite-math-only": "finite_math_only",
    "-cl-denorms-are-zero": "denorms_are_zero",
    "-cl-single-precision-constant": "single_precision_constant",
    "-cl-opt-disable": "opt_disable",
    "-cl-kernel-arg-info": "kernel_arg_info",
    "-cl-uniform-work-group-size": "uniform_work_group_size",
    "-g": "debug_info",
    "-w": "suppress_warnings",
    "-Werror": "warnings_as_errors",
    "-Wall": "warn_all",
}
# Standard options that change nothing for a CPU device.
_IGNORED = {"-cl-strict-aliasing", "-cl-no-subgroup-ifp",
            "-cl-fp32-correctly-rounded-divide-sqrt"}
_STANDARDS = {"CL1.0", "CL1.1", "CL1.2", "CL3.0"}  # the device's OPENCL_C_ALL_VERSIONS
_UNSUPPORTED_STANDARDS = {"CL2.0", "CL2.1", "CL2.2"}


def parse_options(options: str | list[str] | tuple[str, ...] | None) -> BuildOptions:
    """Parse an options string or list into BuildOptions; raise OptionError on anything unknown."""
    words = _split(options)
    result = BuildOptions()
    i = 0
    while i < len(words):
        result, i = _parse_one(words, i, result)
    return result


def _split(options) -> list[str]:
    if options is None:
        return []
    if isinstance(options, str):
        options = [options]
    words: list[str] = []
    for item in options:
        try:
            words.extend(shlex.split(item))
        except ValueError as exc:  # an unbalanced quote
            raise OptionError(item, f"cannot split build options ({exc})") from None
    return words


def _parse_one(words: list[str], i: int, result: BuildOptions) -> tuple[BuildOptions, int]:
    """Consume the option at words[i] (and its separate argument, if any)."""
    word = words[i]
    if word in _FLAGS:
        return replace(result, **{_FLAGS[word]: True}), i + 1
    if word in _IGNORED or (word.startswith("-W") and word not in ("-W", "-Werror")):
        return result, i + 1  # clang's other warning switches (-Wno-unused, ...) do not fail a build
    if word.startswith("-cl-std="):
        std = word[len("-cl-std="):]
        if std in _UNSUPPORTED_STANDARDS:  # a valid option the spec says "will fail to compile"
            # the program on a device whose OPENCL_C_ALL_VERSIONS lacks it (API spec 5.8.6.5):
            # a build failure with its log, not an invalid option
            raise CompileError([Diagnostic(Severity.ERROR, BUILTIN_LOCATION,
                                           f"the device does not support OpenCL C {std[2:]} "
                                           f"('{word}'; it compiles OpenCL C 1.0, 1.1, 1.2 and 3.0)")])
        if std not in _STANDARDS:
            raise OptionError(word, "unknown OpenCL C version")
        return replace(result, cl_std=std), i + 1
    for prefix in ("-D", "-U", "-I"):
        if word.startswith(prefix):
            argument, i = _argument(words, i, prefix)
            return _with_prefixed(result, prefix, argument), i
    raise OptionError(word)


def _argument(words: list[str], i: int, prefix: str) -> tuple[str, int]:
    """The argument of -D/-U/-I, glued (`-DX`) or as the next word (`-D X`)."""
    glued = words[i][len(prefix):]
    if glued:
        return glued, i + 1
    if i + 1 >= len(words):
        raise OptionError(words[i], "missing argument to build option")
    return words[i + 1], i + 2


# A -D name as clang reads it: an identifier, for a function-like macro with its parameter list
# glued on (`-DXM2S(x)=#x`, which hashcat passes).
_MACRO_NAME = re.compile(r"[A-Za-z_][A-Za-z_0-9]*(\([A-Za-z_0-9\s,.]*\))?")


def _with_prefixed(result: BuildOptions, prefix: str, argument: str) -> BuildOptions:
    if prefix == "-I":
        return replace(result, include_dirs=result.include_dirs + (argument,))
    name, eq, value = argument.partition("=")
    if prefix == "-U":
        if not name.isidentifier() or eq:
            raise OptionError(prefix + argument, "invalid macro name in build option")
        macro = MacroOption(name, None)
    else:
        if not _MACRO_NAME.fullmatch(name):
            raise OptionError(prefix + argument, "invalid macro name in build option")
        # A value is one line of the #define: clang turns line breaks into spaces the same way.
        macro = MacroOption(name, value.replace("\r", " ").replace("\n", " ") if eq else "1")
    return replace(result, macros=result.macros + (macro,))


@dataclass(frozen=True)
class LinkOptions:
    """clLinkProgram's options (OpenCL 3.0 API spec 5.8.7): -create-library, -enable-link-options
    (only with it) and the math options, which apply to the whole program being linked."""

    create_library: bool = False
    enable_link_options: bool = False
    math: BuildOptions = BuildOptions()
    """The math options given (only those fields set)."""


LINK_MATH_OPTIONS = ("-cl-denorms-are-zero", "-cl-no-signed-zeros", "-cl-unsafe-math-optimizations",
              "-cl-finite-math-only", "-cl-fast-relaxed-math")


def parse_link_options(options: str | list[str] | tuple[str, ...] | None) -> LinkOptions:
    """Parse link options; OptionError names an option that is not a link option."""
    result = LinkOptions()
    for word in _split(options):
        if word == "-create-library":
            result = replace(result, create_library=True)
        elif word == "-enable-link-options":
            result = replace(result, enable_link_options=True)
        elif word in LINK_MATH_OPTIONS:
            result = replace(result, math=replace(result.math, **{_FLAGS[word]: True}))
        elif word != "-cl-no-subgroup-ifp":  # no subgroups: nothing to change
            raise OptionError(word, "not a link option (link options are -create-library, "
                                    "-enable-link-options and the math options " + ", ".join(LINK_MATH_OPTIONS) + ")")
    if result.enable_link_options and not result.create_library:
        raise OptionError("-enable-link-options", "a link option allowed only with -create-library")
    return result
