"""The JIT's exceptions.

An `LLVMFailure` is LLVM's own failure on a kernel (an assertion, a crash, a compile past
`LOOMCL_COMPILE_TIMEOUT`) in its compile server: a build failure, not a crash. `.log` holds LLVM's
message; the driver reports it as a failed build (the runtime: BUILD_PROGRAM_FAILURE), like a source
error. A `JITError` is an internal error: LLVM rejected IR that loomcl generated, or an object file
lacks a symbol it must define.
"""


class LLVMFailure(Exception):
    """LLVM failed on a kernel in its compile server; `.log` is what LLVM printed."""

    def __init__(self, message: str) -> None:
        self.diagnostics = []
        self.log = message
        super().__init__(message)


class JITError(Exception):
    """Internal error of the JIT; the message carries LLVM's complaint and the text's head."""
