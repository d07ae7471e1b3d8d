"""The bench's ICD section at tiny sizes: every op agrees with numpy on every target that opens (loomcl's
API, pyopencl on loomcl's ICD, pyopencl on PoCL), the table and the JSON hold a positive time for each,
and a target that is missing or dies is reported, not fatal. No timing thresholds."""
from __future__ import annotations

import json
import math
import os
import subprocess
import sys

import numpy as np
import pytest

from loomcl.bench import command, icd_child, icd_report, icd_section, icd_worker
from loomcl.bench.icd_ops import OPS, Op, Ready, Session

TINY = (256,)

pytestmark = pytest.mark.slow  # the ICD section runs its targets in processes of their own: minutes


@pytest.fixture(scope="module")
def section():
    return icd_section.run(list(icd_section.TARGETS), TINY, rounds=1, batch_s=0.001)


def pyopencl_missing() -> bool:
    try:
        import pyopencl  # noqa: F401
    except ImportError:
        return True
    return False


def test_every_op_has_a_row_per_size(section):
    expected = [(op.name, n) for op in OPS for n in (TINY if op.sized else (None,))]
    assert [(row.op.name, row.n) for row in section.rows] == expected


def test_every_target_opened_or_says_why(section):
    assert "loomcl" in section.devices, section.unavailable
    for target in ("pyopencl→loomcl", "pyopencl→PoCL"):
        if target not in section.devices:
            assert any(line.startswith(f"{target} not available: ") for line in section.unavailable)
    if not pyopencl_missing():
        assert "pyopencl→loomcl" in section.devices, section.unavailable


def test_each_call_agrees_with_numpy_and_has_positive_times(section):
    for row in section.rows:
        assert set(row.cells) == {name for name in section.devices if row.op.array is False or name != "loomcl"}
        for name, cell in row.cells.items():
            assert cell.status == "ok", f"{row.op.name} on {name}: {cell.reason}"
            assert cell.us and all(t > 0 and math.isfinite(t) for t in cell.us)
        if row.n is not None:
            assert row.numpy_us > 0


def test_pyopencl_on_loomcl_calls_are_split_inside_and_outside_loomcl(section):
    if "pyopencl→loomcl" not in section.devices:
        pytest.skip("no pyopencl→loomcl")
    for row in section.rows:
        total, inside = row.split_us
        assert 0 < inside <= total and 0 < row.inside_share <= 1
    record = icd_report.to_json(section)
    assert all(row["icd_split"]["inside_loomcl_us"] > 0 for row in record["rows"])
    lines = icd_report.summary(section).splitlines()
    assert next(line for line in lines if line.startswith("operation")).endswith("in loomcl")
    for row in section.rows:
        (line,) = [line for line in lines if line.startswith(row.op.name + " ")]
        assert line.endswith(f"{100 * row.inside_share:.0f}%")


def test_the_table_shows_each_op_with_its_median_per_target(section):
    lines = icd_report.summary(section).splitlines()
    header = next(line for line in lines if line.startswith("operation"))
    for name in section.devices:
        assert f"{name} µs" in header
    for row in section.rows:
        (line,) = [line for line in lines if line.startswith(row.op.name + " ")]
        columns = line[len(row.op.name):].split()
        assert [f"{cell.median_us:.1f}" in columns for cell in row.cells.values()] == [True] * len(row.cells)
        ratio = icd_report.ratio(row)
        shown = [c for c in columns if c.endswith("x")]
        assert shown == ([] if ratio is None else [f"{ratio:.2f}x"]) and (ratio is None or ratio > 0)


def test_the_json_record_has_each_cell(section):
    record = json.loads(json.dumps(icd_report.to_json(section)))
    assert record["settings"]["sizes"] == list(TINY)
    assert len(record["rows"]) == len(section.rows)
    for row in record["rows"]:
        for result in row["results"].values():
            assert result["status"] == "ok" and result["median_us"] > 0 and result["calls"] >= 1
    if "pyopencl→PoCL" in section.devices:
        assert all(row["ratio"] > 0 for row in record["rows"])


def test_a_missing_icd_is_reported(monkeypatch):
    monkeypatch.setattr(icd_section, "vendor_file", lambda: (None, "no C compiler found (install gcc)"))
    done = icd_section.run(["icd"], TINY, rounds=1, batch_s=0.001)
    assert done.unavailable == ["pyopencl→loomcl not available: no ICD: no C compiler found (install gcc)"]
    assert done.devices == {} and done.rows == []


def test_a_worker_that_dies_costs_its_cells_only():
    children, devices, _ = icd_section.open_children(["loomcl"], None, lambda message: None)
    try:
        children["loomcl"]._process.kill()
        row = icd_section.measure(OPS[0], None, children, rounds=1, batch_s=0.001)
    finally:
        children["loomcl"].close()
    cell = row.cells["loomcl"]
    assert cell.status == "error" and "the process ended (killed by signal 9)" in cell.reason


def test_a_wrong_result_is_a_mismatch(monkeypatch):
    import loomcl as cl

    ctx = cl.Context([cl.get_platforms()[0].get_devices()[0]])
    wrong = Op("launch, checked against the wrong answer", OPS[1].setup, lambda a, b: np.zeros(64 * 64, np.int32),
               array=False)
    monkeypatch.setitem(icd_worker.BY_NAME, wrong.name, wrong)
    worker = icd_worker.Worker(Session(cl, ctx, cl.CommandQueue(ctx)))
    answer = worker.handle({"cmd": "prepare", "op": wrong.name, "n": 1})
    assert answer["status"] == "mismatch" and "4032 of 4096 elements differ" in answer["reason"]
    assert worker.handle({"cmd": "time", "op": wrong.name, "n": 1, "count": 2})["status"] == "ok"


def test_a_failing_call_is_an_error_with_its_reason(monkeypatch):
    def broken(session, a, b):
        return Ready(lambda: session.cl.Buffer(session.context, 0, -1), lambda result: result)
    op = Op("a call that raises", broken, lambda a, b: a, array=False)
    monkeypatch.setitem(icd_worker.BY_NAME, op.name, op)
    import loomcl as cl
    ctx = cl.Context([cl.get_platforms()[0].get_devices()[0]])
    answer = icd_worker.Worker(Session(cl, ctx, cl.CommandQueue(ctx))).handle({"cmd": "prepare", "op": op.name, "n": 1})
    assert answer["status"] == "error" and answer["reason"]


@pytest.mark.parametrize("argv, runs", [([], True), (["--no-icd"], False), (["--only", "icd"], True),
                                       (["--only", "copyBuffer"], False), (["--only", "stream,icd"], True)])
def test_which_runs_select_the_section(argv, runs):
    assert command.icd_selected(command.parser().parse_args(argv)) is runs


def test_bench_only_icd_prints_the_section_and_writes_it_to_json(tmp_path):
    out = tmp_path / "bench.json"
    done = subprocess.run([sys.executable, "-m", "loomcl", "bench", "--only", "icd", "--quick", "--repeat", "1",
                           "--no-pocl", "--json", str(out)], capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    assert "through the ICD: median µs per call" in done.stdout
    record = json.loads(out.read_text())
    assert "rows" not in record and record["icd"]["rows"]
    assert all("pyopencl→PoCL" not in row["results"] for row in record["icd"]["rows"])
    assert record["icd"]["rows"][0]["results"]["loomcl"]["median_us"] > 0


def test_pyopencl_that_does_not_import_is_reported(tmp_path, monkeypatch):
    (tmp_path / "pyopencl").mkdir()
    (tmp_path / "pyopencl" / "__init__.py").write_text("raise ImportError('no pyopencl in this test')\n")
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join([str(tmp_path), os.environ.get("PYTHONPATH", "")]))
    done = icd_section.run(["loomcl", "icd", "pocl"], TINY, rounds=1, batch_s=0.001)
    assert list(done.devices) == ["loomcl"]
    assert [line.split(" (")[0] for line in done.unavailable] == [
        "pyopencl→loomcl not available: pyopencl does not import", "pyopencl→PoCL not available: pyopencl does not import"]
    assert all(row.cells == {} for row in done.rows if row.op.array)
    assert all(row.cells["loomcl"].ok for row in done.rows if not row.op.array)


def test_the_targets_see_the_right_vendors(monkeypatch, tmp_path):
    vendor = tmp_path / "loomcl.icd"
    monkeypatch.setenv("OCL_ICD_VENDORS", str(vendor))     # a shell set up as the README says
    assert icd_child.target_env("icd", vendor, 2)["OCL_ICD_VENDORS"] == str(vendor)
    assert icd_child.target_env("icd", vendor, 2)["LOOMCL_THREADS"] == "2"
    assert "OCL_ICD_VENDORS" not in icd_child.target_env("pocl", vendor, None)
    monkeypatch.setenv("OCL_ICD_VENDORS", "/opt/vendors")
    assert icd_child.target_env("pocl", vendor, None)["OCL_ICD_VENDORS"] == "/opt/vendors"


@pytest.mark.parametrize("op", [op for op in OPS if op.numpy], ids=lambda op: op.name)
def test_the_numpy_column_times_the_same_computation(op):
    from loomcl.bench.icd_ops import inputs
    from loomcl.bench.runner import compare

    a, b = inputs(1000)
    out = np.empty_like(a)
    got = op.numpy(a, b, out)
    agreement = compare(op.name, np.atleast_1d(out if got is None else got), op.reference(a, b), op.tolerance)
    assert agreement.ok, agreement.message


def test_pocl_is_found_from_a_shell_set_up_for_pyopencl_on_loomcl(tmp_path):
    """The README's `export OCL_ICD_VENDORS=...loomcl.icd` must not hide PoCL from the bench's comparison;
    another vendors setting is the user's choice and is kept."""
    pytest.importorskip("pyopencl")
    script = "from loomcl.bench import impls; impl = impls.open_pocl(); print(getattr(impl, 'name', impl))"

    def pocl_with(vendors: str) -> str:
        done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=300,
                              env={k: v for k, v in os.environ.items() if k != "OCL_ICD_VENDORS"}
                              | ({"OCL_ICD_VENDORS": vendors} if vendors else {}))
        return done.stdout.strip()

    if pocl_with("") != "PoCL":
        pytest.skip("no PoCL on this machine")
    assert pocl_with(str(tmp_path / "loomcl.icd")) == "PoCL"
    assert pocl_with(str(tmp_path / "other.icd")).startswith("PoCL not available: ")
