"""Running one CTS binary on one OpenCL implementation, test by test, so that a hang never stalls
the gate.

A CTS binary lists its tests with `--list` and runs the tests named on its command line (in its own
order), printing "<test>..." before each and "<test> passed", "<test> FAILED" or "<test> test not
supported" (or "... skipped (requires ...)") after it. The runner starts the binary with every
selected test, reads its output as it comes, and when a test has not finished in `timeout` seconds
(or the binary dies) records the test it was in as a timeout (or crash) and starts the binary
again on the tests left.
OCL_ICD_VENDORS names the implementation's vendor file alone, so the loader sees nothing else.
"""
from __future__ import annotations

import fnmatch
import os
import re
import selectors
import subprocess
import time
from dataclasses import dataclass, field
from pathlib import Path

PASSED, FAILED, NOT_SUPPORTED = "passed", "failed", "not supported"
TIMEOUT, CRASHED = "timeout", "crashed"
# a result may follow other text on its line ("...for this type.vstore_local FAILED")
_RESULT = re.compile(r"(?:^|\W)(?P<name>\w+) (?:(?P<passed>passed)|(?P<failed>FAILED)"
                     r"|(?P<skipped>test not supported|skipped \(requires))")
NOT_REPORTED = "not reported"
_INIT = re.compile(r"^Test (?P<how>skipped|failed) while initialization")
_START = re.compile(r"^(?P<name>\S+)\.\.\.")


@dataclass
class Outcomes:
    """Each selected test's outcome, in the binary's order, and the output of every start."""

    tests: dict[str, str] = field(default_factory=dict)
    log: list[str] = field(default_factory=list)
    seconds: float = 0.0

    def count(self, *kinds: str) -> int:
        return sum(1 for outcome in self.tests.values() if outcome in kinds)


def listed_tests(binary: Path) -> list[str]:
    done = subprocess.run([str(binary), "--list"], capture_output=True, text=True, timeout=60)
    return [line.strip() for line in done.stdout.splitlines() if line.startswith("\t") and line.strip()]


def select(tests: list[str], patterns: list[str]) -> list[str]:
    """The listed tests matching any pattern (the CTS's own '*' wildcards), in list order."""
    if not patterns:
        return tests
    return [name for name in tests if any(fnmatch.fnmatchcase(name, pattern) for pattern in patterns)]


def run_binary(binary: Path, tests: list[str], options: list[str], vendor_file: Path, timeout: float,
               budget: float, log_file: Path, names_tests: bool = True) -> Outcomes:
    """Runs `tests` (each with `timeout` seconds; the whole within `budget`); what the budget leaves
    unrun is a timeout too. `names_tests` False: the command line names no test (the binary runs
    all of them)."""
    outcomes, left, started = Outcomes(), list(tests), time.monotonic()
    env = {**os.environ, "OCL_ICD_VENDORS": str(vendor_file), "CL_WIMPY_MODE": "1"}
    with open(log_file, "w") as log:
        while left:
            remaining = budget - (time.monotonic() - started)
            if remaining <= 0:
                outcomes.tests.update({name: TIMEOUT for name in left})
                log.write(f"\n[runner] the binary's time budget ({budget:.0f} s) is spent: "
                          f"{len(left)} tests not run\n")
                break
            ended, current = _one_start(binary, left, options, env, min(timeout, remaining), outcomes, log,
                                        names_tests)
            left = [name for name in left if name not in outcomes.tests]
            if left and not ended:  # the binary ended without a word about these: do not loop on them
                outcomes.tests.update({name: NOT_REPORTED for name in left})
                break
            if left and ended:
                blamed = current if current in left else left[0]
                outcomes.tests[blamed] = ended
                left.remove(blamed)
                log.write(f"\n[runner] {blamed}: {ended}; starting again on the {len(left)} tests left\n")
    outcomes.seconds = time.monotonic() - started
    return outcomes


def _one_start(binary: Path, tests: list[str], options: list[str], env: dict, timeout: float,
               outcomes: Outcomes, log, names_tests: bool = True) -> tuple[str | None, str | None]:
    """One start of the binary on `tests`: records what it reports; returns (None, _) when it ran
    to its end, else (TIMEOUT or CRASHED, the test it was in, if it said)."""
    log.write(f"\n[runner] {binary.name} {' '.join(options)} ({len(tests)} tests)\n")
    log.flush()
    process = subprocess.Popen([str(binary), *options, *(tests if names_tests else [])], stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT, env=env, cwd=binary.parent, start_new_session=True)
    watcher = selectors.DefaultSelector()
    watcher.register(process.stdout, selectors.EVENT_READ)
    last_event, pending, current = time.monotonic(), b"", None
    while True:
        if not watcher.select(timeout=max(0.0, timeout - (time.monotonic() - last_event))):
            _kill(process)
            return TIMEOUT, current
        chunk = os.read(process.stdout.fileno(), 65536)
        if not chunk:
            break
        log.write(chunk.decode(errors="replace"))
        pending += chunk
        *lines, pending = pending.split(b"\n")
        for line in lines:
            text = line.decode(errors="replace").strip()
            started = _START.match(text)
            if started and started["name"] in tests and started["name"] not in outcomes.tests:
                current, last_event = started["name"], time.monotonic()
            elif _record(text, tests, outcomes):
                last_event = time.monotonic()
    status = process.wait()
    if status < 0 or status > 128:
        return CRASHED, current
    return None, current


def _record(line: str, tests: list[str], outcomes: Outcomes) -> bool:
    found = next((m for m in _RESULT.finditer(line) if m["name"] in tests), None)  # " test passed: x passed"
    if found and found["name"] not in outcomes.tests:
        outcomes.tests[found["name"]] = (PASSED if found["passed"] else FAILED if found["failed"]
                                         else NOT_SUPPORTED)
        return True
    initial = _INIT.match(line)
    if initial:  # the suite's own set-up decided for every test
        kind = NOT_SUPPORTED if initial["how"] == "skipped" else FAILED
        outcomes.tests.update({name: kind for name in tests if name not in outcomes.tests})
        return True
    return False


def _kill(process: subprocess.Popen) -> None:
    try:
        os.killpg(process.pid, 9)
    except ProcessLookupError:
        pass
    process.wait()
