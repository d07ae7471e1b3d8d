"""`loomcl bench --oracle`: the variant micro-profiling chose at run time against the best one offline.

Every row of engine/variants.py becomes an implementation of its own, `loomcl[v-NAME]`, built with
the variant's switches and `-loomcl-no-microprofile` (that variant alone, over the full launches); the
default `loomcl` is micro-profiled. The runner interleaves them in its timed rounds as it does any
configuration, so all see the same machine. The oracle of a row is its fastest variant; the section
prints per row the micro-profiled time over the oracle's, the chosen variant's own time over the
oracle's (the choice without the noise of a second measurement) and which variants were chosen.
The issue's target: within 5% of the oracle.

The bench (every mode) compiles the variants before the first launch (LOOMCL_MICROPROFILE=sync), and
its warm-up runs a case again until micro-profiling has chosen (runner.settle), so the timed runs
show the steady state, as compile time is left out too; a choice remembered on disk from an earlier
run is taken as it is (the row says so).
"""
from __future__ import annotations

import os

from .configs import Config
from .noise import geomean

PREFIX = "v-"
TARGET = 1.05


def _variants():
    from ..engine import variants

    return variants.VARIANTS


def configs() -> list[Config]:
    """One configuration per variant of the table."""
    return [Config(PREFIX + v.name, " ".join(v.switches + ("-loomcl-no-microprofile",)), None, v.why,
                   technique=False) for v in _variants()]


def prepare_environment() -> None:
    os.environ.setdefault("LOOMCL_MICROPROFILE", "sync")  # (engine/microprofile.py's ENVIRONMENT, SYNC)


def implementation_name(variant: str) -> str:
    return f"loomcl[{PREFIX}{variant}]"


def chosen_variants(prepared) -> list[str]:
    """The variants the micro-profiled kernels of a prepared case run now ('?' while undecided;
    'name*' for a choice remembered from an earlier process)."""
    names = []
    for kernel in prepared.kernels.values():
        for selection in getattr(kernel, "_selections", {}).values():
            winner = selection.winner
            names.append("?" if winner is None else winner.name + ("*" if selection.remembered else ""))
    return names


def _min_ms(row, name: str) -> float | None:
    result = row.results.get(name)
    return result.min_ms if result is not None and result.ok and result.wall_ms else None


def summary(rows: list, profiled: str = "loomcl") -> str:
    """The section's text for the suite's rows (runner.Row)."""
    lines = [f"oracle: micro-profiled '{profiled}' against each variant alone (min ms; ratio = time / the "
             f"fastest variant's; target <= {TARGET:.2f}; * = a choice remembered from an earlier run)",
             f"{'case':16} {'profiled':>9} {'oracle':>9} {'best':>13} {'ratio':>6} {'chosen':>7}  chosen variants"]
    ratios, chosen_ratios, within = [], [], 0
    for row in rows:
        times = {v.name: _min_ms(row, implementation_name(v.name)) for v in _variants()}
        times = {name: ms for name, ms in times.items() if ms}
        mine = _min_ms(row, profiled)
        if not times or mine is None:
            lines.append(f"{row.case.name:16} (did not run cleanly)")
            continue
        best = min(times, key=times.get)
        ratio = mine / times[best]
        picks = row.results[profiled].chosen or []
        named = {p.rstrip("*") for p in picks} - {"?"}
        own = max((times[p] for p in named if p in times), default=None)
        chosen_ratio = own / times[best] if own else None
        ratios.append(ratio)
        within += ratio <= TARGET
        if chosen_ratio:
            chosen_ratios.append(chosen_ratio)
        lines.append(f"{row.case.name:16} {mine:9.3f} {times[best]:9.3f} {best:>13} {ratio:6.3f} "
                     f"{chosen_ratio or float('nan'):7.3f}  {', '.join(picks) or '(not profiled)'}")
    lines.append(f"geomean ratio {_text(geomean(ratios))} (chosen variant alone {_text(geomean(chosen_ratios))}); "
                 f"{within} of {len(ratios)} rows within {TARGET:.2f}")
    return "\n".join(lines)


def _text(value: float | None) -> str:
    return f"{value:.3f}" if value else "-"
