"""Code generation: a kernel in work-group form -> native code the runtime calls (DESIGN codegen/).

Public API (the integrator calls these from loomcl/compiler.py and the CLI):

    compile_work_group(function, params=None, options=DEFAULT_OPTIONS) -> WorkGroupFunction
    llvm_ir(function, params=None, options=DEFAULT_OPTIONS, optimized=True) -> str  # --emit llvm
    assembly(function, params=None, options=DEFAULT_OPTIONS) -> str                  # --emit asm

`options` is the one options object (loomcl/options.py); codegen reads its codegen fields.
`function` is the kernel in work-group form (transforms/__init__.py) with `local_size` set.
`params` says how the runtime fills each argument slot (abi.py): a `KernelSignature`, a list of
`ParamKind`, or None to read the kinds off the parameter types (ptr.local -> LOCAL_POINTER, other
pointers -> GLOBAL_POINTER, int/float -> SCALAR, vectors -> BY_VALUE). Program-scope `__constant`
variables need not be passed: those the kernel references are found through its operands and
emitted with their initializers.

The pipeline: emit LLVM IR text (entry.py, llvm_emitter.py) -> key the object cache with it (cache.py)
-> on a miss optimize at O3 with the vectorizers and emit an object file in a compile server, a
process of its own, so that an LLVM assertion or crash fails the build instead of killing the user's
process (compile_client.py, compile_server.py) -> load the object (jit.py). Compiled functions are
also memoized per process. `stats` counts optimizer runs and cache hits, so tests (and curious users)
can see whether a build reused cached code.

The worker pool's native launch code (worker_pool.py, hand-written IR) is JIT-ed here too, through
jit.compile_ir: all LLVM IR in loomcl is generated and compiled in this package, under target.LLVM_LOCK.
"""
from __future__ import annotations

import dataclasses
import threading
from dataclasses import dataclass

from ..compile_stages import timed
from ..ir.function import Function
from ..options import DEFAULT_OPTIONS, CompilerOptions
from . import cache, compile_client, jit, target
from .abi import KernelSignature, ParamKind, WorkGroupFunction
from .entry import KernelModule, build_kernel_module
from .errors import CodegenError, LLVMFailure

__all__ = ["CodegenError", "DEFAULT_OPTIONS", "LLVMFailure", "WorkGroupFunction", "assembly", "compile_work_group",
           "expect_compiles", "kernel_module", "llvm_ir", "stats"]

Params = KernelSignature | list[ParamKind] | tuple[ParamKind, ...] | None


@dataclass
class CodegenStats:
    optimizer_runs: int = 0  # LLVM optimize + object emission (cache misses)
    disk_cache_hits: int = 0
    memory_hits: int = 0  # same kernel compiled again in this process


stats = CodegenStats()
_COMPILED: dict[str, WorkGroupFunction] = {}
_COMPILE_LOCK = threading.Lock()


def kernel_module(function: Function, params: Params = None,
                  options: CompilerOptions = DEFAULT_OPTIONS) -> KernelModule:
    """The unoptimized LLVM IR of a kernel specialization, with its entry symbol and local layout."""
    triple, datalayout = target.triple_and_datalayout()
    return build_kernel_module(function, params, options, triple, datalayout)


def expect_compiles(options: CompilerOptions = DEFAULT_OPTIONS) -> None:
    """A program is being built: if its kernels cannot come from the disk cache (it is off or empty),
    start a compile server now, so that it boots while the front half and the transforms run. A
    cache that may hit starts nothing."""
    if not options.use_cache or cache.certainly_empty():
        compile_client.POOL.prestart()


def compile_work_group(function: Function, params: Params = None,
                       options: CompilerOptions = DEFAULT_OPTIONS) -> WorkGroupFunction:
    """Native code for one kernel at one local size; the result's `address` is an abi.ENTRY_CTYPE.
    Raises LLVMFailure (a CompileError) if LLVM fails on it."""
    with timed("llvm-ir"):
        module = kernel_module(function, params, options)
    with timed("llvm"):
        compiled = _compile(module, options)
    if options.checked:  # the sites' locations are not in the key: the same code may serve other source
        return dataclasses.replace(compiled, check_sites=tuple(function.check_sites))
    return compiled


def _compile(module: KernelModule, options: CompilerOptions) -> WorkGroupFunction:
    key = cache.cache_key(module.text, options)
    with _COMPILE_LOCK:
        if key in _COMPILED:
            stats.memory_hits += 1
            return _COMPILED[key]
    data = cache.load(key) if options.use_cache else None
    from_disk = data is not None
    if data is None:  # outside the lock: other threads' kernels compile meanwhile, on servers of their own
        data = _optimized(module.text, options, "object")
        if options.use_cache:
            cache.store(key, data)
    with _COMPILE_LOCK:
        if key in _COMPILED:  # another thread compiled it meanwhile
            return _COMPILED[key]
        stats.disk_cache_hits += from_disk
        address = jit.load_object(data, module.entry_symbol, options.opt_level)
        compiled = WorkGroupFunction(address, module.local_size, module.static_local_bytes, module.private_bytes,
                                     code_key=key, group_tile=module.group_tile)
        _COMPILED[key] = compiled
        return compiled


def _optimized(text: str, options: CompilerOptions, emit: str) -> bytes:
    """The O3 pipeline and the code generator, in a compile server (compile_client.py)."""
    result = compile_client.compile_text(text, target.server_job(options, emit))
    with _COMPILE_LOCK:
        stats.optimizer_runs += 1
    return result


def llvm_ir(function: Function, params: Params = None, options: CompilerOptions = DEFAULT_OPTIONS,
            optimized: bool = True) -> str:
    """LLVM IR text of the kernel specialization, after the O3 pipeline unless `optimized=False`."""
    text = kernel_module(function, params, options).text
    return _optimized(text, options, "llvm").decode() if optimized else text


def assembly(function: Function, params: Params = None, options: CompilerOptions = DEFAULT_OPTIONS) -> str:
    """Host assembly of the optimized kernel specialization."""
    return _optimized(kernel_module(function, params, options).text, options, "assembly").decode()
