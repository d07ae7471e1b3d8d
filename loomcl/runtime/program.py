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
    """pyopencl's Program(context, source)."""

    reference_count = 1

    def __init__(self, context: Context, src, binaries=None) -> None:
        if not isinstance(context, Context):
            raise LogicError("clCreateProgramWithSource", status_code.INVALID_CONTEXT, f"{context!r} is not a Context")
        if binaries is not None or not isinstance(src, str):
            raise LogicError(
                "clCreateProgramWithBinary", status_code.INVALID_BINARY, "loomcl builds programs from OpenCL C source only"
            )
        self.context = context
        self.source = src
        self._compiled = None
        self._options = ""
        self._build_log = ""
        self._status = build_status.NONE
        self._kernels: dict[str, Kernel] = {}

    def build(self, options=None, devices=None, cache_dir=None) -> Program:
        options = _option_string(options)
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
        if self._build_log.strip():
            compiler_output("From-source build succeeded, but resulted in non-empty logs:\n"
                            f"Build on {self.context.devices[0]!r} succeeded, but said:\n\n{self._build_log}")
        return self

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
