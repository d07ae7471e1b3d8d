"""The compile-time section of `loomcl bench` (`--compile`): each large program built cold and its
kernel launched once, on loomcl and on PoCL, each run in a fresh process (child.py), with loomcl's
time per compiler stage. The ratio is PoCL's build + first launch over loomcl's (above 1: loomcl is
faster to its first result); `cpu` is the same ratio of processor seconds (child.py), the steadier
figure on a loaded machine.
"""
from __future__ import annotations

import json
import math
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field

from .programs import LargeProgram, programs

IMPLEMENTATIONS = ("loomcl", "pocl")
LABELS = {"loomcl": "loomcl", "pocl": "PoCL"}
CHILD_TIMEOUT_S = 1800.0
STAGE_COLUMNS = ("frontend", "lowering", "transforms", "llvm-ir", "llvm")


@dataclass
class CompileRow:
    program: str
    results: dict[str, dict] = field(default_factory=dict)    # implementation -> the child's answer

    def total(self, kind: str) -> float | None:
        result = self.results.get(kind, {})
        if result.get("status") != "ok":
            return None
        return result["build_s"] + result["launch_s"]

    @property
    def ratio(self) -> float | None:
        ours, theirs = self.total("loomcl"), self.total("pocl")
        return theirs / ours if ours and theirs else None

    @property
    def cpu_ratio(self) -> float | None:
        ours, theirs = (self.results.get(kind, {}).get("cpu_s") for kind in ("loomcl", "pocl"))
        return theirs / ours if ours and theirs else None


def run_child(kind: str, program: LargeProgram, timeout: float = CHILD_TIMEOUT_S) -> dict:
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
        json.dump({"source": program.source, "options": program.options, "kernel": program.kernel}, f)
    try:
        done = subprocess.run([sys.executable, "-m", "loomcl.bench.compile_time.child", kind, f.name],
                              capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return {"status": "error", "reason": f"took longer than {timeout:g} s"}
    lines = [line for line in done.stdout.splitlines() if line.startswith("{")]
    if done.returncode != 0 or not lines:
        last = (done.stderr.strip().splitlines() or ["no output"])[-1]
        return {"status": "error", "reason": f"exit {done.returncode}: {last}"}
    return json.loads(lines[-1])


def run(quick: bool, kinds=IMPLEMENTATIONS, log=print) -> list[CompileRow]:
    rows = []
    for program in programs(quick):
        row = CompileRow(program.name)
        for kind in kinds:
            row.results[kind] = run_child(kind, program)
            log(f"[compile] {program.name} on {LABELS[kind]}: {_cell(row.results[kind])}")
        rows.append(row)
    return rows


def _cell(result: dict) -> str:
    if result.get("status") != "ok":
        return f"{result.get('status')} ({result.get('reason', '')})"
    return f"build {result['build_s']:.2f} s + first launch {result['launch_s']:.2f} s"


def summary(rows: list[CompileRow]) -> str:
    lines = ["Compile time: cold build + first launch, seconds (each in a fresh process, caches off)",
             f"{'program':24} {'loomcl':>8} {'launch':>7} {'PoCL':>8} {'launch':>7} {'ratio':>6} {'cpu':>6}   loomcl stages: "
             + " ".join(f"{s:>10}" for s in STAGE_COLUMNS)]
    for row in rows:
        cells = []
        for kind in IMPLEMENTATIONS:
            result = row.results.get(kind, {})
            if result.get("status") == "ok":
                cells += [f"{result['build_s']:8.2f}", f"{result['launch_s']:7.2f}"]
            else:
                cells += [f"{result.get('status', '-'):>8}", f"{'':7}"]
        ratio = f"{row.ratio:5.2f}x" if row.ratio else f"{'-':>6}"
        ratio += f" {row.cpu_ratio:5.2f}x" if row.cpu_ratio else f" {'-':>6}"
        stages = (row.results.get("loomcl", {}).get("stages") or {})
        stage_cells = " ".join(f"{stages[s]:10.2f}" if s in stages else f"{'-':>10}" for s in STAGE_COLUMNS)
        lines.append(f"{row.program:24} {' '.join(cells)} {ratio}   {'':15}{stage_cells}")
    for what, ratios in (("", [row.ratio for row in rows if row.ratio]),
                         (", processor time", [row.cpu_ratio for row in rows if row.cpu_ratio])):
        if ratios:
            geomean = math.exp(sum(math.log(r) for r in ratios) / len(ratios))
            lines.append(f"geometric mean of PoCL / loomcl (build + first launch{what}): {geomean:.2f}x "
                         f"over {len(ratios)}")
    for row in rows:
        for kind, result in row.results.items():
            if result.get("status") != "ok":
                lines.append(f"  {row.program} on {LABELS[kind]}: {result.get('status')}: {result.get('reason', '')}")
    return "\n".join(lines)


def to_json(rows: list[CompileRow]) -> dict:
    return {"rows": [{"program": row.program, "results": row.results, "ratio": row.ratio} for row in rows]}


def exit_status(rows: list[CompileRow]) -> int:
    """1 when loomcl failed on a program (PoCL's failures are PoCL's)."""
    return int(any(row.results.get("loomcl", {}).get("status") == "error" for row in rows))
