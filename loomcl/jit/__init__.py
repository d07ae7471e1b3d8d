"""The JIT: LLVM IR text -> native code in this process (optimizer in compile servers, object cache,
loading). It knows LLVM IR text and the options' codegen fields, nothing of kernels or OpenCL.

May import: llvmlite, loomcl.options, loomcl.version. Nothing else of loomcl.

    native_code(text, symbol, options) -> NativeCode   # address of `symbol` in the compiled text
    optimized(text, options, emit) -> bytes             # "object", "assembly" or "llvm" (--emit)
    expect_compiles(options)                            # boot a compile server early

The way of a module: key the object cache with its text (cache.py) -> on a miss, optimize at O3 with
the vectorizers and emit an object file in a compile server, a process of its own, so that an LLVM
assertion or crash fails the build instead of killing the user's process (compile_client.py,
compile_server.py) -> load the object (llvm.py). Compiled code is also memoized per process. `stats`
counts optimizer runs and cache hits, so tests (and curious users) can see whether a build reused
cached code. Every use of LLVM in this process goes through llvm.py, under its one lock.
"""
from __future__ import annotations

import threading
from dataclasses import dataclass

from ..options import CompilerOptions
from .errors import JITError, LLVMFailure

# Submodules that load LLVM are imported where used: the engine reads cache_config.py (the cache's
# folder) without loading LLVM, and importing a submodule runs this file first.

__all__ = ["JITError", "LLVMFailure", "NativeCode", "expect_compiles", "native_code", "optimized", "stats"]


@dataclass
class JITStats:
    optimizer_runs: int = 0  # LLVM optimize + object emission (cache misses)
    disk_cache_hits: int = 0
    memory_hits: int = 0  # same module compiled again in this process


@dataclass(frozen=True)
class NativeCode:
    address: int  # of the symbol asked for
    key: str  # the object cache's key of the module (cache.cache_key)


stats = JITStats()
_COMPILED: dict[str, NativeCode] = {}
_COMPILE_LOCK = threading.Lock()


def expect_compiles(options: CompilerOptions) -> None:
    """A program is being built: if its kernels cannot come from the disk cache (it is off or empty),
    start a compile server now, so that it boots while the front half and the transforms run. A
    cache that may hit starts nothing."""
    from . import cache, compile_client

    if not options.use_cache or cache.certainly_empty():
        compile_client.POOL.prestart()


def native_code(text: str, symbol: str, options: CompilerOptions) -> NativeCode:
    """`symbol` of the module `text`, optimized, compiled and loaded (or found in the caches).
    Raises LLVMFailure if LLVM fails on it."""
    from . import cache, llvm

    key = cache.cache_key(text, options)
    with _COMPILE_LOCK:
        if key in _COMPILED:
            stats.memory_hits += 1
            return _COMPILED[key]
    data = cache.load(key) if options.use_cache else None
    from_disk = data is not None
    if data is None:  # outside the lock: other threads' kernels compile meanwhile, on servers of their own
        data = optimized(text, options, "object")
        if options.use_cache:
            cache.store(key, data)
    with _COMPILE_LOCK:
        if key in _COMPILED:  # another thread compiled it meanwhile
            return _COMPILED[key]
        stats.disk_cache_hits += from_disk
        compiled = _COMPILED[key] = NativeCode(llvm.load_object(data, symbol, options.opt_level), key)
        return compiled


def optimized(text: str, options: CompilerOptions, emit: str) -> bytes:
    """The O3 pipeline and the code generator on `text`, in a compile server (compile_client.py)."""
    from . import compile_client, llvm

    result = compile_client.compile_text(text, llvm.server_job(options, emit))
    with _COMPILE_LOCK:
        stats.optimizer_runs += 1
    return result


def triple_and_datalayout() -> tuple[str, str]:
    """The host's target triple and data layout, which every module this process loads must carry."""
    from . import llvm

    return llvm.triple_and_datalayout()
