"""Options of code generation, frozen and parsed once at build time.

The benchmark switches `parallel_metadata` and `vectorize` off to measure what pocl's parallel-loop
metadata (pocl 4.2) and LLVM's vectorizers bring; the rest mirror LLVM's pipeline tuning options.
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class CodegenOptions:
    parallel_metadata: bool = True  # llvm.access.group + llvm.loop.parallel_accesses on work-item loops
    vectorize: bool = True  # LLVM's loop and SLP vectorizers
    interleave: bool = True  # loop interleaving (several vector iterations in flight)
    unroll: bool = True
    opt_level: int = 3
    use_cache: bool = True  # the on-disk object cache; does not change the code, so not in the key

    def key(self) -> str:
        """The fields that change the generated code, as text for the object-cache key."""
        return (f"pm={int(self.parallel_metadata)} vec={int(self.vectorize)} il={int(self.interleave)} "
                f"unroll={int(self.unroll)} O{self.opt_level}")


DEFAULT_OPTIONS = CodegenOptions()
