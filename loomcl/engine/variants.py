"""The kernel variants that micro-profiling chooses among (engine/microprofile.py): one table.

A variant is a name and the `-loomcl-*` switches (options.py SWITCHES) applied over the program's
own build options; the first row is the program as built. Each is a compile that a profiled kernel
pays for once (in the background, and cached on disk), so the table holds only switches that are
often worth their cost somewhere: each wins on some kernel of the benchmark or of the seeds' studies.
To add one, add a row; `loomcl bench --oracle` times every row alone against the runtime's choice.

Variants whose code comes out identical to an earlier row's for a kernel (a switch that does not
apply to it) are dropped for that kernel, so they cost a pipeline run but no profiling.
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Variant:
    name: str
    switches: tuple[str, ...]
    why: str


VARIANTS: tuple[Variant, ...] = (
    Variant("default", (), "the program as built"),
    Variant("nohoriz", ("-loomcl-no-horizontal-loops",),
            "uniform inner loops stay inside the work-item loops (a row walk per work-item: Kim's DFO)"),
    Variant("nointerleave", ("-loomcl-no-interleave",),
            "one vector iteration in flight: less code and register pressure for short work-item loops"),
    Variant("scalar", ("-loomcl-no-vectorize",),
            "no LLVM vectorizers: gathers and divergent code that vectorize at a loss"),
    Variant("bfo", ("-loomcl-loop-order-bfo",),
            "breadth-first order (Kim ch. 4) for every legal inner kernel loop, not only where strides favour it"),
    Variant("noblock", ("-loomcl-no-register-blocking",),
            "interchanged kernel loops over all work-items at once, not per strip kept in registers"),
    Variant("nonsw", ("-loomcl-no-nsw",),
            "signed arithmetic without nsw: LLVM's other vectorization choices (the box filters 1.3x faster)"),
    Variant("nowfv", ("-loomcl-no-wfv",),
            "LLVM's loop vectorizer instead of whole-function vectorization where both apply"),
)

DEFAULT = VARIANTS[0]


def table_signature() -> str:
    """The table as text, in the key of a remembered choice: a changed table is profiled anew."""
    return ";".join(f"{v.name}={' '.join(v.switches)}" for v in VARIANTS)


def named(name: str) -> Variant | None:
    return next((v for v in VARIANTS if v.name == name), None)
