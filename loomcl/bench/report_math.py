"""The math throughput table: the `math` family's rows (suite/math.py) as Gelem/s per function, float
and double side by side, for every implementation and numpy. A row's flops are its element count (one
builtin call per element), so elements per second = flops / time."""
from __future__ import annotations

from .runner import Row

FAMILY = "math"


def gelems(row: Row, ms: float | None) -> str:
    return f"{row.flops / (ms * 1e-3) / 1e9:.2f}" if ms else ""


def _cell(row: Row | None, name: str) -> str:
    if row is None:
        return ""
    if name == "numpy":
        return gelems(row, row.numpy_ms)
    result = row.results.get(name)
    if result is None:
        return "-"
    if result.ok and result.wall_ms:
        return gelems(row, result.min_ms)
    return {"skipped": "skipped", "mismatch": "MISMATCH"}.get(result.status, "ERROR")


def math_table(rows: list[Row], names: list[str]) -> str:
    """'' when no math row ran; else one line per function, a column per (type, implementation)."""
    by_case = {row.case.name: row for row in rows if row.case.family == FAMILY}
    if not by_case:
        return ""
    functions = list(dict.fromkeys(name.rsplit("_", 1)[0] for name in by_case))
    sizes = sorted({row.size for row in by_case.values()})
    columns = [(t, n) for t in ("float", "double") for n in (*names, "numpy")]
    lines = [["function", *[f"{t} {n}" for t, n in columns]]]
    for f in functions:
        lines.append([f, *[_cell(by_case.get(f"{f}_{t}"), n) for t, n in columns]])
    widths = [max(len(line[i]) for line in lines) for i in range(len(lines[0]))]
    text = ["  ".join(v.ljust(w) if i == 0 else v.rjust(w) for i, (v, w) in enumerate(zip(line, widths)))
            for line in lines]
    text.insert(1, "  ".join("-" * w for w in widths))
    title = f"math throughput, Gelem/s (one builtin call per work-item, {', '.join(sizes)} elements):"
    return "\n".join([title, *(line.rstrip() for line in text)])
