"""The compiler's options: one frozen object, parsed once at build time, read by every stage.

A build-options string (`Program.build(options=...)`, `loomcl build --options`) carries the
front-end's options (`-D`, `-I`, `-cl-*`; frontend/options.py) and loomcl's own `-loomcl-*`
switches, listed in `SWITCHES` below. `CompilerOptions.split` takes the latter out and gives the
rest to the front-end. The same object then goes to the work-group pipeline (transforms/pipeline.py:
which passes run, verification and printing between them) and to code generation (codegen/: the
LLVM pipeline and the object cache), so a switch is declared once and never copied between classes.
Nothing reads the environment mid-build: `LOOMCL_CHECK=1` (checked mode for every build of the
process) is read once per build, by `split`.

The benchmark switches techniques off to measure them (bench/configs.py names the variants).
`ids_fit_int` has no switch: the runtime sets it per launch (every global id of the launch fits in
a C int) and it is part of the work-group function's specialization key.
"""
from __future__ import annotations

import dataclasses
import os
from dataclasses import dataclass
from typing import ClassVar


CHECK_ENVIRONMENT = "LOOMCL_CHECK"


@dataclass(frozen=True)
class CompilerOptions:
    # -- the work-group pipeline (transforms/pipeline.py) -----------------------------------------
    structured: bool = True
    """Keep uniform control flow around barriers as scalar group-level code (the structured form)."""
    fold_guards: bool = True
    """Fold `if (lid < s)` into work-item loop bounds (fold-local-id-guards)."""
    horizontal_loops: bool = True
    """Implicit barriers in barrier-free uniform inner loops (pocl 4.6); structured form only."""
    context_all: bool = False
    """Context arrays for every value crossing a barrier (no uniform slots); implies plain CBS."""
    ids_fit_int: bool = False
    """The launch's global ids fit in a C int (set by the runtime per launch, never by a switch)."""
    scalarize: bool = True
    """Vector values become one scalar per lane, so work-item loops vectorize (scalarize-vectors)."""
    checked: bool = False
    """Checked mode: bounds checks on every access and barrier-divergence checks (insert-checks;
    `-loomcl-check` or LOOMCL_CHECK=1 in the environment of the process that builds)."""

    # -- code generation (codegen/) -------------------------------------------------------------
    parallel_metadata: bool = True
    """llvm.access.group + llvm.loop.parallel_accesses on work-item loops (pocl 4.2)."""
    vectorize: bool = True
    """LLVM's loop and SLP vectorizers."""
    interleave: bool = True
    """Loop interleaving (several vector iterations in flight)."""
    unroll: bool = True
    opt_level: int = 3
    use_cache: bool = True
    """The on-disk object cache; it does not change the code, so it is not in the cache key."""

    # -- debugging the pipeline -----------------------------------------------------------------
    verify_each: bool = False
    """Run the IR verifier after every pass (and check that a pass reporting no change made none)."""
    print_after: tuple[str, ...] = ()
    """Pass names (or "all") whose output is printed to stderr."""

    SWITCHES: ClassVar[dict[str, tuple[str, object]]] = {
        "-loomcl-no-structured": ("structured", False),
        "-loomcl-no-fold-guards": ("fold_guards", False),
        "-loomcl-no-horizontal-loops": ("horizontal_loops", False),
        "-loomcl-context-all": ("context_all", True),
        "-loomcl-no-scalarize": ("scalarize", False),
        "-loomcl-no-parallel-metadata": ("parallel_metadata", False),
        "-loomcl-no-vectorize": ("vectorize", False),
        "-loomcl-verify-each": ("verify_each", True),
        "-loomcl-check": ("checked", True),
    }
    PRINT_AFTER: ClassVar[str] = "-loomcl-print-after="  # repeatable: -loomcl-print-after=PASS

    @classmethod
    def split(cls, options: str) -> tuple[CompilerOptions, str]:
        """Take loomcl's own switches out of a build option string; the rest is the front-end's."""
        values: dict[str, object] = {}
        printed: list[str] = []
        rest = []
        for word in options.split():
            if word in cls.SWITCHES:
                name, value = cls.SWITCHES[word]
                values[name] = value
            elif word.startswith(cls.PRINT_AFTER):
                printed.append(word[len(cls.PRINT_AFTER):])
            else:
                rest.append(word)
        if os.environ.get(CHECK_ENVIRONMENT, "").strip() not in ("", "0"):
            values["checked"] = True
        return cls(print_after=tuple(printed), **values), " ".join(rest)

    def replace(self, **changes) -> CompilerOptions:
        return dataclasses.replace(self, **changes)

    # -- what the switches mean together --------------------------------------------------------

    @property
    def uses_structured_form(self) -> bool:
        """structurize-uniform-barriers runs: `context_all` measures the plain CBS form's context
        arrays, so it overrides `structured`."""
        return self.structured and not self.context_all

    @property
    def uses_horizontal_loops(self) -> bool:
        """implicit-loop-barriers runs: only in the structured form, where the loop it makes becomes
        group-level scalar control flow (in plain CBS it would become a dispatcher loop)."""
        return self.horizontal_loops and self.uses_structured_form

    def prints_after(self, pass_name: str) -> bool:
        return pass_name in self.print_after or "all" in self.print_after

    def codegen_key(self) -> str:
        """The fields that change native code for the same LLVM IR text, as text for the object-cache
        key. The pipeline's switches change the LLVM IR text itself, which is in the key; checked
        mode does too, and is named besides (only when on, so existing entries stay valid)."""
        return (f"pm={int(self.parallel_metadata)} vec={int(self.vectorize)} il={int(self.interleave)} "
                f"unroll={int(self.unroll)} O{self.opt_level}" + (" checked" if self.checked else ""))


DEFAULT_OPTIONS = CompilerOptions()
