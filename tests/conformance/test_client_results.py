"""conformance/clients.py and loopy_suite.py read the clients' results: pytest's -v lines (the device's
name taken out of a test's id, so two vendors' ids compare), and piglit's results, whole or cut off."""
import bz2
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "conformance"))

import clients  # noqa: E402
from loopy_suite import outcomes  # noqa: E402


def test_loopy_outcomes_drop_the_device_from_the_id():
    output = ("[gw0] [  5%] PASSED test_reduction.py::test_simple_reduction[<context factory for "
              "<pyopencl.Device 'cpu' on 'Portable Computing Language'>>] \n"
              "[gw1] [  6%] FAILED test_statistics.py::test_op_counter_basic \n"
              "test_loopy.py::test_x SKIPPED (no double)\n")
    assert outcomes(output) == {"test_reduction.py::test_simple_reduction[CTX]": "PASSED",
                                "test_statistics.py::test_op_counter_basic": "FAILED",
                                "test_loopy.py::test_x": "SKIPPED"}


def test_piglit_final_results_are_read_compressed(tmp_path):
    final = {"tests": {"api@clgetplatformids": {"result": "pass"}, "program@execute@x": {"result": "fail"}}}
    with bz2.open(tmp_path / "results.json.bz2", "wt") as text:
        json.dump(final, text)
    assert clients._piglit_results(tmp_path) == {"api@clgetplatformids": "pass", "program@execute@x": "fail"}


def test_piglit_cut_off_run_keeps_the_finished_tests(tmp_path):
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "0.json").write_text(json.dumps({"api@a": {"result": "pass"}}))
    (tmp_path / "tests" / "1.json").write_text('{"api@b": {"res')   # being written when the run stopped
    assert clients._piglit_results(tmp_path) == {"api@a": "pass"}
