"""Commands' work and failures. An enqueue call checks everything it can (a bad argument raises
there, as in OpenCL) and records its command as an Event (event.py) whose `work` is a callable that
does the command later (scheduler.py): a Copy for transfers, a launch (launch.py), ...
"""
from __future__ import annotations

from loomcl.errors import status_code


def failure_status(error: BaseException) -> int:
    """The negative execution status of a command that failed with `error`: the error's status
    code (loomcl's errors carry one), else OUT_OF_RESOURCES."""
    code = getattr(error, "code", None)
    if isinstance(code, int) and code < 0:
        return code
    return status_code.OUT_OF_RESOURCES


class Copy:
    """The work of a copy: `target[...] = source` for two numpy views (held by the work, so their
    memory outlives the command)."""

    __slots__ = ("target", "source")

    def __init__(self, target, source) -> None:
        self.target, self.source = target, source

    @property
    def nbytes(self) -> int:
        return self.target.nbytes

    def __call__(self) -> None:
        self.target[...] = self.source
