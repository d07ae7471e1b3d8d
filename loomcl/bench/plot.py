"""--plot: a PNG with the per-kernel speedup of each loomcl variant over PoCL and a roofline of every
kernel on every implementation. matplotlib is an optional extra (pip install 'loomcl[plot]'), imported
only here."""
from __future__ import annotations

import math

from .machine import Limits
from .report import REFERENCES, speed_ratio
from .runner import Row

MISSING = "--plot needs matplotlib, which is not installed: pip install 'loomcl[plot]' (or pip install matplotlib)"


def require_matplotlib() -> str | None:
    """None if matplotlib imports, else the message to print."""
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        return MISSING
    return None


def plot(path: str, rows: list[Row], names: list[str], limits: Limits) -> None:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, (speed_ax, roof_ax, band_ax) = plt.subplots(1, 3, figsize=(22, 8),
                                                     gridspec_kw={"width_ratios": [1, 1.4, 1]})
    _speedups(speed_ax, rows, names)
    _roofline(roof_ax, rows, names, limits)
    _bandwidth(band_ax, rows, names, limits)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def _speedups(ax, rows, names):
    variants = [n for n in names if n not in REFERENCES]
    _bars(ax, rows, variants, lambda row, name: speed_ratio(row, name) or math.nan,
          "speed over PoCL (PoCL time / loomcl time)")
    ax.axvline(1.0, color="black", linewidth=0.8)
    ax.set_xscale("log")
    ax.set_title("speedup over PoCL" if variants else "speedup over PoCL: no loomcl results")


def _bars(ax, rows, names, values, label):
    """Grouped horizontal bars, one group per row, one bar per implementation."""
    width = 0.8 / max(1, len(names))
    for i, name in enumerate(names):
        ax.barh([y + i * width for y in range(len(rows))], [values(row, name) for row in rows],
                height=width, label=name, color=f"C{i}")
    ax.set_yticks([y + width * (len(names) - 1) / 2 for y in range(len(rows))],
                  [row.case.name for row in rows], fontsize=8)
    ax.invert_yaxis()
    ax.set_xlabel(label)
    if names:
        ax.legend(fontsize=8)


def _bandwidth(ax, rows, names, limits):
    """Every kernel, flops or not: its traffic per second against the measured copy bandwidth."""
    def percent(row, name):
        result = row.results.get(name)
        if not (result and result.ok):
            return math.nan
        return 100 * row.bytes / (result.min_ms * 1e-3) / 1e9 / limits.bandwidth_gbs
    _bars(ax, rows, names, percent, f"% of measured copy bandwidth ({limits.bandwidth_gbs:.1f} GB/s)")
    ax.axvline(100.0, color="black", linewidth=0.8)
    ax.set_title("memory traffic")


def _roofline(ax, rows, names, limits):
    bandwidth, peak = limits.bandwidth_gbs, limits.peak_gflops
    intensities = [row.flops / row.bytes for row in rows if row.flops and row.bytes]
    low = min([0.01, *intensities]) / 2
    high = max([100.0, *intensities]) * 2
    xs = [low * (high / low) ** (i / 200) for i in range(201)]
    ax.plot(xs, [min(peak, x * bandwidth) for x in xs], color="black", linewidth=1.5,
            label=f"roof: {bandwidth:.1f} GB/s copy, {peak:.0f} GFLOP/s fma")
    markers = "os^vD<>"
    for m, name in enumerate(names):
        for row in rows:
            result = row.results.get(name)
            if not (result and result.ok and row.flops and row.bytes):
                continue
            ai = row.flops / row.bytes
            gflops = row.flops / (result.min_ms * 1e-3) / 1e9
            ax.scatter([ai], [gflops], marker=markers[m % len(markers)], s=30,
                       color=f"C{m}", label=name if row is _first_ok(rows, name) else None)
            ax.annotate(row.case.name, (ai, gflops), fontsize=6, xytext=(3, 2), textcoords="offset points")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("arithmetic intensity (flop/byte)")
    ax.set_ylabel("GFLOP/s")
    ax.set_title("roofline (kernels with flops)")
    ax.legend(fontsize=8, loc="lower right")
    if not math.isfinite(peak):
        ax.set_title("roofline: no fma peak measured")


def _first_ok(rows, name):
    return next((row for row in rows if (r := row.results.get(name)) and r.ok and row.flops and row.bytes), None)
