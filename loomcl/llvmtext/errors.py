"""The code generator's internal error.

A `CodegenError` is an internal compiler error: the work-group form broke its contract (a barrier or a
local-id query survived the transforms) or a value has no LLVM spelling. Users never cause one with
bad OpenCL C; the front-end and the runtime report those with OpenCL's exceptions.
"""


class CodegenError(Exception):
    """Internal error of code generation; the message names the offending instruction or module."""
