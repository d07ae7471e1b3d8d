"""Where the native library enters loomcl: `connect()` takes its dispatch table once and answers the
platform's handle and the Python functions behind the table (native/loomcl_icd.c calls it, with the
GIL held)."""
from __future__ import annotations

import ctypes
import threading

from . import (absent, api_context, api_event, api_image, api_kernel, api_memory, api_platform, api_program, api_queue,
               api_transfer)
from . import dispatch, kernel_args
from .dispatch import DispatchTable
from .dispatch_table import INDEX
from .handles import registry

API_MODULES = (absent, api_platform, api_context, api_queue, api_memory, api_transfer, api_image, api_program, api_kernel,
               api_event)

_lock = threading.Lock()


def implementations() -> dict:
    found = {}
    for module in API_MODULES:
        for name, value in vars(module).items():
            if name in INDEX and callable(value):
                found[name] = value
    return found


def connect(table_address: int, icd_entry: int, remembers_arguments: int = 0,
            hand_back_interrupt: int = 0) -> tuple[int, tuple]:
    """Called once by the native library (with the GIL held): `table_address` is its dispatch table of
    C entry points, `icd_entry` its clIcdGetPlatformIDsKHR (which
    clGetExtensionFunctionAddressForPlatform answers, cl_khr_icd); `remembers_arguments` says that it
    remembers kernels' arguments (a library built by an older loomcl does not, and must get only the
    C API's statuses); `hand_back_interrupt` is its function that makes SIGINT pending again for a
    Python host once the current call has returned (dispatch.py). Answers the platform's handle and
    the Python functions the entry points call, in the table's order."""
    if remembers_arguments:
        kernel_args.answer_handle_set()
    with _lock:
        if dispatch.connected_table is None:
            table = DispatchTable(implementations(), table_address)
            table.functions["clIcdGetPlatformIDsKHR"] = icd_entry
            registry.dispatch_address = table_address
            dispatch.connected_table = table
            if hand_back_interrupt:
                dispatch.hand_back_interrupt = ctypes.CFUNCTYPE(None)(hand_back_interrupt)
    return platform_address(), dispatch.connected_table.callables


def platform_address() -> int:
    """The platform's handle (once connected)."""
    dispatch.connected()
    return registry.address_of(api_platform.platform(), "platform")
