"""`--ablation`: what each technique is worth on each kernel, in the style of seed 000's Table 1.

Per kernel: loomcl with every technique on (ms), then one column per technique (bench/configs.py rows
with `technique`): the kernel's time with that one technique off over its time with it on, both from
the same run, interleaved; a compile-time technique is set against the kernel as built (`noprofile`,
see `base`), micro-profiling against everything on. 2.31x: the kernel takes 2.31 times as long without it; below 1 the technique
costs time there, and such a cell is starred when off is faster beyond noise (noise.py). Then PoCL's
time and loomcl's speed ratio to PoCL, and a geometric-mean row.

Everything is read from the JSON record of the run (report.to_json), so a saved record prints the same
table again.
"""
from __future__ import annotations

import textwrap

from . import noise
from .configs import AS_BUILT, CONFIGS, Config
from .noise import geomean
from .report import REFERENCE, aligned

ON = "loomcl"
HEADER_WIDTH = 7
WIDTH = 130           # a wider table is split into blocks of fewer technique columns
STATUS = {"skipped": "skip", "mismatch": "WRONG", "error": "ERROR"}   # fit the columns
HURTS = "*"


def techniques(record: dict) -> list[str]:
    """The technique configs the run measured, in the order they ran. A record that predates the
    `technique` flag is read with today's CONFIGS."""
    configs = record.get("settings", {}).get("configs") or {}
    return [name for name, c in configs.items()
            if c.get("technique", name in CONFIGS and CONFIGS[name].technique)]


def header(name: str) -> str:
    """A column is named by the technique, the config's name without its 'no' (novec -> vec: what
    vectorization is worth), cut to HEADER_WIDTH characters."""
    if name.startswith("no") and len(name) > 4:
        name = name[2:]
    return name[:HEADER_WIDTH]


def base(row: dict, name: str) -> dict | None:
    """What technique `name` off is set against: the kernel as built (micro-profiling off, so that it
    cannot choose a variant without the technique: configs.parse builds the technique configs so)
    when the run measured that, else everything on; micro-profiling itself against everything on."""
    results = row["results"]
    as_built = results.get(Config(AS_BUILT).label)
    return as_built if name != AS_BUILT and as_built is not None else results.get(ON)


def slowdown(row: dict, name: str) -> float | None:
    """Time with technique-config `name` off / time with it on (`base`), or None."""
    on, off = base(row, name), row["results"].get(Config(name).label)
    return off["min_ms"] / on["min_ms"] if noise.timed(on) and noise.timed(off) else None


def hurts(row: dict, name: str, floor: float) -> bool:
    """Whether the kernel runs faster beyond noise with the technique off."""
    factor = slowdown(row, name)
    if factor is None:
        return False
    return noise.verdict(factor, noise.noise([base(row, name), row["results"][Config(name).label]], floor)) < 0


def cell(row: dict, name: str, floor: float) -> str:
    factor = slowdown(row, name)
    if factor is not None:
        return f"{factor:.2f}x" + (HURTS if hurts(row, name, floor) else "")
    off = row["results"].get(Config(name).label)
    return STATUS.get(off["status"], "") if off and not noise.timed(off) else "-"


def pocl_ratio(row: dict) -> float | None:
    on, pocl = row["results"].get(ON), row["results"].get(REFERENCE)
    return pocl["min_ms"] / on["min_ms"] if noise.timed(on) and noise.timed(pocl) else None


def _ms(entry: dict | None) -> str:
    if entry is None:
        return "-"
    return f"{entry['min_ms']:.2f}" if noise.timed(entry) else STATUS.get(entry["status"], "")


def table(record: dict, floor: float = noise.NOISE_FLOOR) -> str:
    names = techniques(record)
    return "\n\n".join(blocks(record, names, floor)) + "\n" + "\n".join(
        [*legend(record, names, floor), *hurt_lines(record["rows"], names, floor)])


def blocks(record: dict, names: list[str], floor: float) -> list[str]:
    """The table, or halves of it (each with the kernel, all-on and PoCL columns) while wider than WIDTH."""
    text = block(record, names, floor)
    if len(names) < 2 or max(map(len, text.splitlines())) <= WIDTH:
        return [text]
    half = (len(names) + 1) // 2
    return blocks(record, names[:half], floor) + blocks(record, names[half:], floor)


def block(record: dict, names: list[str], floor: float) -> str:
    rows = record["rows"]
    lines = [["kernel", "all on", *map(header, names), "PoCL ms", "vs PoCL"]]
    for row in rows:
        ratio = pocl_ratio(row)
        lines.append([row["name"], _ms(row["results"].get(ON)), *[cell(row, n, floor) for n in names],
                      _ms(row["results"].get(REFERENCE)), f"{ratio:.2f}x" if ratio else ""])
    means = [geomean(slowdown(row, n) for row in rows) for n in names]
    pocl = geomean(pocl_ratio(row) for row in rows)
    lines.append(["geomean", "", *[f"{m:.2f}x" if m else "" for m in means], "", f"{pocl:.2f}x" if pocl else ""])
    text = aligned(lines, left=1).splitlines()
    text.insert(len(text) - 1, text[1])
    return "\n".join(text)


def legend(record: dict, names: list[str], floor: float) -> list[str]:
    repeat = record.get("settings", {}).get("repeat")
    best = f"best of {repeat}" if repeat else "best run"
    lines = [f"all on: loomcl with every technique, ms ({best}); PoCL ms: PoCL in the same run; vs PoCL: "
             "PoCL time / all-on time.",
             "A technique's column: the kernel's time with that technique off / with it on (2.00x: twice as "
             f"slow without it); {HURTS}: off is faster",
             f"beyond noise (the larger of {100 * floor:.0f}% and the runs' spread): the technique costs time "
             "on that kernel. Columns:"]
    if any(name != AS_BUILT for name in names) and AS_BUILT in names:
        lines[1:1] = [f"The compile-time techniques are measured as built: off with {AS_BUILT} against {AS_BUILT} "
                      "(micro-profiling would choose a variant without them)."]
    configs = record.get("settings", {}).get("configs") or {}
    width = max([len(header(n)) for n in names], default=0)
    for name in names:
        options = configs.get(name, {}).get("options", "")
        description = configs.get(name, {}).get("description") or (CONFIGS[name].description
                                                                   if name in CONFIGS else "")
        first = f"  {header(name):{width}}  {name} ({options}): " if header(name) != name else \
            f"  {header(name):{width}}  ({options}): "
        lines += textwrap.wrap(description, 120, initial_indent=first,
                               subsequent_indent=" " * (width + 4)) or [first.rstrip()]
    return lines


def hurt_lines(rows: list[dict], names: list[str], floor: float) -> list[str]:
    """One line per technique that costs time somewhere: where, and by how much."""
    lines = []
    for name in names:
        where = [f"{row['name']} {slowdown(row, name):.2f}x" for row in rows if hurts(row, name, floor)]
        if where:
            lines.append(f"{name} costs time on {len(where)} kernel(s): " + ", ".join(where))
    return lines


def to_json(record: dict, floor: float = noise.NOISE_FLOOR) -> dict:
    """The record's 'ablation' section: per technique, the slowdown with it off on every kernel, the
    geometric mean, and the kernels it costs time on."""
    names, rows = techniques(record), record["rows"]
    return {"noise_floor": floor,
            "techniques": {name: {"slowdown": {row["name"]: slowdown(row, name) for row in rows},
                                  "geomean": geomean(slowdown(row, name) for row in rows),
                                  "costs_time_on": [row["name"] for row in rows if hurts(row, name, floor)]}
                           for name in names}}
