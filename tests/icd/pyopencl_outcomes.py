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
        errors = [line[1:].strip() for line in text.splitlines() if line.startswith("E ")]
        lines = errors or text.strip().splitlines()[-1:]   # the exception's first line says most
        return lines[0][:300] if lines else ""
    return ""
