"""The exception for a launch that the worker pool stopped early (engine/guard.py says how).

A fault names the kernel, the signal, what the kernel reports about it (si_code) and the faulting
address, with the hint that finds the access. Ctrl-C lets Python's own SIGINT handler run right away,
which raises KeyboardInterrupt on the main thread; a launch stopped by Ctrl-C on any other thread, or
under a SIGINT handler that does not raise, raises KernelInterruptedError.
"""
from __future__ import annotations

import ctypes
import signal

from loomcl.engine.guard import STATUS_CANCELLED, STATUS_FAULT
from loomcl.errors import KernelFaultError, KernelInterruptedError, RuntimeError, status_code

ROUTINE = "clEnqueueNDRangeKernel"
HINT = "run with LOOMCL_CHECK=1 to find the access"

# si_code values of Linux (asm-generic/siginfo.h) that say more than the signal's name.
_CODES = {
    signal.SIGSEGV: {1: "address not mapped", 2: "invalid permissions for mapped object"},
    signal.SIGBUS: {1: "invalid address alignment", 2: "nonexistent physical address",
                    3: "object-specific hardware error"},
    signal.SIGFPE: {1: "integer divide by zero", 2: "integer overflow", 3: "floating-point divide by zero",
                    4: "floating-point overflow", 5: "floating-point underflow", 6: "floating-point inexact result",
                    7: "invalid floating-point operation", 8: "subscript out of range"},
}


def raise_launch_failure(failure, kernel_name: str) -> None:
    """Raise what `failure` (a pool.LaunchFailure) means for a launch of `kernel_name`."""
    if failure.status == STATUS_FAULT:
        raise KernelFaultError(ROUTINE, status_code.OUT_OF_RESOURCES, describe_fault(kernel_name, failure.fault))
    if failure.status == STATUS_CANCELLED:
        ctypes.pythonapi.PyErr_CheckSignals()  # raises KeyboardInterrupt on the main thread
        raise KernelInterruptedError(ROUTINE, status_code.OUT_OF_RESOURCES,
                                     f"kernel '{kernel_name}' was interrupted (SIGINT) before it finished")
    raise RuntimeError(ROUTINE, status_code.OUT_OF_RESOURCES,
                       f"kernel '{kernel_name}' stopped with launch status {failure.status}")


def describe_fault(kernel_name: str, fault) -> str:
    try:
        name = signal.Signals(fault.signal).name
    except ValueError:
        name = f"signal {fault.signal}"
    if fault.code <= 0:  # SI_USER, SI_TKILL, ...: sent, so there is no faulting address
        return f"kernel '{kernel_name}' faulted: {name} (sent by kill or raise); {HINT}"
    detail = _CODES.get(fault.signal, {}).get(fault.code)
    what = f"{name} ({detail})" if detail else name
    return f"kernel '{kernel_name}' faulted: {what} at address {fault.address:#x}; {HINT}"
