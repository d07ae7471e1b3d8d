"""Report: geometric mean, table, JSON record."""
import json
import math

import pytest

from loomcl.bench import report

from .helpers import make_limits, make_row

NAMES = ["loomcl", "PoCL"]


def test_geomean():
    assert report.geomean([2.0, 8.0]) == pytest.approx(4.0)
    assert report.geomean([1.0, None, 4.0]) == pytest.approx(2.0)
    assert report.geomean([]) is None
    assert report.geomean([None, 0.0]) is None


def test_speed_ratio_is_pocl_time_over_loomcl_time_of_the_minima():
    row = make_row("k", {"loomcl": [2.0, 1.0], "PoCL": [4.0, 3.0]})
    assert report.speed_ratio(row, "loomcl") == pytest.approx(3.0)
    assert report.speed_ratio(make_row("k", {"loomcl": "skipped", "PoCL": [1.0]}), "loomcl") is None


def test_rate_picks_bandwidth_or_flops_by_the_ridge_point():
    limits = make_limits()      # ridge: 100 GFLOP/s / 20 GB/s = 5 flop/byte
    memory = make_row("m", {"PoCL": [1.0]}, bytes_=10e6, flops=1e6)
    assert report.rate(memory, 1.0, limits) == "10.0 GB/s 50%"
    compute = make_row("c", {"PoCL": [1.0]}, bytes_=1e6, flops=50e6)
    assert report.rate(compute, 1.0, limits) == "50.0 GFLOP/s 50%"
    pixels = make_row("p", {"PoCL": [1.0]}, bytes_=10e6, rate=("MP/s", 2e6))
    assert report.rate(pixels, 1.0, limits).endswith("2000 MP/s")


def test_table_shows_statuses_never_a_time_for_a_mismatch():
    rows = [make_row("good", {"loomcl": [1.0], "PoCL": [2.0]}),
            make_row("wrong", {"loomcl": "mismatch", "PoCL": [2.0]}),
            make_row("missing", {"loomcl": "skipped", "PoCL": [2.0]})]
    text = report.table(rows, NAMES, make_limits())
    lines = text.splitlines()
    assert lines[0].split()[:4] == ["kernel", "size", "loomcl", "ms"]
    assert set(lines[1]) <= {"-", " "}
    good, wrong, missing = lines[2:]
    assert "1.00" in good and "2.00x" in good
    assert "MISMATCH" in wrong and "x " not in wrong.split("MISMATCH")[1].split("GB/s")[0]
    assert "skipped" in missing
    assert len({len(line) for line in lines[:2]}) == 1


def test_summary_has_geomean_and_problem_lines():
    rows = [make_row("a", {"loomcl": [1.0], "PoCL": [2.0]}), make_row("b", {"loomcl": [4.0], "PoCL": [2.0]}),
            make_row("c", {"loomcl": "skipped", "PoCL": [2.0]})]
    text = report.summary(rows, NAMES, make_limits(), [])
    assert "geometric mean loomcl/PoCL speed ratio: 1.00x over 2 kernels" in text
    assert "c on loomcl: skipped: because" in text


def test_json_record_schema(tmp_path):
    rows = [make_row("a", {"loomcl": [1.0, 3.0, 2.0], "PoCL": [2.0]}), make_row("b", {"loomcl": "mismatch", "PoCL": [1.0]})]
    record = report.to_json(rows, NAMES, make_limits(), {"quick": True}, ["x not available"])
    path = tmp_path / "out.json"
    report.write_json(path, record)
    loaded = json.loads(path.read_text())
    assert loaded["schema"] == report.SCHEMA
    assert {"time", "commit", "host", "settings", "implementations", "unavailable", "machine", "rows",
            "geomean_ratio"} <= set(loaded)
    assert loaded["machine"]["copy_gbs"] == 20.0 and loaded["machine"]["peak_gflops"] == 100.0
    a, b = loaded["rows"]
    assert {"name", "family", "seed", "size", "bytes", "flops", "numpy_ms", "results", "ratio"} <= set(a)
    assert a["results"]["loomcl"]["min_ms"] == 1.0 and a["results"]["loomcl"]["median_ms"] == 2.0
    assert a["ratio"]["loomcl"] == 2.0
    assert b["results"]["loomcl"]["status"] == "mismatch" and "min_ms" not in b["results"]["loomcl"]
    assert b["ratio"]["loomcl"] is None
    assert math.isclose(loaded["geomean_ratio"]["loomcl"], 2.0)


def test_the_table_explains_its_columns():
    text = report.summary([], NAMES, make_limits(), [])
    assert "ms: the best of the timed runs of one launch to its end; NAME/PoCL: PoCL's time / NAME's" in text


def test_a_native_probe_below_an_opencl_kernel_is_explained():
    limits = make_limits()
    limits.fma_gflops = {"native probe": 50.0, "loomcl": 80.0}
    assert "(the native probe read below loomcl's fma kernel" in report.summary([], NAMES, limits, [])
    limits.fma_gflops = {"native probe": 90.0, "loomcl": 80.0}
    assert "native probe read below" not in report.summary([], NAMES, limits, [])
