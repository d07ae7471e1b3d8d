"""Code generation: a kernel in work-group form -> the LLVM IR text of its module (DESIGN codegen/).

    kernel_module(function, params, options, triple, datalayout) -> KernelModule

The module holds the work-group body (llvm_emitter.py, one LLVM instruction or a few per IR
instruction; math, images and printf call the device library, loomcl/devlib/), the entry wrapper of
the calling convention (entry.py, abi/kernel.py) and checked mode's checks (llvm_checks.py,
check_ranges.py). Text only: optimizing, compiling and loading it is the JIT's job (loomcl/jit/), and
the driver (driver/backend.py) joins the two.

May import: ir, analysis, abi, llvmtext, devlib, options, printf. Not llvmlite, not the JIT, not the
transforms.
"""
from __future__ import annotations

from ..abi.kernel import KernelSignature, ParamKind
from ..ir.function import Function
from ..llvmtext.errors import CodegenError
from ..options import DEFAULT_OPTIONS, CompilerOptions
from .entry import KernelModule, build_kernel_module

__all__ = ["CodegenError", "KernelModule", "kernel_module"]


def kernel_module(function: Function, params: KernelSignature | list[ParamKind] | tuple[ParamKind, ...] | None,
                  options: CompilerOptions, triple: str, datalayout: str) -> KernelModule:
    """The unoptimized LLVM IR of a kernel specialization, with its entry symbol and local layout."""
    return build_kernel_module(function, params, options or DEFAULT_OPTIONS, triple, datalayout)
