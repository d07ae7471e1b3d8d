"""The handle registry in-process: blocks stay valid after release (quarantine), counts, and a
release re-entered from a garbage-collected client object's finalizer on the same thread."""
import ctypes
import gc
import threading

import pytest

from loomcl.errors import LogicError
from loomcl.icd.handles import QUARANTINE, Registry


def test_released_blocks_keep_the_dispatch_word_and_are_reused_late():
    registry = Registry()
    registry.dispatch_address = 0xD15
    first = registry.new(object(), "event")
    assert ctypes.c_void_p.from_address(first).value == 0xD15
    registry.release(first, "event", "test")
    with pytest.raises(LogicError) as failure:
        registry.get(first, "event", "test")
    assert failure.value.code == -58
    assert ctypes.c_void_p.from_address(first).value == 0xD15  # the loader can still dispatch through it
    made = [registry.new(object(), "event") for _ in range(QUARANTINE)]
    assert first not in made
    for address in made:
        registry.release(address, "event", "test")
    assert registry.new(object(), "event") == first  # reused only once QUARANTINE others were released


def test_counts_and_kinds():
    registry = Registry()
    context = object()
    address = registry.new(context, "context")
    registry.retain(address, "context", "test")
    assert registry.count(address) == 2
    assert registry.address_of(context, "context") == address
    with pytest.raises(LogicError) as failure:
        registry.get(address, "queue", "test")
    assert failure.value.code == -36
    assert registry.release(address, "context", "test") is None
    assert registry.release(address, "context", "test") is context
    assert registry.count(address) == 0


def test_release_reentered_from_a_finalizer_does_not_deadlock():
    registry = Registry()
    other = registry.new(object(), "mem")

    class ClientObject:  # like a pyopencl Buffer in a reference cycle: its destructor releases
        def __del__(self):
            registry.release(other, "mem", "clReleaseMemObject")

    def locked_step_that_collects():
        with registry._lock:
            cycle = ClientObject()
            cycle.itself = cycle
            del cycle
            gc.collect()

    worker = threading.Thread(target=locked_step_that_collects, daemon=True)
    worker.start()
    worker.join(timeout=30)
    assert not worker.is_alive(), "the finalizer's release waited for the lock its own thread holds"
    assert registry.count(other) == 0


def test_the_second_word_counts_the_deaths_of_kernels_memory_and_samplers():
    """The native library remembers kernels' arguments by their bytes and trusts them while the
    handles' death counts stay (native/loomcl_icd.c)."""
    registry = Registry()
    registry.dispatch_address = 0xD15

    def deaths(address):
        return ctypes.c_size_t.from_address(address + ctypes.sizeof(ctypes.c_void_p)).value

    for kind in ("mem", "kernel", "sampler"):
        address = registry.new(object(), kind)
        before = deaths(address)
        registry.retain(address, kind, "test")
        registry.release(address, kind, "test")
        assert deaths(address) == before  # still alive
        registry.release(address, kind, "test")
        assert deaths(address) == before + 1
    event = registry.new(object(), "event")
    before = deaths(event)
    registry.release(event, "event", "test")
    assert deaths(event) == before
