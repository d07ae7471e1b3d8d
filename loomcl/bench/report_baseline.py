"""`--baseline PATH`: this run beside an earlier `--json` record, kernel by kernel.

Rows pair by kernel name; a pair whose sizes differ is not compared (a --quick run against a full one),
and the baseline's kernels this run left out (--only) are counted below the table.
Per kernel: loomcl's best time before and after, the speedup (before / after), the noise margin
(noise.py: the larger of the floor and the repeat spread of either side), PoCL's time in this run, and
loomcl's speed ratio to PoCL before and after, each against the PoCL of its own run. The verdict:
  SLOWER            after is slower beyond noise, and so is its ratio to PoCL: the code got slower;
  slower, PoCL too  after is slower beyond noise, but PoCL slowed as much: the machine was busier;
  faster            after is faster beyond noise.
Below the table, the machine's own probes of both runs (np.copyto bandwidth, the native FMA probe) say
whether the machine itself ran slower: under other load every kernel, loomcl's and PoCL's, slows unevenly,
and no verdict of that run says anything about the code.
"""
from __future__ import annotations

import json
import textwrap
from pathlib import Path

from . import noise
from .report import REFERENCE, SCHEMA, aligned, geomean

ON = "loomcl"
STATUS = {"skipped": "skipped", "mismatch": "MISMATCH", "error": "ERROR"}


def load(path: str | Path, option: str = "--baseline") -> dict:
    """A record written by --json; ValueError saying what is wrong with it otherwise."""
    try:
        record = json.loads(Path(path).read_text())
    except (OSError, json.JSONDecodeError) as exc:
        raise ValueError(f"{option} {path}: cannot read a JSON record: {exc}") from exc
    if not isinstance(record, dict) or record.get("schema") != SCHEMA or "rows" not in record:
        raise ValueError(f"{option} {path}: not a `loomcl bench --json` record (schema {SCHEMA!r} with rows)")
    return record


def _entry(row: dict | None, name: str) -> dict | None:
    return row["results"].get(name) if row else None


def _ratio(row: dict | None) -> float | None:
    """PoCL time / loomcl time within one run."""
    on, pocl = _entry(row, ON), _entry(row, REFERENCE)
    return pocl["min_ms"] / on["min_ms"] if noise.timed(on) and noise.timed(pocl) else None


def judge(before: dict, after: dict, floor: float) -> tuple[float, float, str] | None:
    """(speedup before/after, noise margin, verdict) for a pair of rows both timed on loomcl, else None."""
    old, new = _entry(before, ON), _entry(after, ON)
    if not (noise.timed(old) and noise.timed(new)):
        return None
    margin = noise.noise([old, new], floor)
    slower = noise.verdict(new["min_ms"] / old["min_ms"], margin)
    if slower < 0:
        return old["min_ms"] / new["min_ms"], margin, "faster"
    if slower == 0:
        return old["min_ms"] / new["min_ms"], margin, ""
    ratio_before, ratio_after = _ratio(before), _ratio(after)
    if ratio_before and ratio_after:
        pocl = [_entry(before, REFERENCE), _entry(after, REFERENCE)]
        normalized = noise.verdict(ratio_before / ratio_after, noise.noise([old, new, *pocl], floor))
        if normalized <= 0:
            return old["min_ms"] / new["min_ms"], margin, "slower, PoCL too"
    return old["min_ms"] / new["min_ms"], margin, "SLOWER"


def _ms(entry: dict | None) -> str:
    if entry is None:
        return "-"
    return f"{entry['min_ms']:.2f}" if noise.timed(entry) else STATUS.get(entry["status"], entry["status"])


def _x(value: float | None) -> str:
    return f"{value:.2f}x" if value else ""


def pairs(before: dict, after: dict) -> list[tuple[str, dict | None, dict]]:
    """(kernel, baseline row or None, this run's row) in this run's order."""
    old = {row["name"]: row for row in before["rows"]}
    return [(row["name"], old.get(row["name"]), row) for row in after["rows"]]


def left_out(before: dict, after: dict) -> list[str]:
    """The baseline's kernels this run has not."""
    new = {row["name"] for row in after["rows"]}
    return [row["name"] for row in before["rows"] if row["name"] not in new]


def comparison(before: dict, after: dict, floor: float = noise.NOISE_FLOOR) -> str:
    lines = [["kernel", "before ms", "after ms", "speedup", "noise", "PoCL ms", "before/PoCL", "after/PoCL",
              "verdict"]]
    speedups, flagged, busy = [], [], []
    for name, old, new in pairs(before, after):
        if old is None or old["size"] != new["size"]:
            lines.append([name, "", _ms(_entry(new, ON)), "", "", _ms(_entry(new, REFERENCE)), "", _x(_ratio(new)),
                          "not in the baseline" if old is None else f"size {new['size']}, was {old['size']}"])
            continue
        judged = judge(old, new, floor)
        speedup, margin, verdict = judged or (None, None, "")
        if judged:
            speedups.append(speedup)
        if verdict == "SLOWER":
            flagged.append(name)
        elif verdict.startswith("slower"):
            busy.append(name)
        lines.append([name, _ms(_entry(old, ON)), _ms(_entry(new, ON)), _x(speedup),
                      f"±{100 * margin:.0f}%" if margin is not None else "", _ms(_entry(new, REFERENCE)),
                      _x(_ratio(old)), _x(_ratio(new)), verdict])
    compared = [(old, new) for _, old, new in pairs(before, after) if old and old["size"] == new["size"]]
    ratios = [(_ratio(old), _ratio(new)) for old, new in compared]
    ratios = [pair for pair in ratios if all(pair)]
    lines.append(["geomean", "", "", _x(geomean(speedups)), "", "", _x(geomean(r for r, _ in ratios)),
                  _x(geomean(r for _, r in ratios)), ""])
    text = aligned(lines, left=1, last_left=True).splitlines()
    text.insert(len(text) - 1, text[1])
    return "\n".join([*text, *footer(before, after, floor, len(speedups), len(ratios), flagged, busy)])


MACHINE_MARGIN = 0.25     # two runs of the probes on the idle machine differ by up to ~20% (np.copyto)
PROBES = (("np.copyto", "GB/s", lambda m: m.get("numpy_copy_gbs")),
          ("native FMA probe", "GFLOP/s", lambda m: (m.get("fma_gflops_by_impl") or {}).get("native probe")))


def machine(before: dict, after: dict, floor: float) -> list[str]:
    """A warning when the machine's probes differ between the runs beyond what they do on an idle machine."""
    changed = []
    for name, unit, probe in PROBES:
        old, new = probe(before.get("machine") or {}), probe(after.get("machine") or {})
        if old and new and noise.verdict(old / new, max(floor, MACHINE_MARGIN)):
            changed.append(f"{name} {old:.1f} -> {new:.1f} {unit}")
    if not changed:
        return []
    return textwrap.wrap(f"THE MACHINE DIFFERS: {', '.join(changed)}: another load or another machine; its "
                         "verdicts measure the machine as much as the code (run again when it is idle).", 120)


def footer(before, after, floor, compared, with_pocl, flagged, busy) -> list[str]:
    lines = textwrap.wrap(
        f"before: {before.get('time', '?')}, commit {str(before.get('commit'))[:12]}; after: {after.get('time', '?')}, "
        f"commit {str(after.get('commit'))[:12]}. Speedup: before / after time (best runs), over {compared} kernels; "
        f"ratios to PoCL over {with_pocl}, each against its own run's PoCL. Noise: the larger of {100 * floor:.0f}% "
        "and either side's repeat spread (median / best - 1).", 120)
    lines += machine(before, after, floor)
    if not compared:
        lines.append("no kernel compared: the baseline has none of this run's kernels at the same size")
    elif flagged:
        lines += textwrap.wrap(f"SLOWER beyond noise, PoCL not: {', '.join(flagged)}", 120)
    else:
        lines.append("no kernel is slower beyond noise" + (" once PoCL's own slowdown is counted" if busy else ""))
    if busy:
        lines += textwrap.wrap(f"slower beyond noise, but PoCL slowed as much (a busier machine): {', '.join(busy)}", 120)
    if missing := left_out(before, after):
        lines += textwrap.wrap(f"{len(missing)} kernel(s) of the baseline not in this run: {', '.join(missing)}", 120)
    return lines
