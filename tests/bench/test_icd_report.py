"""The ICD section's table and JSON from made-up cells (no processes, no OpenCL)."""
import json

import pytest

from loomcl.bench import icd_report
from loomcl.bench.icd_ops import BY_NAME
from loomcl.bench.icd_section import Cell, IcdRow, IcdSection

ICD, POCL = "pyopencl→loomcl", "pyopencl→PoCL"
LAUNCH, ADD = BY_NAME["launch: empty kernel, 1 work-item"], BY_NAME["x + y"]


def section(rows, devices=("loomcl", ICD, POCL), unavailable=()):
    return IcdSection({name: "CPU" for name in devices}, list(unavailable), rows, {"sizes": [1024, 1 << 20]})


def test_the_ratio_is_pocl_over_loomcls_icd():
    row = IcdRow(ADD, 1024, {ICD: Cell("ok", us=[10.0, 20.0, 30.0]), POCL: Cell("ok", us=[40.0])})
    assert icd_report.ratio(row) == pytest.approx(2.0)
    assert icd_report.ratio(IcdRow(ADD, 1024, {ICD: Cell("ok", us=[10.0])})) is None
    assert icd_report.ratio(IcdRow(ADD, 1024, {ICD: Cell("mismatch", "wrong"), POCL: Cell("ok", us=[4.0])})) is None


@pytest.mark.parametrize("n, label", [(None, "-"), (1024, "1K"), (1 << 20, "1M"), (3 << 20, "3M"), (1000, "1000")])
def test_size_labels(n, label):
    assert icd_report.size_label(n) == label


def test_a_failed_cell_shows_its_status_never_a_time_and_is_explained_below():
    rows = [IcdRow(ADD, 1024, {ICD: Cell("mismatch", "x + y: 3 of 1024 elements differ"),
                               POCL: Cell("error", "LogicError: boom")}, numpy_us=0.5)]
    text = icd_report.summary(section(rows, unavailable=["loomcl not available: no compiler"]))
    (line,) = [line for line in text.splitlines() if line.startswith("x + y ") and " on " not in line]
    assert line.split()[3:] == ["1K", "MISMATCH", "ERROR", "0.5"]
    assert "x + y (1K) on pyopencl→loomcl: mismatch: x + y: 3 of 1024 elements differ" in text
    assert "x + y (1K) on pyopencl→PoCL: error: LogicError: boom" in text
    assert "loomcl not available: no compiler" in text


def test_geometric_means_by_group_and_the_share_inside_loomcl():
    rows = [IcdRow(LAUNCH, None, {"loomcl": Cell("ok", us=[2.0]), ICD: Cell("ok", us=[10.0]), POCL: Cell("ok", us=[40.0])},
                   split_us=(10.0, 7.0)),
            IcdRow(ADD, 1024, {ICD: Cell("ok", us=[50.0]), POCL: Cell("ok", us=[25.0])}, numpy_us=1.0, split_us=(50.0, 30.0)),
            IcdRow(ADD, 1 << 20, {ICD: Cell("ok", us=[100.0]), POCL: Cell("ok", us=[800.0])}, numpy_us=90.0)]
    done = section(rows)
    assert icd_report.geomeans(done) == pytest.approx({"launch": 4.0, "arrays 1K": 0.5, "arrays 1M": 8.0})
    text = icd_report.summary(done)
    assert text.splitlines()[-3:] == ["geometric mean loomcl ICD/PoCL speed ratio, launch: 4.00x",
                                      "geometric mean loomcl ICD/PoCL speed ratio, arrays 1K: 0.50x",
                                      "geometric mean loomcl ICD/PoCL speed ratio, arrays 1M: 8.00x"]
    launch_line = next(line for line in text.splitlines() if line.startswith(LAUNCH.name))
    assert launch_line.split()[-5:] == ["2.0", "10.0", "40.0", "4.00x", "70%"]
    record = json.loads(json.dumps(icd_report.to_json(done)))
    assert record["rows"][1]["icd_split"] == {"call_us": 50.0, "inside_loomcl_us": 30.0}
    assert record["rows"][2]["icd_split"] is None and record["rows"][2]["ratio"] == 8.0
    assert record["rows"][0]["results"]["loomcl"] == {"status": "ok", "reason": "", "median_us": 2.0,
                                                      "min_us": 2.0, "calls": 1}


def test_a_column_for_a_target_that_did_not_open_is_left_out():
    rows = [IcdRow(LAUNCH, None, {"loomcl": Cell("ok", us=[2.0])})]
    header = icd_report.table(section(rows, devices=("loomcl",))).splitlines()[0]
    assert "loomcl µs" in header and "PoCL" not in header.replace("ICD/PoCL", "") and "in loomcl" not in header


def test_a_section_where_nothing_opened_says_so_and_why():
    text = icd_report.summary(section([], devices=(), unavailable=["pyopencl→PoCL not available: no PoCL"]))
    assert text == "through the ICD: nothing ran\npyopencl→PoCL not available: no PoCL"
