"""The compiler driver: OpenCL C source -> programs whose kernels have native work-group functions.

compiler.py runs the stages one after another (frontend, lower, transforms, then backend.py: codegen
and the JIT) and linker.py merges separately compiled units. The runtime reaches this package only
through runtime/compiler_api.py, which uses the names below, and only when a program is built (so
`import loomcl` loads no compiler and no LLVM).

May import: every compiler package (frontend, lower, ir, analysis, transforms, codegen, jit, abi),
options, errors.
"""
from ..frontend import OptionError, parse_link_options, parse_options
from ..frontend.options import LINK_MATH_OPTIONS
from .compiler import BUILD_FAILURES, CompiledProgram, CompiledUnit, build, compile_unit, link
from .linker import LinkError

__all__ = ["BUILD_FAILURES", "LINK_MATH_OPTIONS", "CompiledProgram", "CompiledUnit", "LinkError", "OptionError",
           "build", "compile_unit", "link", "parse_link_options", "parse_options"]
