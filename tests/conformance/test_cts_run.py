"""conformance/cts_run.py: a CTS binary's tests run one after another under a time limit; a test
that hangs or kills the binary is recorded, and the binary starts again on the tests after it.
The binary here is a stand-in script that speaks the CTS harness's output."""
import os
import stat
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "conformance"))

import cts_run  # noqa: E402

FAKE_HARNESS = """#!/bin/sh
if [ "$1" = "--list" ]; then
    printf 'Test names:\\n\\tgood\\n\\tbad\\n\\thangs\\n\\tcrashes\\n\\tabsent\\n\\tlast\\n'; exit 0
fi
for name in last absent crashes hangs bad good; do  # its own order, as the CTS harness has
    case " $* " in *" $name "*) ;; *) continue;; esac
    echo "$name..."
    case $name in
        good) echo "$name passed";;
        last) echo " test passed: $name passed";;
        bad) echo "ERROR: something"; printf 'skipping the rest.'; echo "$name FAILED";;
        hangs) sleep 30;;
        crashes) kill -SEGV $$;;
        absent) echo "$name test not supported";;
    esac
done
"""


def fake_binary(tmp_path) -> Path:
    binary = tmp_path / "test_fake"
    binary.write_text(FAKE_HARNESS)
    binary.chmod(binary.stat().st_mode | stat.S_IEXEC)
    return binary


def test_every_outcome_is_recorded_and_a_hang_or_crash_costs_one_test(tmp_path):
    binary = fake_binary(tmp_path)
    tests = cts_run.listed_tests(binary)
    assert tests == ["good", "bad", "hangs", "crashes", "absent", "last"]
    outcomes = cts_run.run_binary(binary, tests, [], Path(os.devnull), timeout=2, budget=60,
                                  log_file=tmp_path / "log")
    assert outcomes.tests == {"good": "passed", "bad": "failed", "hangs": "timeout", "crashes": "crashed",
                              "absent": "not supported", "last": "passed"}
    assert "[runner] hangs: timeout" in (tmp_path / "log").read_text()


def test_a_spent_budget_leaves_the_rest_as_timeouts(tmp_path):
    binary = fake_binary(tmp_path)
    outcomes = cts_run.run_binary(binary, ["good", "hangs", "last"], [], Path(os.devnull), timeout=3, budget=1,
                                  log_file=tmp_path / "log")
    assert outcomes.tests == {"last": "passed", "hangs": "timeout", "good": "timeout"}


def test_wildcards_select_in_list_order():
    tests = ["integer_add", "quick_mul", "long_math", "integer_sub"]
    assert cts_run.select(tests, ["integer_*", "quick_*"]) == ["integer_add", "quick_mul", "integer_sub"]
    assert cts_run.select(tests, []) == tests


def test_a_test_the_binary_never_reports_is_recorded_once(tmp_path):
    binary = fake_binary(tmp_path)
    outcomes = cts_run.run_binary(binary, ["good", "unknown"], [], Path(os.devnull), timeout=5, budget=60,
                                  log_file=tmp_path / "log")
    assert outcomes.tests == {"good": "passed", "unknown": "not reported"}
