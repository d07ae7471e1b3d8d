"""A pytest plugin that writes each test's outcome as one JSON line the moment it is known.

Loaded into the pytest that runs pyopencl's test files (`-p pyopencl_outcomes`, with this folder on
PYTHONPATH) with the record file in `PYOPENCL_OUTCOMES_FILE`. A line per event, flushed at once, so
when an implementation crashes or hangs the process, the record still holds every outcome before it
and names the test that was running (a "start" line with no outcome after it). junitxml would lose
them all.

Outcomes: passed, failed, error (setup, teardown or collection failed), skipped, xfailed, xpassed.
"""
from __future__ import annotations

import json
import os

_record = None


def pytest_configure(config):
    global _record
    path = os.environ.get("PYOPENCL_OUTCOMES_FILE")
    if path:
        _record = open(path, "a", encoding="utf-8")


def pytest_unconfigure(config):
    if _record is not None:
        _record.close()


def _write(**fields):
    if _record is not None:
        _record.write(json.dumps(fields) + "\n")
        _record.flush()


def pytest_runtest_logstart(nodeid, location):
    _write(id=nodeid, event="start")


def pytest_collectreport(report):
    if report.failed:
        _write(id=report.nodeid, event="outcome", outcome="error", when="collect",
               message=_message(report))


def pytest_runtest_logreport(report):
    outcome = _outcome(report)
    if outcome is not None:
        _write(id=report.nodeid, event="outcome", outcome=outcome, when=report.when,
               duration=round(report.duration, 4), message=_message(report))


def _outcome(report) -> str | None:
    """The test's outcome from this phase's report, or None when the phase decides nothing."""
    expected_failure = hasattr(report, "wasxfail")
    if report.when == "call":
        if expected_failure:
            return "xfailed" if report.skipped else "xpassed"
        return report.outcome
    if report.failed:
        return "error"
    if report.skipped and report.when == "setup":
        return "xfailed" if expected_failure else "skipped"
    return None


def _message(report) -> str:
    if report.skipped and isinstance(report.longrepr, tuple):
        return str(report.longrepr[2])[:300]
    if hasattr(report, "wasxfail"):
        return str(report.wasxfail)[:300]
    if report.failed:
        text = getattr(report, "longreprtext", "") or str(report.longrepr)
        return _first_line_of_last_error(text)[:300]
    return ""


def _first_line_of_last_error(text: str) -> str:
    """pytest marks an exception's lines with "E"; in a chain ("During handling of the above
    exception...") the last block is the one raised, and its first line names it."""
    blocks, previous_was_error = [], False
    for line in text.splitlines():
        is_error = line.startswith("E ")
        if is_error and not previous_was_error:
            blocks.append(line[1:].strip())
        previous_was_error = is_error
    return blocks[-1] if blocks else (text.strip().splitlines() or [""])[-1]
