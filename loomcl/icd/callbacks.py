"""Calling back into C: the notify functions a C client hands to the API, called with its user_data."""
from __future__ import annotations

import ctypes

from loomcl.errors import LogicError, status_code

from .handles import registry

OBJECT_CALLBACK = ctypes.CFUNCTYPE(None, ctypes.c_void_p, ctypes.c_void_p)  # (object, user_data)
EVENT_CALLBACK = ctypes.CFUNCTYPE(None, ctypes.c_void_p, ctypes.c_int32, ctypes.c_void_p)  # (event, status, user_data)
CONTEXT_NOTIFY = ctypes.CFUNCTYPE(None, ctypes.c_char_p, ctypes.c_void_p, ctypes.c_size_t, ctypes.c_void_p)


class ContextNotify:
    """A context's pfn_notify (errors reported to the application), if it gave one."""

    __slots__ = ("function", "user_data")

    def __init__(self, function, user_data) -> None:
        self.function = CONTEXT_NOTIFY(function) if function else None
        self.user_data = user_data

    def __call__(self, message: str) -> None:
        if self.function is not None:
            self.function(message.encode(), None, 0, self.user_data)


def call_object_callback(function, handle: int, user_data) -> None:
    OBJECT_CALLBACK(function)(handle, user_data)


def add_destructor_callback(handle, kind: str, routine: str, function, user_data) -> None:
    """clSet{Context,MemObject}DestructorCallback: `function` runs when the last C reference goes."""
    obj = registry.get(handle, kind, routine)
    if not function:
        raise LogicError(routine, status_code.INVALID_VALUE, "pfn_notify is NULL")
    obj.icd_destructors.append((function, user_data))


def release_with_destructors(handle, kind: str, routine: str) -> None:
    """clRelease* of an object that takes destructor callbacks: at the last reference they run, last
    registered first."""
    obj = registry.release(handle, kind, routine)
    for function, user_data in reversed(getattr(obj, "icd_destructors", ()) if obj is not None else ()):
        call_object_callback(function, handle, user_data)
