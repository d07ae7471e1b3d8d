"""Outcomes of pyopencl's tests on one implementation: read from the plugin's record, counted,
compared with a baseline, printed as a table.

Test ids are normalized before they are kept: pyopencl names each parametrization after the device
and platform (`test_x[<context factory for <pyopencl.Device 'pthread-...' on 'Portable Computing
Language'>>-float32]`), so the same test has a different id on PoCL and on loomcl. Normalized, both
read `test_x[ctx-float32]`, and a baseline's passing ids can be looked for in another run.
"""
from __future__ import annotations

import json
import re
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

OUTCOMES = ("passed", "failed", "error", "skipped", "xfailed", "xpassed")
FAILING = ("failed", "error")
_OPENCL_OBJECTS = [
    (re.compile(r"<context factory for <pyopencl\.Device '.*?' on '.*?'>>"), "ctx"),
    (re.compile(r"<pyopencl\.Device '.*?' on '.*?'(?: at 0x[0-9a-f]+)?>"), "device"),
    (re.compile(r"<pyopencl\.Platform '.*?'(?: at 0x[0-9a-f]+)?>"), "platform"),
]


def normalize_id(nodeid: str) -> str:
    for pattern, name in _OPENCL_OBJECTS:
        nodeid = pattern.sub(name, nodeid)
    return nodeid


@dataclass
class FileResult:
    """One test file's run: each test's outcome, and how the pytest process ended."""
    name: str
    status: str = "completed"       # or "timed out after N s", "crashed (SIGSEGV)", "exit status N"
    seconds: float = 0.0
    outcomes: dict[str, str] = field(default_factory=dict)
    messages: dict[str, str] = field(default_factory=dict)
    interrupted: dict[str, str] = field(default_factory=dict)   # a test that hung or killed its process -> how

    def counts(self) -> dict[str, int]:
        counted = Counter(self.outcomes.values())
        return {outcome: counted.get(outcome, 0) for outcome in OUTCOMES}

    def ids(self, outcomes: tuple[str, ...]) -> list[str]:
        return sorted(test for test, outcome in self.outcomes.items() if outcome in outcomes)

    def as_json(self) -> dict:
        return {"status": self.status, "seconds": round(self.seconds, 1), "counts": self.counts(),
                "interrupted": self.interrupted,
                "failing": {test: self.messages.get(test, "") for test in self.ids(FAILING)},
                "passing": self.ids(("passed", "xpassed"))}


def progress(record: Path) -> tuple[list[str], str | None]:
    """The raw ids of the tests with an outcome so far, and of the test started without one (the
    one running when the process stopped), or None."""
    done, running = [], None
    for event in _events(record):
        if event["event"] == "start":
            running = event["id"]
        else:
            done.append(event["id"])
            running = None if running == event["id"] else running
    return list(dict.fromkeys(done)), running


def read_record(result: FileResult, record: Path) -> None:
    """Fill `result` from the plugin's JSON lines; a failing phase outranks a passing one, and a
    test that was running when its process was stopped is an error (how it stopped, the message)."""
    for event in _events(record):
        test = normalize_id(event["id"])
        if event["event"] == "outcome" and result.outcomes.get(test) not in FAILING:
            result.outcomes[test] = event["outcome"]
            if event.get("message"):
                result.messages[test] = event["message"]
    for test, how in result.interrupted.items():
        result.outcomes[test], result.messages[test] = "error", how


def _events(record: Path) -> list[dict]:
    lines = record.read_text(encoding="utf-8").splitlines() if record.exists() else []
    return [json.loads(line) for line in lines]


def comparison(run: dict, baseline: dict, keep=lambda test: True) -> dict[str, dict]:
    """Per file of `run`: the baseline's passes (those `keep` accepts), how many of them pass in
    `run`, and those that do not."""
    compared = {}
    for name, entry in run["files"].items():
        expected = {test for test in baseline["files"].get(name, {}).get("passing", []) if keep(test)}
        lost = sorted(expected - set(entry["passing"]))
        compared[name] = {"baseline_passed": len(expected), "passed_of_baseline": len(expected) - len(lost),
                          "lost": lost}
    return compared


def table(files: dict[str, dict], examples: dict[str, dict]) -> str:
    header = f"{'file':<28}" + "".join(f"{o:>9}" for o in OUTCOMES) + f"{'seconds':>9}  status"
    rows = [header, "-" * len(header)]
    totals = Counter()
    for name, entry in files.items():
        totals.update(entry["counts"])
        rows.append(f"{name:<28}" + "".join(f"{entry['counts'][o]:>9}" for o in OUTCOMES)
                    + f"{entry['seconds']:>9.1f}  {entry['status']}")
    rows.append(f"{'total':<28}" + "".join(f"{totals[o]:>9}" for o in OUTCOMES))
    if examples:
        rows += ["", f"{'example':<36}{'seconds':>9}  outcome"]
        rows += [f"{name:<36}{entry['seconds']:>9.1f}  {entry['outcome']}"
                 + (f": {entry['reason']}" if entry.get("reason") else "")
                 for name, entry in examples.items()]
    return "\n".join(rows)


def comparison_table(compared: dict[str, dict]) -> str:
    rows = [f"{'file':<28}{'baseline passed':>16}{'passing here':>14}{'ratio':>8}"]
    for name, entry in compared.items():
        ratio = entry["passed_of_baseline"] / entry["baseline_passed"] if entry["baseline_passed"] else 1.0
        rows.append(f"{name:<28}{entry['baseline_passed']:>16}{entry['passed_of_baseline']:>14}{ratio:>8.1%}")
    return "\n".join(rows)
