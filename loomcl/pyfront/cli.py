"""`loomcl build kernels.py`: the Python kernels of a file, as one program.

The file is run as a module (as `python kernels.py` would import it, with a private module name so
that `if __name__ == "__main__":` blocks stay out), and every @cl.kernel among its globals is
compiled, in definition order, with the types its annotations give: a kernel with an unannotated
parameter has no types until a launch, so it is reported. `--emit ast` prints the OpenCL C typed AST
the translation made (frontend/printer.py's form), which shows how the Python reads as OpenCL C.
"""
from __future__ import annotations

import importlib.util
import sys

from ..frontend.diagnostics import CompileError, Diagnostic, Severity
from ..frontend.source import Location, SourceFile
from .decorators import PythonKernel
from .program import ProgramTranslator, build_program


def file_kernels(path: str) -> list[PythonKernel]:
    """The @cl.kernel objects of a Python file; CompileError when it has none, or one that cannot
    be typed without a launch (an exception running the file propagates, with Python's traceback)."""
    spec = importlib.util.spec_from_file_location("__loomcl_build__", path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses and the like look their module up
    file = SourceFile(path, open(path, encoding="utf-8").read())
    try:
        spec.loader.exec_module(module)
    except SyntaxError as exc:  # reported as the kernels' errors are
        raise CompileError([Diagnostic(Severity.ERROR, Location(file, exc.lineno or 1, exc.offset or 1),
                                       f"Python syntax error: {exc.msg}")]) from None
    finally:
        sys.modules.pop(spec.name, None)
    kernels = [value for value in vars(module).values() if isinstance(value, PythonKernel)]
    if not kernels:
        raise CompileError([Diagnostic(Severity.ERROR, Location(file, 1, 1), "no @cl.kernel in this file")])
    problems = [Diagnostic(Severity.ERROR, kernel.source.location(kernel.source.tree),
                           f"kernel '{kernel.name}' has parameters without annotations "
                           f"({', '.join(n for n, t in zip(kernel.parameter_names, kernel._annotations) if t is None)}); "
                           f"a build without a launch needs them all annotated")
                for kernel in kernels if not kernel.annotated]
    if problems:
        raise CompileError(problems)
    return kernels


def build_file(path: str, options: str = ""):
    """The CompiledProgram of a file's kernels (driver.compiler.build's counterpart for Python)."""
    return build_program([(k, tuple(k._annotations)) for k in file_kernels(path)], options)


def file_program(context, path: str, options: str = ""):
    """A loomcl Program of a file's kernels (the bench's Python twins)."""
    from .decorators import executable_program

    return executable_program(context, build_file(path, options), path, options)


def translate_file(path: str):
    """The typed OpenCL C translation unit of a file's kernels (for --emit ast)."""
    program = ProgramTranslator()
    kernels = file_kernels(path)
    program.kernel_names = {k.name for k in kernels}
    for kernel in kernels:
        program.add_kernel(kernel, tuple(kernel._annotations))
    return program.translation_unit()
