"""Handles: the C API's object pointers and the Python objects behind them.

A handle is a two-word block of native memory whose first word is the address of the dispatch table
(the ICD loader calls through it); the registry maps the block's address to the runtime object, by
kind, and to the handle's reference count, which is the C API's (clRetain*/clRelease*). At zero the
handle leaves the registry; the object lives on while the runtime still uses it (a queue's context,
a pending command's buffers). A pointer that is not a live handle of the expected kind is the C API's
INVALID_<KIND>, never a crash.

A block's second word counts the deaths of the handles it held of the kinds in COUNTED_DEATHS (the
native library remembers kernels' arguments by their bytes and must know when a remembered kernel
or argument handle died: native/loomcl_icd.c).

Blocks come from slabs that are never freed, and a released block is reused only after QUARANTINE
others have been released since: the loader dereferences every handle it is given to find the
dispatch table, so a handle used after its release must still point to it (and then gets
INVALID_<KIND> from the registry) instead of into freed memory. Making a handle takes no native
allocation, which matters on the launch path (every enqueue hands out an event).
"""
from __future__ import annotations

import ctypes
import threading
from collections import deque

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

# the kinds that info queries answer with (a queue's context, a kernel's program), so that their
# handles are also found by object; events and kernels never are, and their handles are the most made
REPORTED = frozenset(INVALID) - {"event", "kernel"}

# the kinds whose handles' deaths are counted: a kernel (whose arguments the native library
# remembers) and what an argument may name
COUNTED_DEATHS = frozenset({"kernel", "mem", "sampler"})
_WORD = ctypes.sizeof(ctypes.c_void_p)
_word_at = ctypes.c_size_t.from_address

BLOCK_BYTES = 2 * _WORD
SLAB_BLOCKS = 1024
QUARANTINE = 4096  # released handles that stay invalid (not yet reused) at any time


class Registry:
    """Every live handle: its object (by kind and address), its count, and each object's handle."""

    def __init__(self) -> None:
        self.dispatch_address = 0  # set once the dispatch table exists, before any handle is made
        self.live: dict[str, dict[int, object]] = {kind: {} for kind in INVALID}
        self._counts: dict[int, int] = {}
        self._address_of: dict[int, int] = {}  # id(object) -> its handle's address
        self._slabs: list = []
        self._fresh: list[int] = []
        self._released: deque[int] = deque()
        # re-entrant: a garbage collection inside a locked step may finalize a client's objects
        # (pyopencl's), whose destructors call clRelease* on this thread
        self._lock = threading.RLock()

    def new(self, obj, kind: str) -> int:
        """A handle (count 1) for an object the C API just created; returns its address. (Each step
        is one atomic operation under the GIL; no lock is needed on this, the launch path.)"""
        released = self._released
        address = released.popleft() if len(released) > QUARANTINE else self._fresh_block()
        self._counts[address] = 1
        if kind in REPORTED:
            self._address_of[id(obj)] = address
        self.live[kind][address] = obj
        return address

    def _fresh_block(self) -> int:
        try:
            return self._fresh.pop()
        except IndexError:
            with self._lock:
                if not self._fresh:
                    slab = (ctypes.c_void_p * (2 * SLAB_BLOCKS))()
                    slab[::2] = [self.dispatch_address] * SLAB_BLOCKS
                    self._slabs.append(slab)
                    base = ctypes.addressof(slab)
                    self._fresh.extend(base + i * BLOCK_BYTES for i in reversed(range(SLAB_BLOCKS)))
            return self._fresh_block()

    def address_of(self, obj, kind: str) -> int:
        """The handle of an object the C API reports (a queue's context, say), made if it has none
        (with count 1, like an object created by the call: the caller owns no reference to it)."""
        address = self._address_of.get(id(obj))
        if address is not None and self.live[kind].get(address) is obj:
            return address
        return self.new(obj, kind)

    def get(self, address, kind: str, routine: str):
        """The object behind a handle argument of the expected kind (else INVALID_<KIND>)."""
        obj = self.live[kind].get(address)
        if obj is None:
            raise invalid(address, kind, routine)
        return obj

    def get_list(self, count: int, array, kind: str, routine: str, code: int = status_code.INVALID_VALUE,
                 invalid_code: int | None = None) -> list:
        """The objects of a (count, array of handles) argument pair: `code` if the two disagree,
        `invalid_code` (default INVALID_<KIND>) for an item that is not a live handle."""
        if (count == 0) != (not array):
            raise LogicError(routine, code, f"a list of {count} {kind} handles at {_hex(array)}")
        if not count:
            return []
        table = self.live[kind]
        addresses = (ctypes.c_void_p * count).from_address(array)
        objects = [table.get(address) for address in addresses]
        if None in objects:
            error = invalid(addresses[objects.index(None)], kind, routine)
            if invalid_code is not None:
                error = LogicError(routine, invalid_code, f"item {objects.index(None)}: {error.what.what()}")
            raise error
        return objects

    def retain(self, address, kind: str, routine: str) -> None:
        with self._lock:
            if address not in self.live[kind]:
                raise invalid(address, kind, routine)
            self._counts[address] += 1

    def release(self, address, kind: str, routine: str):
        """Drops a reference; returns the object when that was the last one (else None)."""
        lock = self._lock  # (acquire and release: every launch through pyopencl releases its event)
        lock.acquire()
        try:
            table = self.live[kind]
            obj = table.get(address)
            if obj is None:
                raise invalid(address, kind, routine)
            count = self._counts[address] - 1
            if count:
                self._counts[address] = count
                return None
            del table[address], self._counts[address]
            if kind in REPORTED and self._address_of.get(id(obj)) == address:
                del self._address_of[id(obj)]
            if kind in COUNTED_DEATHS:
                _word_at(address + _WORD).value += 1
            self._released.append(address)
        finally:
            lock.release()
        return obj

    def count(self, address) -> int:
        return self._counts.get(address, 0)


def invalid(address, kind: str, routine: str) -> LogicError:
    return LogicError(routine, INVALID[kind], f"{_hex(address)} is not a valid cl_{_C_NAMES[kind]}")


_C_NAMES = {"queue": "command_queue", "mem": "mem", "platform": "platform_id", "device": "device_id"}
for _kind in INVALID:
    _C_NAMES.setdefault(_kind, _kind)


def _hex(address) -> str:
    return "NULL" if not address else f"{address:#x}"


registry = Registry()
