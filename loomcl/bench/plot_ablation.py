"""--ablation with --plot: a second PNG beside the first (bench.png -> bench-ablation.png) with, per
kernel, one bar per technique: the kernel's time with that technique off over its time with all on
(report_ablation.py), on a log scale around 1. Bars past 1 are what the technique gains; bars below 1,
hatched where beyond noise, are where it costs time. matplotlib is imported only here (see plot.py)."""
from __future__ import annotations

import math
from pathlib import Path

from .report_ablation import hurts, slowdown, techniques
from .report import geomean


MINOR_LABELS = (0.5, 0.7, 1.5, 2, 3, 5)


def path_beside(path: str) -> str:
    p = Path(path)
    return str(p.with_name(f"{p.stem}-ablation{p.suffix or '.png'}"))


def plot(path: str, record: dict, floor: float) -> None:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.ticker import FuncFormatter

    names, rows = techniques(record), record["rows"]
    rows = [row for row in rows if any(slowdown(row, n) for n in names)] or rows
    width = 0.8 / max(1, len(names))
    fig, ax = plt.subplots(figsize=(12, 1.5 + 0.12 * len(rows) * max(2, len(names))))
    for i, name in enumerate(names):
        values = [slowdown(row, name) or math.nan for row in rows]
        mean = geomean(values)
        bars = ax.barh([y + i * width for y in range(len(rows))], [v - 1.0 for v in values], left=1.0,
                       height=width, color=f"C{i}", label=f"{name} (geomean {mean:.2f}x)" if mean else name)
        for bar, row in zip(bars, rows):
            if hurts(row, name, floor):
                bar.set_hatch("///")
                bar.set_edgecolor("black")
    ax.set_yticks([y + width * (len(names) - 1) / 2 for y in range(len(rows))], [row["name"] for row in rows],
                  fontsize=8)
    ax.invert_yaxis()
    ax.set_xscale("log")
    ax.xaxis.set_major_formatter(FuncFormatter(lambda x, _: f"{x:g}x"))
    ax.xaxis.set_minor_formatter(FuncFormatter(lambda x, _: f"{x:g}x" if x in MINOR_LABELS else ""))
    ax.axvline(1.0, color="black", linewidth=0.8)
    ax.set_xlabel("time with the technique off / time with every technique on (log scale)")
    ax.set_title("what each technique is worth per kernel" if names else "ablation: no technique ran")
    if names:
        ax.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.01, 1.0))
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
