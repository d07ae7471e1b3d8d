"""The one error the lowering raises: a construct the frontend accepted but loomcl cannot lower yet.

Sema guarantees well-formed input (see ast.py's contract), so anything else going wrong here is a bug
and surfaces as an ordinary Python exception. An unsupported construct is a build failure like any
other, so `LoweringError` is a frontend `CompileError` with one diagnostic: the runtime's build log
and the caret display come for free.
"""
from __future__ import annotations

from ..frontend.diagnostics import CompileError, Diagnostic, Severity
from ..frontend.source import BUILTIN_LOCATION


class LoweringError(CompileError):
    def __init__(self, message: str, loc=None) -> None:
        super().__init__([Diagnostic(Severity.ERROR, loc or BUILTIN_LOCATION, message)])
        self.loc = loc


def unsupported(what: str, loc=None) -> LoweringError:
    return LoweringError(f"{what} is not supported yet", loc)
