"""Programs: OpenCL C source, built by loomcl's compiler into kernel signatures and work-group
functions, or compiled unit by unit and linked (program_link.py).

`build()` calls the compiler (imported lazily: the compiler and LLVM are heavy to import and not
needed to create buffers or query devices) and turns its failures into pyopencl's exceptions: a
source error is RuntimeError BUILD_PROGRAM_FAILURE carrying the build log, a bad option LogicError
INVALID_BUILD_OPTIONS; `compile()` does the same with COMPILE_PROGRAM_FAILURE and
INVALID_COMPILER_OPTIONS. A build that succeeds with warnings keeps them in the build log and, as
pyopencl does, reports them through `compiler_output` as a `CompilerWarning` (the log itself when
PYOPENCL_COMPILER_OUTPUT=1, else a pointer to that variable). `prg.name` gives the kernel `name` (one Kernel object per name, reused, so
`prg.knl(queue, ...)` in a loop keeps its launch plans).

A program's binary type (program_binary_type) says what it holds: nothing yet, a compiled object
(`compile()`), a library or an executable (`build()`, or a link); only an executable has kernels.
What it was made from is kept as a ProgramBinary (program_binary.py), which `binaries` returns.
"""
from __future__ import annotations

import os
import shlex
import warnings

from loomcl.errors import LogicError, RuntimeError, status_code

from . import compiler_api
from .constants import build_status, info_attribute, program_binary_type, program_build_info, program_info
from .context import Context
from .kernel import Kernel
from .program_binary import ProgramBinary, UnitSource, from_binary, to_binary


def compile_source(source: str, options: str):
    """The compiler's entry point: a CompiledProgram (compiler_api.py)."""
    return compiler_api.build(source, options)


def compile_unit(unit: UnitSource):
    """clCompileProgram's: a CompiledUnit (compiler_api.py)."""
    compiled = compiler_api.compile_unit(unit.source, unit.options, dict(unit.headers))
    compiled.takes_link_options = unit.takes_link_options
    return compiled


def compile_binary_units(binary: ProgramBinary, routine: str) -> list:
    """The CompiledUnits of a binary's units, or LogicError INVALID_BINARY if one does not compile
    (a binary of another loomcl whose compiler accepted it)."""
    failures = compiler_api.errors()
    try:
        return [compile_unit(unit) for unit in binary.units]
    except (*failures.build, failures.option) as exc:
        raise LogicError(routine, status_code.INVALID_BINARY,
                         f"the binary's source no longer compiles:\n{getattr(exc, 'log', exc)}") from None


def option_string(options) -> str:
    if options is None:
        return ""
    if isinstance(options, str):
        return options
    return shlex.join(str(option) for option in options)


def check_devices(context: Context, devices, routine: str) -> None:
    for device in devices or ():
        if device not in context.devices:
            raise LogicError(routine, status_code.INVALID_DEVICE, f"{device!r} is not in the context")


def _from_binaries(context: Context, devices, binaries) -> ProgramBinary:
    """The program of pyopencl's `Program(context, devices, binaries)`, one binary per device."""
    routine = "clCreateProgramWithBinary"
    devices, binaries = list(devices), list(binaries)
    if not devices or len(devices) != len(binaries):
        raise LogicError(routine, status_code.INVALID_VALUE,
                         f"{len(binaries)} binaries for {len(devices)} devices; give one binary per device")
    check_devices(context, devices, routine)
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
    il = b""  # no program is made from an intermediate language
    scope_global_ctors_present = scope_global_dtors_present = 0
    global_variable_total_size = 0  # program-scope variables live only in __constant memory

    def __init__(self, context: Context, src, binaries=None) -> None:
        if not isinstance(context, Context):
            raise LogicError("clCreateProgramWithSource", status_code.INVALID_CONTEXT, f"{context!r} is not a Context")
        self._binary: ProgramBinary | None = None  # what the program holds, once it holds something
        self._from_binary = binaries is not None
        self._linked = False  # made by link_program
        if binaries is not None:
            self._binary = _from_binaries(context, src, binaries)
            src = self._binary.units[0].source if self._binary.link_options is None else ""
        elif not isinstance(src, str):
            raise LogicError("clCreateProgramWithSource", status_code.INVALID_VALUE,
                             f"the source must be a str, got {type(src).__name__}")
        self.context = context
        self.source = src
        self._compiled = None  # the executable's CompiledProgram
        self._units = None  # the CompiledUnits of a compiled object or library
        self._options = ""
        self._build_log = ""
        self._status = build_status.NONE
        self._kernels: dict[str, Kernel] = {}

    # -- making the program -------------------------------------------------------------------------

    def build(self, options=None, devices=None, cache_dir=None, report_warnings: bool = True) -> Program:
        """Compile; a failure raises with the build log. `report_warnings=False` (the C API, whose
        clients read the log themselves) keeps a successful build's warnings in the log only."""
        options = option_string(options)
        check_devices(self.context, devices, "clBuildProgram")
        binary = self._binary if self._from_binary else None
        if binary is not None and binary.binary_type != program_binary_type.EXECUTABLE:
            from .program_link import build_from_object

            return build_from_object(self, options, report_warnings)
        if binary is not None and binary.link_options is not None:
            from .program_link import rebuild_linked

            return rebuild_linked(self, options, report_warnings)
        if binary is not None:
            if options and options != binary.units[0].options:
                raise LogicError("clBuildProgram", status_code.INVALID_BUILD_OPTIONS,
                                 f"a program from a binary builds with the binary's options "
                                 f"{binary.units[0].options!r}, not {options!r}")
            options = binary.units[0].options
        elif not self._made_from_source():
            raise LogicError("clBuildProgram", status_code.INVALID_OPERATION,
                             "a program made by linking is already an executable; it cannot be built again")
        self._start(options)
        compiled = self._run_compiler(lambda: compile_source(self.source, options), "clBuildProgram",
                                      status_code.INVALID_BUILD_OPTIONS, status_code.BUILD_PROGRAM_FAILURE)
        self.set_executable(compiled, ProgramBinary(program_binary_type.EXECUTABLE, (UnitSource(self.source, options),)))
        if report_warnings and self._build_log.strip():
            compiler_output("From-source build succeeded, but resulted in non-empty logs:\n"
                            f"Build on {self.context.devices[0]!r} succeeded, but said:\n\n{self._build_log}")
        return self

    def compile(self, options=None, devices=None, headers=None, report_warnings: bool = True) -> Program:
        """clCompileProgram: this program's source, alone, to a compiled object that link_program
        combines with others. `headers`: (include name, Program) pairs whose sources `#include "name"`
        finds. Functions it declares but does not define are resolved at link time. `report_warnings`
        as for build()."""
        routine = "clCompileProgram"
        options = option_string(options)
        check_devices(self.context, devices, routine)
        if not self._made_from_source():
            raise LogicError(routine, status_code.INVALID_OPERATION,
                             "only a program made from source can be compiled (this one was made from a "
                             "binary or by linking)")
        unit = UnitSource(self.source, options, _header_sources(headers))
        self._start(options)
        compiled = self._run_compiler(lambda: compile_unit(unit), routine, status_code.INVALID_COMPILER_OPTIONS,
                                      status_code.COMPILE_PROGRAM_FAILURE)
        self.set_units([compiled], ProgramBinary(program_binary_type.COMPILED_OBJECT, (unit,)))
        if report_warnings and self._build_log.strip():
            compiler_output("Compilation succeeded, but resulted in non-empty logs:\n"
                            f"Compile on {self.context.devices[0]!r} succeeded, but said:\n\n{self._build_log}")
        return self

    @staticmethod
    def link(context: Context, programs, options=None, devices=None) -> Program:
        """pyopencl's raw `Program.link`: the same as link_program."""
        from .program_link import link_program

        return link_program(context, programs, options, devices)

    def _made_from_source(self) -> bool:
        return not self._from_binary and not self._linked

    def _start(self, options: str) -> None:
        """A (re)build from source begins: the program holds nothing until it succeeds."""
        self._options, self._status, self._build_log = options, build_status.IN_PROGRESS, ""
        if not self._from_binary:
            self._binary = self._compiled = self._units = None

    def _run_compiler(self, work, routine: str, bad_options: int, failure: int):
        """work() with the compiler's errors as pyopencl's (the build status and log set)."""
        failures = compiler_api.errors()
        try:
            return work()
        except failures.option as exc:
            self._status, self._build_log = build_status.ERROR, str(exc)
            raise LogicError(routine, bad_options, str(exc)) from None
        except failures.build as exc:
            self._status, self._build_log = build_status.ERROR, exc.log
            verb = "Compile" if failure == status_code.COMPILE_PROGRAM_FAILURE else "Build"
            raise RuntimeError(routine, failure, f"{verb} on {self.context.devices[0]!r}:\n\n{exc.log}") from None

    def fail(self, log: str) -> None:
        self._status, self._build_log = build_status.ERROR, log

    def set_executable(self, compiled, binary: ProgramBinary) -> None:
        self._compiled, self._units, self._binary = compiled, None, binary
        self._status, self._build_log = build_status.SUCCESS, compiled.build_log
        self._kernels.clear()

    def set_units(self, units: list, binary: ProgramBinary) -> None:
        """A compiled object or a library: units to link, no kernels."""
        self._compiled, self._units, self._binary = None, units, binary
        self._status, self._build_log = build_status.SUCCESS, "\n".join(u.build_log for u in units if u.build_log)

    def compiled_units(self, routine: str) -> list:
        """The CompiledUnits of a compiled object or library (compiled now if it came from a binary),
        or LogicError INVALID_OPERATION for a program that is neither."""
        if self.binary_type not in (program_binary_type.COMPILED_OBJECT, program_binary_type.LIBRARY):
            raise LogicError(routine, status_code.INVALID_OPERATION,
                             f"{self!r} is not a compiled object or library (compile() it first)")
        if self._units is None:
            self._units = compile_binary_units(self._binary, routine)
        return self._units

    def add_to_build_log(self, text: str) -> None:
        """A kernel's back half failed at its first launch (LLVM, in its compile server): the build
        log says so, as it would had the failure happened in build()."""
        self._build_log = f"{self._build_log}\n{text}" if self._build_log else text

    def add_warning_to_build_log(self, text: str) -> None:
        """A warning of a kernel's back half (an optional pass left out after an internal error):
        in the build log, and a CompilerWarning, as pyopencl reports a build's warnings."""
        self.add_to_build_log(text)
        warnings.warn(text, CompilerWarning, stacklevel=5)

    def compiled(self, routine: str):
        """The compiler's result, or LogicError INVALID_PROGRAM_EXECUTABLE before a successful build."""
        if self._compiled is None:
            what = {program_binary_type.COMPILED_OBJECT: "is a compiled object, not an executable (link it)",
                    program_binary_type.LIBRARY: "is a library, not an executable (link it)"}
            raise LogicError(routine, status_code.INVALID_PROGRAM_EXECUTABLE,
                             f"the program {what.get(self.binary_type, 'has not been built')}")
        return self._compiled

    # -- info ---------------------------------------------------------------------------------------

    @property
    def binary_type(self) -> int:
        """program_binary_type of what the program holds (a binary's type before it is built)."""
        return program_binary_type.NONE if self._binary is None else self._binary.binary_type

    @property
    def kernel_names(self) -> str:
        return ";".join(self.compiled("clGetProgramInfo").kernels)

    @property
    def num_kernels(self) -> int:
        return len(self.compiled("clGetProgramInfo").kernels)

    @property
    def binaries(self) -> list[bytes]:
        """One binary per device once compiled, linked or built (empty before, as clGetProgramInfo's)."""
        binary = b"" if self._binary is None else to_binary(self._binary)
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
        values = {"status": self._status, "options": self._options, "log": self._build_log,
                  "binary_type": self.binary_type, "global_variable_total_size": self.global_variable_total_size}
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
                "clCreateKernel", status_code.INVALID_PROGRAM_EXECUTABLE,
                f"'{name}': the program is not an executable (build or link it first)"
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
        state = {program_binary_type.COMPILED_OBJECT: "compiled object", program_binary_type.LIBRARY: "library"}
        return f"<loomcl.Program ({'built' if self._compiled else state.get(self.binary_type, 'not built')})>"


def _header_sources(headers) -> tuple[tuple[str, str], ...]:
    """compile()'s headers as (include name, source text) pairs; LogicError INVALID_VALUE if bad."""
    found = []
    for index, pair in enumerate(headers or ()):
        try:
            name, program = pair
        except (TypeError, ValueError):
            name = program = None
        if not isinstance(name, str) or not isinstance(program, Program) or not isinstance(program.source, str):
            raise LogicError("clCompileProgram", status_code.INVALID_VALUE,
                             f"headers[{index}] is {pair!r}; give (include name, Program made from source) pairs")
        found.append((name, program.source))
    return tuple(found)
