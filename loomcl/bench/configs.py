"""Named compiler configurations for `--config`: each switches one loomcl technique off, so that a row can
be set beside the same row with the technique on. The compiler honours the build options
(loomcl/options.py, CompilerOptions); a thread count is set on the worker pool before each timed run.
This table is the one place that names them.

A row is a technique unless it says `technique=False`: `--ablation` runs every technique row and the
ablation table (report_ablation.py) gives each a column, so a row added here is measured without further
code. Modes (one thread, checked mode) change how loomcl runs, not what the compiler does for speed."""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass


@dataclass(frozen=True)
class Config:
    name: str
    options: str = ""           # appended to Program.build options
    threads: int | None = None  # worker threads for this variant (None: --threads or the default)
    description: str = ""
    technique: bool = True      # switches one speed technique off (else a mode: --config only)

    @property
    def label(self) -> str:
        """The implementation's name in tables and records: loomcl, loomcl[novec], ..."""
        return "loomcl" if self.name == "default" else f"loomcl[{self.name}]"


CONFIGS: dict[str, Config] = {c.name: c for c in [
    Config("default", "", None, "every technique on", technique=False),
    Config("novec", "-loomcl-no-parallel-metadata", None,
           "work-item loops without llvm.loop parallel-access metadata: LLVM vectorizes only what it proves"),
    Config("scalar", "-loomcl-no-vectorize", None, "LLVM loop and SLP vectorizers off"),
    Config("nonsw", "-loomcl-no-nsw", None,
           "signed int arithmetic wraps (no nsw): int index arithmetic widened to 64 bits loses its affine shape"),
    Config("scatter", "-loomcl-no-scalar-scatters", None,
           "stores to computed addresses vectorized as scatters (AVX-512 vpscatter) instead of scalar stores"),
    Config("nostream", "-loomcl-no-streaming-stores", None,
           "no streaming (non-temporal) stores to large write-only buffers: every store goes through the caches"),
    Config("allctx", "-loomcl-context-all", None,
           "context arrays for every value live across a barrier, not only the varying ones"),
    Config("cbs", "-loomcl-no-structured", None,
           "continuation-based form everywhere: no structured uniform control flow around work-item loops"),
    Config("nofold", "-loomcl-no-fold-guards", None,
           "no folding of local-id guards (if (lid < s)) into work-item loop bounds"),
    Config("nohoriz", "-loomcl-no-horizontal-loops", None,
           "no horizontal inner-loop parallelization: barrier-free uniform loops stay inside the work-item loops"),
    Config("nogridstride", "-loomcl-no-grid-stride", None,
           "grid-stride loops keep per-work-item trip counts: the work-item loop stays around them"),
    Config("noprofile", "-loomcl-no-microprofile", None,
           "no micro-profiling: every launch runs the program as built, no variants compiled"),
    Config("bfo", "-loomcl-loop-order-bfo", None,
           "breadth-first order for every legal inner kernel loop, not only where strides favour it",
           technique=False),
    Config("unrollx", "-loomcl-unroll-small-x-loops", None,
           "x work-item loops of at most 64 work-items left to LLVM's full unroll (before its vectorizer)"),
    Config("rowgroups", "-loomcl-row-group-order", None,
           "work-groups walked row by row, not in tiles of 32 x 32 groups (column-walking kernels)"),
    Config("noblock", "-loomcl-no-register-blocking", None,
           "interchanged kernel loops run over all work-items per iteration: their state in context arrays"),
    Config("novecx", "-loomcl-no-vectorize-x", None,
           "no unroll hints for the x loop's vectorizer: short kernel loops in x loops may stay loops"),
    Config("notranspose", "-loomcl-no-transpose-private", None,
           "private arrays' context arrays work-item-major: p[j] strided across work-items"),
    Config("nowfv", "-loomcl-no-wfv", None,
           "no whole-function vectorization: x work-item loops with loops inside are left to LLVM (scalar)"),
    Config("1thread", "", 1, "one worker thread", technique=False),
    Config("check", "-loomcl-check", None,
           "checked mode: bounds checks on every access and barrier-divergence checks (the debugging mode)",
           technique=False),
]}

POCL_THREADS_ENV = ("POCL_MAX_PTHREAD_COUNT", "POCL_CPU_MAX_CU_COUNT")   # PoCL <= 3.x, >= 4.0


def techniques() -> list[Config]:
    """The rows --ablation runs: each switches one technique off."""
    return [c for c in CONFIGS.values() if c.technique]


def parse(names: str | None, ablation: bool = False) -> list[Config]:
    """'novec,1thread' -> [default, novec, 1thread]: the default always runs, for the comparison; with
    `ablation`, every technique row too (after the named ones)."""
    chosen = [CONFIGS["default"]]
    for name in (names or "").split(","):
        name = name.strip()
        if not name or name == "default":
            continue
        if name not in CONFIGS:
            raise ValueError(f"unknown config {name!r}; known: {', '.join(CONFIGS)}")
        chosen.append(CONFIGS[name])
    if ablation:
        chosen += [_as_built(c) for c in techniques() if c.name not in {n.name for n in chosen}]
    return chosen


AS_BUILT = "noprofile"
NO_PROFILE = "-loomcl-no-microprofile"


def _as_built(config: Config) -> Config:
    """A compile-time technique's ablation config: micro-profiling off too, so it measures the technique
    (set against `noprofile`: report_ablation.base), not a variant that profiling would pick without
    it, and compiles no variants."""
    if config.name == AS_BUILT:
        return config
    return dataclasses.replace(config, options=f"{config.options} {NO_PROFILE}".strip())
