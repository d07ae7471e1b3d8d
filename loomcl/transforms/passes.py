"""The one shape of a work-group pass, and what a pass may read besides its function.

A pass is a module of this package with

    NAME = "subcfg-formation"                   # pocl's name where the concept is the same
    PRESERVES = CFG_ANALYSES                    # optional: analyses still valid after a change
    def run(function, analyses) -> bool: ...    # whether it changed the function

`run` transforms the kernel function in place and returns whether it changed anything; the pipeline
then invalidates every cached analysis the pass does not list in `PRESERVES` (none by default).
`analyses` is a `PassContext`: the function's cached analyses (analysis/manager.py) plus the facts of
the specialization (the options, the local size, the module) and what one pass hands to a later one
(`group_blocks`, `horizontal_headers`). Nothing else travels between passes; nothing is read from the environment.
"""
from __future__ import annotations

from typing import Protocol

from ..analysis.manager import Analyses
from ..ir.function import Block, Function, Module
from ..options import DEFAULT_OPTIONS, CompilerOptions


VECTOR_REGISTERS = 32  # AVX-512's zmm0-31, where no target is named (tests, --emit without a host)


class PassContext(Analyses):
    """The analyses of the function being transformed, and the specialization it is for."""

    def __init__(self, function: Function, options: CompilerOptions = DEFAULT_OPTIONS,
                 local_size: tuple[int, int, int] = (1, 1, 1), module: Module | None = None,
                 vector_registers: int = VECTOR_REGISTERS) -> None:
        super().__init__(function)
        self.options = options
        self.local_size = tuple(local_size) + (1,) * (3 - len(local_size))
        """The work-group size this specialization is for (subcfg-formation sets
        `function.local_size` from it; before that the function is still in work-item form)."""
        self.module = module
        """The module holding the function (inline drops the other functions from it)."""
        self.vector_registers = vector_registers
        """SIMD registers of the target (the driver asks LLVM for the host's): what scalarize-vectors
        and WFV may keep live in registers."""
        self.group_blocks: set[Block] = set()
        """Blocks chosen to run once per group (structurize-uniform-barriers -> subcfg-formation)."""
        self.horizontal_headers: set[Block] = set()
        """Headers of the loops implicit-loop-barriers made group-level (-> register-blocking): loops
        without a barrier of the kernel's own, whose work-items may therefore run them in any order."""


class Pass(Protocol):
    """What the pipeline's table holds: a pass module (PEP 544: modules can satisfy a protocol)."""

    NAME: str

    def run(self, function: Function, analyses: PassContext) -> bool: ...


def run_pass(pass_: Pass, function: Function, analyses: PassContext) -> bool:
    """Run one pass and drop the analyses it did not preserve if it changed the function."""
    changed = pass_.run(function, analyses)
    if changed:
        analyses.invalidate(getattr(pass_, "PRESERVES", frozenset()))
    return changed
