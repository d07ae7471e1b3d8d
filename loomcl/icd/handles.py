"""Handles: the C API's object pointers and the Python objects behind them.

A handle is a small block of native memory whose first word is the address of the dispatch table
(the ICD loader calls through it); the registry maps the block's address to the runtime object and
to the handle's reference count, which is the C API's (clRetain*/clRelease*). At zero the handle
leaves the registry; the object lives on while the runtime still uses it (a queue's context, a
pending command's buffers). A pointer that is not a live handle of the expected kind is the C
API's INVALID_<KIND>, never a crash.
"""
from __future__ import annotations

import ctypes
import threading

from loomcl.errors import LogicError, status_code

INVALID = {
    "platform": status_code.INVALID_PLATFORM,
    "device": status_code.INVALID_DEVICE,
    "context": status_code.INVALID_CONTEXT,
    "queue": status_code.INVALID_COMMAND_QUEUE,
    "mem": status_code.INVALID_MEM_OBJECT,
    "program": status_code.INVALID_PROGRAM,
    "kernel": status_code.INVALID_KERNEL,
    "event": status_code.INVALID_EVENT,
    "sampler": status_code.INVALID_SAMPLER,
}


class Handle:
    __slots__ = ("memory", "address", "obj", "kind", "count")

    def __init__(self, dispatch_address: int, obj, kind: str) -> None:
        self.memory = (ctypes.c_void_p * 2)(dispatch_address, 0)
        self.address = ctypes.addressof(self.memory)
        self.obj, self.kind, self.count = obj, kind, 1


class Registry:
    """Every live handle, by address and by object (one handle per object)."""

    def __init__(self) -> None:
        self.dispatch_address = 0  # set once the dispatch table exists
        self._by_address: dict[int, Handle] = {}
        self._by_object: dict[int, Handle] = {}
        self._lock = threading.Lock()

    def new(self, obj, kind: str) -> int:
        """A handle (count 1) for an object the C API just created; returns its address."""
        handle = Handle(self.dispatch_address, obj, kind)
        with self._lock:
            self._by_address[handle.address] = handle
            self._by_object[id(obj)] = handle
        return handle.address

    def address_of(self, obj, kind: str) -> int:
        """The handle of an object the C API reports (a queue's context, say), made if it has none
        (with count 1, like an object created by the call: the caller owns no reference to it)."""
        handle = self._by_object.get(id(obj))
        if handle is not None and handle.obj is obj:
            return handle.address
        return self.new(obj, kind)

    def handle(self, address, kind: str, routine: str) -> Handle:
        handle = self._by_address.get(address) if address else None
        if handle is None or handle.kind != kind:
            raise LogicError(routine, INVALID[kind], f"{_hex(address)} is not a valid cl_{_C_NAMES[kind]}")
        return handle

    def get(self, address, kind: str, routine: str):
        return self.handle(address, kind, routine).obj

    def get_list(self, count: int, array, kind: str, routine: str, code: int = status_code.INVALID_VALUE) -> list:
        """The objects of a (count, array of handles) argument pair."""
        if (count == 0) != (not array):
            raise LogicError(routine, code, f"a list of {count} {kind} handles at {_hex(array)}")
        pointers = (ctypes.c_void_p * count).from_address(array) if count else ()
        return [self.get(p, kind, routine) for p in pointers]

    def retain(self, address, kind: str, routine: str) -> None:
        handle = self.handle(address, kind, routine)
        with self._lock:
            handle.count += 1

    def release(self, address, kind: str, routine: str):
        """Drops a reference; returns the object when that was the last one (else None)."""
        handle = self.handle(address, kind, routine)
        with self._lock:
            handle.count -= 1
            if handle.count:
                return None
            del self._by_address[handle.address]
            if self._by_object.get(id(handle.obj)) is handle:
                del self._by_object[id(handle.obj)]
        return handle.obj

    def count(self, obj) -> int:
        handle = self._by_object.get(id(obj))
        return handle.count if handle is not None and handle.obj is obj else 0


_C_NAMES = {"queue": "command_queue", "mem": "mem", "platform": "platform_id", "device": "device_id"}
for _kind in INVALID:
    _C_NAMES.setdefault(_kind, _kind)


def _hex(address) -> str:
    return "NULL" if not address else f"{address:#x}"


registry = Registry()
