"""Running one CTS binary on one OpenCL implementation, test by test, so that a hang never stalls
the gate.

A CTS binary lists its tests with `--list` and runs the tests named on its command line in that
list's order, printing "<test> passed", "<test> FAILED" or "<test> test not supported" (or "...
skipped (requires ...)") after each. The runner starts the binary with every selected test, reads
its output as it comes, and when no test has finished for `timeout` seconds (or the binary dies)
records the test it was in as a timeout (or crash) and starts the binary again on the tests left.
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
_RESULT = re.compile(r"^(?P<name>\S+) (?:(?P<passed>passed)|(?P<failed>FAILED)"
                     r"|(?P<skipped>test not supported|skipped \(requires))")
_INIT = re.compile(r"^Test (?P<how>skipped|failed) while initialization")


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
               budget: float, log_file: Path) -> Outcomes:
    """Runs `tests` (each with `timeout` seconds; the whole within `budget`); what the budget leaves
    unrun is a timeout too."""
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
            ended = _one_start(binary, left, options, env, min(timeout, remaining), outcomes, log)
            left = [name for name in left if name not in outcomes.tests]
            if left and ended:
                outcomes.tests[left[0]] = ended
                log.write(f"\n[runner] {left[0]}: {ended}; starting again on the {len(left) - 1} tests after it\n")
                left = left[1:]
    outcomes.seconds = time.monotonic() - started
    return outcomes


def _one_start(binary: Path, tests: list[str], options: list[str], env: dict, timeout: float,
               outcomes: Outcomes, log) -> str | None:
    """One start of the binary on `tests`: records what it reports; returns None when it ran to
    its end, else TIMEOUT or CRASHED (for the test it was in)."""
    log.write(f"\n[runner] {binary.name} {' '.join(options)} ({len(tests)} tests)\n")
    log.flush()
    process = subprocess.Popen([str(binary), *options, *tests], stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT, env=env, cwd=binary.parent, start_new_session=True)
    watcher = selectors.DefaultSelector()
    watcher.register(process.stdout, selectors.EVENT_READ)
    last_result, pending = time.monotonic(), b""
    while True:
        if not watcher.select(timeout=max(0.0, timeout - (time.monotonic() - last_result))):
            _kill(process)
            return TIMEOUT
        chunk = os.read(process.stdout.fileno(), 65536)
        if not chunk:
            break
        log.write(chunk.decode(errors="replace"))
        pending += chunk
        *lines, pending = pending.split(b"\n")
        for line in lines:
            if _record(line.decode(errors="replace").strip(), tests, outcomes):
                last_result = time.monotonic()
    status = process.wait()
    if status < 0 or status > 128:
        return CRASHED
    return None


def _record(line: str, tests: list[str], outcomes: Outcomes) -> bool:
    found = _RESULT.match(line)
    if found and found["name"] in tests and found["name"] not in outcomes.tests:
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
