"""Where the native library enters loomcl: `platform_address()` builds the dispatch table once and
answers the platform's handle (native/loomcl_icd.c calls it, with the GIL held)."""
from __future__ import annotations

import threading

from . import (api_context, api_event, api_image, api_kernel, api_memory, api_platform, api_program, api_queue,
               api_transfer)
from .dispatch import DispatchTable
from .dispatch_table import INDEX
from .handles import registry

API_MODULES = (api_platform, api_context, api_queue, api_memory, api_transfer, api_image, api_program, api_kernel,
               api_event)

_table: DispatchTable | None = None
_lock = threading.Lock()


def implementations() -> dict:
    found = {}
    for module in API_MODULES:
        for name, value in vars(module).items():
            if name in INDEX and callable(value):
                found[name] = value
    return found


def dispatch() -> DispatchTable:
    global _table
    if _table is None:
        with _lock:
            if _table is None:
                table = DispatchTable(implementations())
                registry.dispatch_address = table.address
                _table = table
    return _table


def platform_address(icd_entry: int = 0) -> int:
    """The platform's handle; `icd_entry` is the native library's clIcdGetPlatformIDsKHR, which
    clGetExtensionFunctionAddressForPlatform answers (cl_khr_icd)."""
    table = dispatch()
    if icd_entry:
        table.functions["clIcdGetPlatformIDsKHR"] = icd_entry
    return registry.address_of(api_platform.platform(), "platform")
