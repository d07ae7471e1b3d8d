"""LocalMemory: the size of a `__local` pointer argument. The runtime places it in each thread's
local arena after the kernel's static `__local` variables (abi/kernel.py)."""
from __future__ import annotations

from loomcl.errors import LogicError, status_code


class LocalMemory:
    """pyopencl's LocalMemory(size): `size` bytes of local memory per work-group."""

    __slots__ = ("size",)

    def __init__(self, size: int) -> None:
        if isinstance(size, bool) or not isinstance(size, int) or size <= 0:
            raise LogicError(
                "LocalMemory", status_code.INVALID_ARG_SIZE, f"local memory size must be a positive int, got {size!r}"
            )
        self.size = size

    def __repr__(self) -> str:
        return f"LocalMemory({self.size})"
