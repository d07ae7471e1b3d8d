"""The back half of the driver: a kernel in work-group form -> native code the engine calls.

    compile_work_group(function, params=None, options=DEFAULT_OPTIONS) -> WorkGroupFunction
    llvm_ir(function, params=None, options=DEFAULT_OPTIONS, optimized=True) -> str  # --emit llvm
    assembly(function, params=None, options=DEFAULT_OPTIONS) -> str                  # --emit asm

`function` is the kernel in work-group form (transforms/__init__.py) with `local_size` set. `params`
says how the runtime fills each argument slot (abi/kernel.py): a `KernelSignature`, a list of
`ParamKind`, or None to read the kinds off the parameter types. codegen/ writes the module's LLVM IR
for the host's triple and data layout; jit/ optimizes, caches and loads it.
"""
from __future__ import annotations

import dataclasses

from .. import codegen, jit
from ..abi.kernel import KernelSignature, ParamKind, WorkGroupFunction
from ..codegen.entry import KernelModule
from ..ir.function import Function
from ..options import DEFAULT_OPTIONS, CompilerOptions
from .compile_stages import timed

Params = KernelSignature | list[ParamKind] | tuple[ParamKind, ...] | None


def kernel_module(function: Function, params: Params = None,
                  options: CompilerOptions = DEFAULT_OPTIONS) -> KernelModule:
    """The unoptimized LLVM IR of a kernel specialization for this host."""
    return codegen.kernel_module(function, params, options, *jit.triple_and_datalayout())


def compile_work_group(function: Function, params: Params = None,
                       options: CompilerOptions = DEFAULT_OPTIONS) -> WorkGroupFunction:
    """Native code for one kernel at one local size; the result's `address` is an abi ENTRY_CTYPE.
    Raises jit.LLVMFailure if LLVM fails on it."""
    with timed("llvm-ir"):
        module = kernel_module(function, params, options)
    with timed("llvm"):
        native = jit.native_code(module.text, module.entry_symbol, options)
    compiled = WorkGroupFunction(native.address, module.local_size, module.static_local_bytes, module.private_bytes,
                                 code_key=native.key, group_tile=module.group_tile)
    if options.checked:  # the sites' locations are not in the key: the same code may serve other source
        return dataclasses.replace(compiled, check_sites=tuple(function.check_sites))
    return compiled


def llvm_ir(function: Function, params: Params = None, options: CompilerOptions = DEFAULT_OPTIONS,
            optimized: bool = True) -> str:
    """LLVM IR text of the kernel specialization, after the O3 pipeline unless `optimized=False`."""
    text = kernel_module(function, params, options).text
    return jit.optimized(text, options, "llvm").decode() if optimized else text


def assembly(function: Function, params: Params = None, options: CompilerOptions = DEFAULT_OPTIONS) -> str:
    """Host assembly of the optimized kernel specialization."""
    return jit.optimized(kernel_module(function, params, options).text, options, "assembly").decode()
