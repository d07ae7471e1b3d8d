"""The ICD section's table and JSON record.

A cell is the median µs of one call + queue.finish(); the ratio is pyopencl→PoCL time / pyopencl→loomcl
time (above 1, loomcl's ICD is faster), as report.py's speed ratios are PoCL time / loomcl time; "in
loomcl" is the share of a pyopencl→loomcl call spent inside loomcl's ICD entry points (what the
platform costs, beside what pyopencl itself costs).
"""
from __future__ import annotations

from .icd_section import TARGETS, IcdRow, IcdSection
from .noise import geomean
from .report import aligned

ICD, POCL = TARGETS["icd"], TARGETS["pocl"]
ORDER = list(TARGETS.values())


def ratio(row: IcdRow) -> float | None:
    mine, theirs = row.cells.get(ICD), row.cells.get(POCL)
    if mine and theirs and mine.ok and theirs.ok:
        return theirs.median_us / mine.median_us
    return None


def size_label(n: int | None) -> str:
    if n is None:
        return "-"
    for unit, scale in (("M", 1 << 20), ("K", 1 << 10)):
        if n >= scale and n % scale == 0:
            return f"{n // scale}{unit}"
    return str(n)


def cell(row: IcdRow, name: str) -> str:
    c = row.cells.get(name)
    if c is None:
        return "-"
    if c.ok:
        return f"{c.median_us:.1f}"
    return {"mismatch": "MISMATCH"}.get(c.status, "ERROR")


def geomeans(section: IcdSection) -> dict[str, float | None]:
    """The ICD/PoCL ratio's geometric mean over the launches, and over the array ops at each size."""
    groups = {"launch": [r for r in section.rows if r.n is None]}
    for n in section.settings["sizes"]:
        groups[f"arrays {size_label(n)}"] = [r for r in section.rows if r.n == n]
    return {label: geomean(ratio(r) for r in rows) for label, rows in groups.items()}


def table(section: IcdSection) -> str:
    names = [n for n in ORDER if n in section.devices]
    header = ["operation", "size", *[f"{n} µs" for n in names], "numpy µs", "loomcl ICD/PoCL", "in loomcl"]
    lines = [header]
    for row in section.rows:
        r, share = ratio(row), row.inside_share
        lines.append([row.op.name, size_label(row.n), *[cell(row, n) for n in names],
                      f"{row.numpy_us:.1f}" if row.numpy_us is not None else "", f"{r:.2f}x" if r else "",
                      f"{100 * share:.0f}%" if share is not None else ""])
    return aligned(lines, left=2) if len(lines) > 1 else ""


def summary(section: IcdSection) -> str:
    if not section.devices:
        return "\n".join(["through the ICD: nothing ran", *section.unavailable])
    parts = ["through the ICD: median µs per call + queue.finish(), on "
             + ", ".join(f"{n} ({d})" for n, d in section.devices.items()), "", table(section)]
    if any(row.split_us for row in section.rows):
        parts.append(f"in loomcl: the part of a {ICD} call spent inside loomcl's ICD entry points (the rest is "
                     "pyopencl's Python and C++ and the loader), measured in a process of its own")
    for label, value in geomeans(section).items():
        if value is not None:
            parts.append(f"geometric mean loomcl ICD/PoCL speed ratio, {label}: {value:.2f}x")
    parts += section.unavailable
    parts += [f"{row.op.name} ({size_label(row.n)}) on {name}: {c.status}: {c.reason}"
              for row in section.rows for name, c in row.cells.items() if c.status != "ok"]
    return "\n".join(parts)


def to_json(section: IcdSection) -> dict:
    """The section's record in the bench's JSON (key "icd"); times in µs."""
    return {"settings": section.settings, "devices": section.devices, "unavailable": section.unavailable,
            "rows": [_row_json(row) for row in section.rows], "geomean_ratio": geomeans(section)}


def _row_json(row: IcdRow) -> dict:
    results = {}
    for name, c in row.cells.items():
        entry = {"status": c.status, "reason": c.reason}
        if c.ok:
            entry.update(median_us=c.median_us, min_us=min(c.us), calls=len(c.us))
        results[name] = entry
    split = {"call_us": row.split_us[0], "inside_loomcl_us": row.split_us[1]} if row.split_us else None
    return {"op": row.op.name, "n": row.n, "numpy_us": row.numpy_us, "results": results, "ratio": ratio(row),
            "icd_split": split}
