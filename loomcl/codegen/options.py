"""Code generation reads the one options object, `loomcl.options.CompilerOptions`.

Its codegen fields: `parallel_metadata` and `vectorize` (the benchmark switches them off to measure
what pocl's parallel-loop metadata, pocl 4.2, and LLVM's vectorizers bring), `interleave`, `unroll`
and `opt_level` (LLVM's pipeline tuning options), and `use_cache` (the on-disk object cache).
`CompilerOptions.codegen_key()` is the part of the object-cache key that they make.

This module only keeps the old name for target.py's annotations; import `loomcl.options` instead.
"""
from __future__ import annotations

from ..options import DEFAULT_OPTIONS, CompilerOptions

CodegenOptions = CompilerOptions

__all__ = ["DEFAULT_OPTIONS", "CompilerOptions", "CodegenOptions"]
