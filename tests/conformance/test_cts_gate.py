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


def test_absent_features_and_known_failures_do_not(monkeypatch):
    assert cts.gate(results(a="passed", b="failed"), results(a="not supported", b="failed")) == 0
    monkeypatch.setattr(cts, "KNOWN_FAILURES", {("test_api", "a"): "a language gap"})
    assert cts.gate(results(a="passed"), results(a="failed")) == 0


def test_a_gate_that_cannot_fetch_or_build_the_cts_answers_2(tmp_path, capsys):
    """CI skips the CTS step on status 2 (no git, cmake or network); 1 is kept for a regression."""
    baseline = Path(cts.__file__).parent / "pocl_quick.json"
    status = cts.main(["--source", str(tmp_path), "--work", str(tmp_path / "work"), "--quick",
                       "--binaries", "test_events", "--vendors", "loomcl", "--baseline", str(baseline)])
    assert status == 2
    assert f"{tmp_path / 'OpenCL-CTS'} does not exist" in capsys.readouterr().err


def test_the_recorded_baseline_has_pocls_results_for_every_quick_binary():
    import json

    recorded = json.loads((Path(cts.__file__).parent / "pocl_quick.json").read_text())["results"]["pocl"]
    assert {binary.name for binary in cts.BINARIES if binary.quick is not None} == set(recorded)
    assert all(recorded[name]["tests"] for name in recorded)
