"""The code generator's own exception.

A `CodegenError` is an internal compiler error: the work-group form broke its contract (a barrier or a
local-id query survived the transforms) or LLVM rejected the module we emitted. Users never cause one
with bad OpenCL C; the frontend and the runtime report those with OpenCL's exceptions.
"""


class CodegenError(Exception):
    """Internal error of code generation; the message names the offending instruction or module."""
