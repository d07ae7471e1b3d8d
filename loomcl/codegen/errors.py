"""The code generator's own exceptions.

A `CodegenError` is an internal compiler error: the work-group form broke its contract (a barrier or a
local-id query survived the transforms) or LLVM rejected the module we emitted. Users never cause one
with bad OpenCL C; the frontend and the runtime report those with OpenCL's exceptions. An `LLVMFailure` is LLVM's own failure, reported as a build failure.
"""
from ..frontend.diagnostics import CompileError


class CodegenError(Exception):
    """Internal error of code generation; the message names the offending instruction or module."""


class LLVMFailure(CompileError):
    """LLVM failed on a kernel (an assertion, a crash, a compile past `LOOMCL_COMPILE_TIMEOUT`) in its
    compile server. A build failure, not a crash: `.log` holds LLVM's own message, and the runtime
    reports it as OpenCL's BUILD_PROGRAM_FAILURE, like a source error."""

    def __init__(self, message: str) -> None:
        self.diagnostics = []
        self.log = message
        Exception.__init__(self, message)
