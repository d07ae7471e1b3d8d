"""conformance/cts.py's gate: a test that passed on the baseline (PoCL) and fails on loomcl fails the
gate, unless known_failures.py names it or loomcl reports it not supported (an absent feature)."""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "conformance"))

import cts  # noqa: E402


def results(**tests):
    return {"test_api": {"tests": tests}}


def test_a_failure_of_what_passed_on_the_baseline_fails_the_gate():
    assert cts.gate(results(a="passed", b="passed"), results(a="passed", b="failed")) == 1
    assert cts.gate(results(a="passed"), results(a="timeout")) == 1


def test_absent_features_and_known_failures_do_not():
    assert cts.gate(results(a="passed", b="failed"), results(a="not supported", b="failed")) == 0
    known = {"test_buffers": {"tests": {"image_migrate": "passed"}}}
    assert cts.gate(known, {"test_buffers": {"tests": {"image_migrate": "failed"}}}) == 0


def test_the_recorded_baseline_has_pocls_results_for_every_quick_binary():
    import json

    recorded = json.loads((Path(cts.__file__).parent / "pocl_quick.json").read_text())["results"]["pocl"]
    assert {binary.name for binary in cts.BINARIES if binary.quick is not None} == set(recorded)
    assert all(recorded[name]["tests"] for name in recorded)
