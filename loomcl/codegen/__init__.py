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
-> on a miss parse, optimize at O3 with the vectorizers and emit an object file (target.py) -> load
the object (jit.py). Compiled functions are also memoized per process. `stats` counts optimizer runs
and cache hits, so tests (and curious users) can see whether a build reused cached code.

The worker pool's native launch code (worker_pool.py, hand-written IR) is JIT-ed here too, through
jit.compile_ir: all LLVM IR in loomcl is generated and compiled in this package, under target.LLVM_LOCK.
"""
from __future__ import annotations

import dataclasses
import threading
from dataclasses import dataclass

from ..ir.function import Function
from ..options import DEFAULT_OPTIONS, CompilerOptions
from . import cache, jit, target
from .abi import KernelSignature, ParamKind, WorkGroupFunction
from .entry import KernelModule, build_kernel_module
from .errors import CodegenError

__all__ = ["CodegenError", "DEFAULT_OPTIONS", "WorkGroupFunction", "assembly", "compile_work_group",
           "kernel_module", "llvm_ir", "stats"]

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


def compile_work_group(function: Function, params: Params = None,
                       options: CompilerOptions = DEFAULT_OPTIONS) -> WorkGroupFunction:
    """Native code for one kernel at one local size; the result's `address` is an abi.ENTRY_CTYPE."""
    module = kernel_module(function, params, options)
    key = cache.cache_key(module.text, options)
    with _COMPILE_LOCK:
        compiled = _COMPILED.get(key)
        if compiled is not None:
            stats.memory_hits += 1
        else:
            compiled = _COMPILED[key] = _compile(module, key, options)
    if options.checked:  # the sites' locations are not in the key: the same code may serve other source
        return dataclasses.replace(compiled, check_sites=tuple(function.check_sites))
    return compiled


def _compile(module: KernelModule, key: str, options: CompilerOptions) -> WorkGroupFunction:
    data = cache.load(key) if options.use_cache else None
    if data is not None:
        stats.disk_cache_hits += 1
    else:
        data = _optimize_to_object(module.text, options)
        if options.use_cache:
            cache.store(key, data)
    address = jit.load_object(data, module.entry_symbol, options.opt_level)
    return WorkGroupFunction(address, module.local_size, module.static_local_bytes, module.private_bytes)


def _optimize_to_object(text: str, options: CompilerOptions) -> bytes:
    with target.LLVM_LOCK:
        llvm_module = target.parse(text)
        target.optimize(llvm_module, options)
        stats.optimizer_runs += 1
        return target.emit_object(llvm_module, options)


def llvm_ir(function: Function, params: Params = None, options: CompilerOptions = DEFAULT_OPTIONS,
            optimized: bool = True) -> str:
    """LLVM IR text of the kernel specialization, after the O3 pipeline unless `optimized=False`."""
    text = kernel_module(function, params, options).text
    if not optimized:
        return text
    with target.LLVM_LOCK:
        llvm_module = target.parse(text)
        target.optimize(llvm_module, options)
        return str(llvm_module)


def assembly(function: Function, params: Params = None, options: CompilerOptions = DEFAULT_OPTIONS) -> str:
    """Host assembly of the optimized kernel specialization."""
    with target.LLVM_LOCK:
        llvm_module = target.parse(kernel_module(function, params, options).text)
        target.optimize(llvm_module, options)
        return target.emit_assembly(llvm_module, options)
