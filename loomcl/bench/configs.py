"""Named compiler configurations for `--config`: each switches one loomcl technique off, so that a row can
be set beside the same row with the technique on. The compiler honours the build options
(loomcl/options.py, CompilerOptions); a thread count is set on the worker pool before each timed run.
This table is the one place that names them."""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Config:
    name: str
    options: str = ""           # appended to Program.build options
    threads: int | None = None  # worker threads for this variant (None: --threads or the default)
    description: str = ""


CONFIGS: dict[str, Config] = {c.name: c for c in [
    Config("default", "", None, "every technique on"),
    Config("novec", "-loomcl-no-parallel-metadata", None,
           "work-item loops without llvm.loop parallel-access metadata: LLVM vectorizes only what it proves"),
    Config("scalar", "-loomcl-no-vectorize", None, "LLVM loop and SLP vectorizers off"),
    Config("allctx", "-loomcl-context-all", None,
           "context arrays for every value live across a barrier, not only the varying ones"),
    Config("cbs", "-loomcl-no-structured", None,
           "continuation-based form everywhere: no structured uniform control flow around work-item loops"),
    Config("nofold", "-loomcl-no-fold-guards", None,
           "no folding of local-id guards (if (lid < s)) into work-item loop bounds"),
    Config("nohoriz", "-loomcl-no-horizontal-loops", None,
           "no horizontal inner-loop parallelization: barrier-free uniform loops stay inside the work-item loops"),
    Config("nowfv", "-loomcl-no-wfv", None,
           "no whole-function vectorization: x work-item loops with loops inside are left to LLVM (scalar)"),
    Config("1thread", "", 1, "one worker thread"),
    Config("check", "-loomcl-check", None,
           "checked mode: bounds checks on every access and barrier-divergence checks (the debugging mode)"),
]}

POCL_THREADS_ENV = ("POCL_MAX_PTHREAD_COUNT", "POCL_CPU_MAX_CU_COUNT")   # PoCL <= 3.x, >= 4.0


def parse(names: str | None) -> list[Config]:
    """'novec,1thread' -> [default, novec, 1thread]: the default always runs, for the comparison."""
    chosen = [CONFIGS["default"]]
    for name in (names or "").split(","):
        name = name.strip()
        if not name or name == "default":
            continue
        if name not in CONFIGS:
            raise ValueError(f"unknown config {name!r}; known: {', '.join(CONFIGS)}")
        chosen.append(CONFIGS[name])
    return chosen
