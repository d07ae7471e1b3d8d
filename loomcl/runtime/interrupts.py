"""Ctrl-C during a wait that a Python host makes through the ICD: deferred to the host.

A Python host (pyopencl, say) calls the ICD's C functions, which run loomcl's Python code with the
GIL held, so Python's SIGINT handler raises KeyboardInterrupt inside loomcl, where it cannot unwind
through the C caller. Handing back an error status does not help: the host's library turns it into
its own exception, and a signal made pending again fires at the host's next check, which is then
inside that exception's handling or printing. So, within an ICD call (`deferring`), a wait that Ctrl-C
interrupts under Python's default handler (KeyboardInterrupt) stops the running kernel (its command
fails as interrupted, as always) and goes on waiting for the rest; the call returns as it would have,
and the ICD makes SIGINT pending again once the call has left loomcl's code: the host's own next
check raises KeyboardInterrupt at the user's line, as the native API would. (Under PoCL the call
would have run to its end first; here the kernel that was running is stopped.)
"""
from __future__ import annotations

import _signal
import threading

_state = threading.local()


class deferring:
    """Within this, `defer(exc)` may keep a KeyboardInterrupt for later; `interrupted` says whether it
    did. One per ICD call that may wait."""

    __slots__ = ("interrupted", "_outer")

    def __enter__(self) -> "deferring":
        self.interrupted = False
        self._outer = getattr(_state, "scope", None)
        _state.scope = self
        return self

    def __exit__(self, *_exc) -> None:
        _state.scope = self._outer


def defer(exc: BaseException) -> bool:
    """Whether the wait that `exc` interrupted may go on (the interrupt is kept for the host): only a
    KeyboardInterrupt from Python's default SIGINT handler, within an ICD call."""
    scope = getattr(_state, "scope", None)
    if scope is None or type(exc) is not KeyboardInterrupt:
        return False
    if _signal.getsignal(_signal.SIGINT) is not _signal.default_int_handler:
        return False  # a handler of the host's own: it has run, and what it raised goes on
    scope.interrupted = True
    return True
