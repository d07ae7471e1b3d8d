"""The Python side of the dispatch table: loomcl's API functions under the C API's error convention.

Each entry point is a Python function named as in the C API (in the api_*.py modules), called by the
native library's C function of the entry's exact signature (native_entries.py), by index. The
wrapper here is the C API's error convention: a loomcl Error becomes its status (returned, or
stored through `errcode_ret` for functions that return an object, which answer NULL unless the
error carries the object the spec still returns as `result`); any other exception is a bug in
loomcl, reported on stderr and answered OUT_OF_RESOURCES, so that no exception ever unwinds into the
C caller. Entry points loomcl does not implement (another platform's interop: GL, Direct3D, EGL)
answer INVALID_OPERATION.

A C caller sees only the status; with LOOMCL_ICD_LOG=1 each failing call also prints loomcl's
message (which argument, what was expected) on stderr.
"""
from __future__ import annotations

import ctypes
import os
import sys
import traceback

from loomcl.runtime import interrupts
from loomcl.errors import Error, KernelCheckError, KernelFaultError, KernelInterruptedError, status_code

from .dispatch_table import ENTRIES, Entry

def unsupported(name: str):
    def not_here(*_args):
        raise Error(name, status_code.INVALID_OPERATION, f"{name} is not supported by loomcl")
    return not_here


_LOG = os.environ.get("LOOMCL_ICD_LOG", "") not in ("", "0")


def _failed(error: Error) -> int:
    # A kernel that faulted, failed a check or was stopped by Ctrl-C is news to the user, whom the
    # caller's status alone would not tell which kernel or why: always said.
    if _LOG or isinstance(error, (KernelCheckError, KernelFaultError, KernelInterruptedError)):
        print(f"loomcl ICD: {error}", file=sys.stderr)
    return error.code


def guarded(entry: Entry, function):
    """`function` under the C API's error convention for `entry`."""
    name = entry.name
    if entry.returns == "i" and name.startswith(_WAITING):
        return _waiting(name, function)
    if entry.returns == "i":
        def call(*args):
            try:
                return function(*args) or 0
            except Error as error:
                return _failed(error)
            except KeyboardInterrupt:
                return _interrupted(name)
            except BaseException:  # noqa: BLE001 - nothing may unwind into C
                return _internal_error(name)
        return call
    if entry.reports_error_by_pointer:
        def create(*args):
            errcode_ret = args[-1]
            try:
                result, code = function(*args[:-1]), 0
            except Error as error:  # `result`: the object a failure still returns (clLinkProgram's)
                result, code = getattr(error, "result", None), _failed(error)
            except KeyboardInterrupt:
                result, code = None, _interrupted(name)
            except BaseException:  # noqa: BLE001
                result, code = None, _internal_error(name)
            if errcode_ret:
                ctypes.c_int32.from_address(errcode_ret).value = code
            return result
        return create

    def other(*args):
        try:
            return function(*args)
        except BaseException:  # noqa: BLE001 - a NULL result or nothing is the only answer here
            if entry.returns == "p":
                return None
            _internal_error(name)
            return None
    return other


_WAITING = ("clFinish", "clWaitForEvents", "clEnqueue")  # the calls that may wait for kernels (those returning a status)


def _waiting(name: str, function):
    """A call that may wait for kernels: Ctrl-C meanwhile (under Python's default handler) stops the
    kernel that runs, the call goes on, and the host gets the interrupt back as it returns
    (runtime/interrupts.py says why). The failure that interrupt caused is not the call's: the host's
    KeyboardInterrupt reports it."""
    def call(*args):
        with interrupts.deferring() as scope:
            try:
                status = function(*args) or 0
            except KernelInterruptedError as error:
                status = 0 if scope.interrupted else _failed(error)
            except Error as error:
                status = _failed(error)
            except KeyboardInterrupt:
                status = _interrupted(name)
            except BaseException:  # noqa: BLE001 - nothing may unwind into C
                status = _internal_error(name)
        if scope.interrupted and hand_back_interrupt is not None:
            hand_back_interrupt()
        return status
    return call


def _interrupted(name: str) -> int:
    """Ctrl-C stopped a call that does not wait for kernels (a long clBuildProgram), or one under a
    SIGINT handler of the host's own (Python's handler raised KeyboardInterrupt in it, which cannot
    unwind through the C caller): the caller gets the status of an interrupted launch and the user
    a line saying why, not a bug report. (Making SIGINT pending again for the host's Python would
    fire inside pyopencl's handling of that status's error, or while it is printed.) A C host never
    gets here: the interpreter it embeds does not handle SIGINT (native/loomcl_icd.c)."""
    print(f"loomcl ICD: Ctrl-C (SIGINT) stopped {name}, which returns CL_OUT_OF_RESOURCES", file=sys.stderr)
    return status_code.OUT_OF_RESOURCES


def _internal_error(name: str) -> int:
    print(f"loomcl ICD: internal error in {name} (a bug in loomcl; please report it):", file=sys.stderr)
    traceback.print_exc()
    return status_code.OUT_OF_RESOURCES


class DispatchTable:
    """The Python functions behind the native library's dispatch table (its C entry points call them
    by index), and the address of each entry point by name."""

    def __init__(self, implementations: dict, table_address: int) -> None:
        self.callables = tuple(guarded(entry, implementations.get(entry.name) or unsupported(entry.name))
                               for entry in ENTRIES)
        self.address = table_address
        words = (ctypes.c_void_p * len(ENTRIES)).from_address(table_address)
        self.functions = {entry.name: words[i] for i, entry in enumerate(ENTRIES)}


connected_table: DispatchTable | None = None  # set once, by entry.connect
hand_back_interrupt = None  # the native library's: SIGINT pending again once the call has returned (entry.connect)


def connected() -> DispatchTable:
    """The table the native library connected (entry.connect)."""
    if connected_table is None:
        raise RuntimeError("loomcl's ICD library has not connected: a library built by an older loomcl calls "
                           "platform_address() first; rebuild it with `python -m loomcl icd` (and --install if "
                           "it was installed)")
    return connected_table
