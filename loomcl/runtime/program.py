"""Programs: OpenCL C source, built by loomcl's compiler into kernel signatures and work-group
functions.

`build()` calls the compiler (imported lazily: the compiler and LLVM are heavy to import and not
needed to create buffers or query devices) and turns its failures into pyopencl's exceptions: a
source error is RuntimeError BUILD_PROGRAM_FAILURE carrying the build log, a bad option LogicError
INVALID_BUILD_OPTIONS. A build that succeeds with warnings keeps them in the build log and, as
pyopencl does, reports them through `compiler_output` as a `CompilerWarning` (the log itself when
PYOPENCL_COMPILER_OUTPUT=1, else a pointer to that variable). `prg.name` gives the kernel `name` (one Kernel object per name, reused, so
`prg.knl(queue, ...)` in a loop keeps its launch plans).
"""
from __future__ import annotations

import os
import shlex
import warnings

from loomcl.errors import LogicError, RuntimeError, status_code

from .constants import build_status, info_attribute, program_build_info, program_info
from .context import Context
from .kernel import Kernel
from .program_binary import from_binary, to_binary


def compile_source(source: str, options: str):
    """The compiler's entry point: `loomcl.compiler.build(source, options) -> CompiledProgram`."""
    from loomcl import compiler

    return compiler.build(source, options)


def compiler_errors() -> tuple[type, type]:
    """(CompileError, OptionError): exported by loomcl.frontend, defined in its diagnostics module."""
    try:
        from loomcl.frontend import CompileError, OptionError
    except ImportError:
        from loomcl.frontend.diagnostics import CompileError, OptionError
    return CompileError, OptionError


def _option_string(options) -> str:
    if options is None:
        return ""
    if isinstance(options, str):
        return options
    return shlex.join(str(option) for option in options)


def _from_binaries(context: Context, devices, binaries) -> tuple[str, str]:
    """The (source, options) of pyopencl's `Program(context, devices, binaries)`, one binary per device."""
    routine = "clCreateProgramWithBinary"
    devices, binaries = list(devices), list(binaries)
    if not devices or len(devices) != len(binaries):
        raise LogicError(routine, status_code.INVALID_VALUE,
                         f"{len(binaries)} binaries for {len(devices)} devices; give one binary per device")
    for device in devices:
        if device not in context.devices:
            raise LogicError(routine, status_code.INVALID_DEVICE, f"{device!r} is not in the context")
    programs = [from_binary(binary, index) for index, binary in enumerate(binaries)]
    if any(program != programs[0] for program in programs):
        raise LogicError(routine, status_code.INVALID_BINARY, "the devices' binaries differ; loomcl's devices share one")
    return programs[0]


class CompilerWarning(UserWarning):
    """pyopencl's warning for a build that succeeded with a non-empty log."""


def compiler_output(text: str) -> None:
    """Report a non-empty build log as pyopencl does (its users' warning filters carry over)."""
    if os.environ.get("PYOPENCL_COMPILER_OUTPUT", "0").lower() in ("1", "y", "yes", "t", "true", "on"):
        warnings.warn(text, CompilerWarning, stacklevel=3)
    else:
        warnings.warn("Non-empty compiler output encountered. Set the environment variable "
                      "PYOPENCL_COMPILER_OUTPUT=1 to see more.", CompilerWarning, stacklevel=3)


class KernelNotFoundError(AttributeError, LogicError):
    """`prg.nope`: an AttributeError (so hasattr/getattr work) that is also loomcl's LogicError."""

    def __init__(self, routine: str, code: int, message: str = "") -> None:
        LogicError.__init__(self, routine, code, message)


class Program:
    """pyopencl's Program(context, source) and Program(context, devices, binaries)."""

    reference_count = 1

    def __init__(self, context: Context, src, binaries=None) -> None:
        if not isinstance(context, Context):
            raise LogicError("clCreateProgramWithSource", status_code.INVALID_CONTEXT, f"{context!r} is not a Context")
        self._binary_options = None
        if binaries is not None:
            src, self._binary_options = _from_binaries(context, src, binaries)
        elif not isinstance(src, str):
            raise LogicError("clCreateProgramWithSource", status_code.INVALID_VALUE,
                             f"the source must be a str, got {type(src).__name__}")
        self.context = context
        self.source = src
        self._compiled = None
        self._options = ""
        self._build_log = ""
        self._status = build_status.NONE
        self._kernels: dict[str, Kernel] = {}

    def build(self, options=None, devices=None, cache_dir=None, report_warnings: bool = True) -> Program:
        """Compile; a failure raises with the build log. `report_warnings=False` (the C API, whose
        clients read the log themselves) keeps a successful build's warnings in the log only."""
        options = _option_string(options)
        if self._binary_options is not None:
            if options and options != self._binary_options:
                raise LogicError("clBuildProgram", status_code.INVALID_BUILD_OPTIONS,
                                 f"a program from a binary builds with the binary's options "
                                 f"{self._binary_options!r}, not {options!r}")
            options = self._binary_options
        for device in devices or ():
            if device not in self.context.devices:
                raise LogicError("clBuildProgram", status_code.INVALID_DEVICE, f"{device!r} is not in the context")
        CompileError, OptionError = compiler_errors()
        self._options = options
        try:
            compiled = compile_source(self.source, options)
        except OptionError as exc:
            self._status, self._build_log = build_status.ERROR, str(exc)
            raise LogicError("clBuildProgram", status_code.INVALID_BUILD_OPTIONS, str(exc)) from None
        except CompileError as exc:
            self._status, self._build_log = build_status.ERROR, exc.log
            device = self.context.devices[0]
            raise RuntimeError(
                "clBuildProgram", status_code.BUILD_PROGRAM_FAILURE, f"Build on {device!r}:\n\n{exc.log}"
            ) from None
        self._compiled, self._status = compiled, build_status.SUCCESS
        self._build_log = compiled.build_log
        self._kernels.clear()
        if report_warnings and self._build_log.strip():
            compiler_output("From-source build succeeded, but resulted in non-empty logs:\n"
                            f"Build on {self.context.devices[0]!r} succeeded, but said:\n\n{self._build_log}")
        return self

    def add_to_build_log(self, text: str) -> None:
        """A kernel's back half failed at its first launch (LLVM, in its compile server): the build
        log says so, as it would had the failure happened in build()."""
        self._build_log = f"{self._build_log}\n{text}" if self._build_log else text

    def compiled(self, routine: str):
        """The compiler's result, or LogicError INVALID_PROGRAM_EXECUTABLE before a successful build."""
        if self._compiled is None:
            raise LogicError(routine, status_code.INVALID_PROGRAM_EXECUTABLE, "the program has not been built")
        return self._compiled

    @property
    def kernel_names(self) -> str:
        return ";".join(self.compiled("clGetProgramInfo").kernels)

    @property
    def num_kernels(self) -> int:
        return len(self.compiled("clGetProgramInfo").kernels)

    @property
    def binaries(self) -> list[bytes]:
        """One binary per device once built (empty before, as clGetProgramInfo's)."""
        binary = to_binary(self.source, self._options) if self._compiled is not None else b""
        return [binary for _ in self.context.devices]

    @property
    def binary_sizes(self) -> list[int]:
        return [len(binary) for binary in self.binaries]

    @property
    def devices(self):
        return list(self.context.devices)

    @property
    def num_devices(self) -> int:
        return len(self.context.devices)

    def all_kernels(self) -> list[Kernel]:
        return [Kernel(self, name) for name in self.compiled("clCreateKernelsInProgram").kernels]

    def get_info(self, param: int):
        return getattr(self, info_attribute(program_info, param, "clGetProgramInfo"))

    def get_build_info(self, device, param: int):
        name = info_attribute(program_build_info, param, "clGetProgramBuildInfo")
        values = {"status": self._status, "options": self._options, "log": self._build_log, "binary_type": 4}
        return values[name]

    @property
    def int_ptr(self) -> int:
        return id(self)

    def __getattr__(self, name: str) -> Kernel:
        if name.startswith("_"):
            raise AttributeError(name)
        kernels = self.__dict__.get("_kernels")
        compiled = self.__dict__.get("_compiled")
        if kernels is None or compiled is None:
            raise KernelNotFoundError(
                "clCreateKernel", status_code.INVALID_PROGRAM_EXECUTABLE, f"'{name}': the program has not been built"
            )
        kernel = kernels.get(name)
        if kernel is None:
            if name not in compiled.kernels:
                raise KernelNotFoundError(
                    "clCreateKernel",
                    status_code.INVALID_KERNEL_NAME,
                    f"the program has no kernel or attribute '{name}'; its kernels are {sorted(compiled.kernels)}",
                )
            kernel = kernels[name] = Kernel(self, name)
        return kernel

    def __repr__(self) -> str:
        return f"<loomcl.Program ({'built' if self._compiled else 'not built'})>"
