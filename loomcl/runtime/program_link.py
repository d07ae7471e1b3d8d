"""clLinkProgram: compiled objects and libraries into an executable or a library, with pyopencl's
`link_program(context, programs, options=None, devices=None)`.

An executable is linked by the compiler (loomcl/driver/linker.py: the units' kernel-IR modules merged, each
call of a function another unit defines resolved to it); a library (`-create-library`) is the units
themselves, checked for clashes, linked later with more. Errors follow the spec: a program that is
not a compiled object or library is INVALID_OPERATION, a bad option INVALID_LINKER_OPTIONS, and a
link that fails (an undefined or duplicate function) RuntimeError LINK_PROGRAM_FAILURE whose
message and build log name the symbol; the exception's `program` is the failed program, whose build
status is ERROR (the ICD's clLinkProgram returns it).
"""
from __future__ import annotations

import dataclasses

from loomcl.errors import LogicError, RuntimeError, status_code

from . import compiler_api
from .constants import program_binary_type
from .context import Context
from .program import Program, check_devices, compile_binary_units, compiler_output, option_string
from .program_binary import ProgramBinary

ROUTINE = "clLinkProgram"


def link_program(context: Context, programs, options=None, devices=None, report_warnings: bool = True) -> Program:
    """pyopencl's link_program: a new program linked from compiled objects and libraries
    (`report_warnings` as for Program.build)."""
    if not isinstance(context, Context):
        raise LogicError(ROUTINE, status_code.INVALID_CONTEXT, f"{context!r} is not a Context")
    check_devices(context, devices, ROUTINE)
    programs = _input_programs(context, programs)
    options = option_string(options)
    parsed = _parse_options(options)
    create_library = parsed.create_library
    units = [unit for program in programs for unit in program.compiled_units(ROUTINE)]
    sources = tuple(unit for program in programs for unit in program._binary.units)
    if create_library:  # a library's units take later link options only with -enable-link-options
        keep = parsed.enable_link_options
        units = [dataclasses.replace(unit, takes_link_options=unit.takes_link_options and keep) for unit in units]
        sources = tuple(dataclasses.replace(unit, takes_link_options=unit.takes_link_options and keep)
                        for unit in sources)
    linked = Program(context, "")
    linked._linked = True
    binary_type = program_binary_type.LIBRARY if create_library else program_binary_type.EXECUTABLE
    _link(linked, units, ProgramBinary(binary_type, sources, options), options, report_warnings)
    return linked


def build_from_object(program: Program, options: str, report_warnings: bool) -> Program:
    """clBuildProgram on a program made from a compiled object's or library's binary: link it (alone)
    into an executable."""
    options = _link_part(options)
    units = program.compiled_units("clBuildProgram")
    binary = ProgramBinary(program_binary_type.EXECUTABLE, program._binary.units, options)
    program._from_binary = False  # it holds an executable now; building again is an error
    program._linked = True
    return _link(program, units, binary, options, report_warnings)


def rebuild_linked(program: Program, options: str, report_warnings: bool) -> Program:
    """clBuildProgram on a program made from a linked executable's binary: compile and link its
    units again, with the link's options."""
    binary = program._binary
    options = " ".join(part for part in (binary.link_options, _link_part(options)) if part)
    return _link(program, compile_binary_units(binary, "clBuildProgram"), binary, options, report_warnings)


def _link_part(options: str) -> str:
    """The words of build options that act when a binary's units are linked: the math options and
    loomcl's switches. The rest (-D, -I, -cl-std, ...) acted when the units were compiled, so they
    are accepted (pyopencl adds `-I` to every build) and have no effect; a word that is no build
    option is LogicError INVALID_BUILD_OPTIONS."""
    from loomcl.options import CompilerOptions

    _, rest = CompilerOptions.split(options)
    try:
        compiler_api.parse_build_options(rest)
    except compiler_api.errors().option as exc:
        raise LogicError("clBuildProgram", status_code.INVALID_BUILD_OPTIONS, str(exc)) from None
    loomcl_words = set(options.split()) - set(rest.split())
    return " ".join(word for word in options.split() if word in compiler_api.link_math_options() or word in loomcl_words)


def _input_programs(context: Context, programs) -> list[Program]:
    try:
        programs = list(programs)
    except TypeError:
        raise LogicError(ROUTINE, status_code.INVALID_VALUE, f"programs is {programs!r}, not a list") from None
    if not programs:
        raise LogicError(ROUTINE, status_code.INVALID_VALUE, "no programs to link")
    for index, program in enumerate(programs):
        if not isinstance(program, Program):
            raise LogicError(ROUTINE, status_code.INVALID_PROGRAM, f"programs[{index}] is not a Program: {program!r}")
        if program.context is not context:
            raise LogicError(ROUTINE, status_code.INVALID_CONTEXT, f"programs[{index}] belongs to another context")
        if program.binary_type not in (program_binary_type.COMPILED_OBJECT, program_binary_type.LIBRARY):
            raise LogicError(ROUTINE, status_code.INVALID_OPERATION,
                             f"programs[{index}] is not a compiled object or library (compile() it first)")
    return programs


def _parse_options(options: str, routine: str = ROUTINE, code: int = status_code.INVALID_LINKER_OPTIONS):
    from loomcl.options import CompilerOptions

    _, rest = CompilerOptions.split(options)
    try:
        return compiler_api.parse_link_options(rest)
    except compiler_api.errors().option as exc:
        raise LogicError(routine, code, str(exc)) from None


def _link(program: Program, units: list, binary: ProgramBinary, options: str, report_warnings: bool) -> Program:
    """Link `units` into `program` (an executable or, per `binary`, a library)."""
    failures = compiler_api.errors()
    program._options = options
    try:
        compiled = compiler_api.link(units, options)
    except failures.link as exc:
        program.fail(str(exc))
        error = RuntimeError(ROUTINE, status_code.LINK_PROGRAM_FAILURE,
                             f"Link on {program.context.devices[0]!r}:\n\n{exc}")
        error.program = program
        raise error from None
    except failures.option as exc:  # a loomcl switch (-loomcl-...) that is wrong
        program.fail(str(exc))
        raise LogicError(ROUTINE, status_code.INVALID_LINKER_OPTIONS, str(exc)) from None
    if compiled is None:
        program.set_units(units, binary)
    else:
        program.set_executable(compiled, binary)
    if report_warnings and program._build_log.strip():
        compiler_output("Linking succeeded, but resulted in non-empty logs:\n"
                        f"Link on {program.context.devices[0]!r} succeeded, but said:\n\n{program._build_log}")
    return program
