"""Intel's runtime as the second anchor (both ratios per case and their geomeans; its vendor file shown
to the ICD loader beside the system's, or a one-line reason when absent) and `--contention`'s
slowdown table."""
import pytest

from loomcl.bench import contention, impls, report

from .helpers import make_limits, make_row

NAMES = ["loomcl", "PoCL", "Intel"]


def test_both_ratios_per_case_and_their_geomeans():
    rows = [make_row("a", {"loomcl": [1.0], "PoCL": [4.0], "Intel": [2.0]}),
            make_row("b", {"loomcl": [2.0], "PoCL": [4.0], "Intel": [1.0]})]
    text = report.summary(rows, NAMES, make_limits(), [])
    header = next(line for line in text.splitlines() if line.startswith("kernel"))
    assert "loomcl/PoCL" in header and "loomcl/Intel" in header
    line_a = next(line for line in text.splitlines() if line.startswith("a "))
    assert "4.00x" in line_a and "2.00x" in line_a
    assert "geometric mean loomcl/PoCL speed ratio: 2.83x over 2 kernels" in text
    assert "geometric mean loomcl/Intel speed ratio: 1.00x over 2 kernels" in text
    record = report.to_json(rows, NAMES, make_limits(), {}, [])
    assert record["rows"][1]["ratio_intel"]["loomcl"] == pytest.approx(0.5)
    assert "Intel" not in record["rows"][0]["ratio"]


def test_without_intel_there_is_no_intel_column():
    rows = [make_row("a", {"loomcl": [1.0], "PoCL": [4.0]})]
    text = report.summary(rows, ["loomcl", "PoCL"], make_limits(), [])
    assert "Intel" not in text


def test_intel_absent_says_why_in_one_line(tmp_path, monkeypatch):
    monkeypatch.setenv(impls.INTEL_ICD_ENV, str(tmp_path / "intel.icd"))
    reason = impls.open_intel()
    assert isinstance(reason, str) and "\n" not in reason
    assert reason.startswith("Intel not available: no vendor file") and "install_intel_opencl.sh" in reason


def test_the_loader_is_shown_the_system_vendors_and_intels(tmp_path, monkeypatch):
    system = tmp_path / "vendors"
    system.mkdir()
    (system / "pocl.icd").write_text("libpocl.so.2\n")
    intel = tmp_path / "intel.icd"
    intel.write_text("/somewhere/lib/libintelocl.so\n")
    monkeypatch.setattr(impls, "SYSTEM_VENDORS", system)
    monkeypatch.setenv(impls.INTEL_ICD_ENV, str(intel))
    monkeypatch.delenv("OCL_ICD_VENDORS", raising=False)
    impls.show_intel_to_the_loader()
    import os
    from pathlib import Path
    folder = Path(os.environ["OCL_ICD_VENDORS"])
    assert sorted(p.name for p in folder.iterdir()) == ["intel.icd", "pocl.icd"]
    assert (folder / "intel.icd").read_text() == "/somewhere/lib/libintelocl.so\n"
    monkeypatch.setenv("OCL_ICD_VENDORS", "/chosen")
    impls.show_intel_to_the_loader()  # the user's choice stands
    assert os.environ["OCL_ICD_VENDORS"] == "/chosen"


def test_contention_slowdowns_are_loaded_over_quiet_medians():
    quiet = [make_row("k", {"loomcl": [1.0, 2.0, 9.0], "PoCL": [2.0, 2.0, 2.0]})]
    loaded = [make_row("k", {"loomcl": [3.0, 4.0, 5.0], "PoCL": [10.0, 10.0, 1.0]})]
    table = contention.slowdowns(quiet, loaded, ["loomcl", "PoCL"])
    (row,) = table.values()
    assert row == {"loomcl": pytest.approx(2.0), "PoCL": pytest.approx(5.0)}
    text = contention.summary(table, ["loomcl", "PoCL"], 3)
    assert text.splitlines()[0].startswith("slowdown beside 3 busy processes")
    assert text.splitlines()[-1].split() == ["geomean", "2.00x", "5.00x"]


def test_background_processes_are_gone_after_the_block():
    with contention.Background(2) as busy:
        procs = list(busy._procs)
        assert all(p.poll() is None for p in procs)
    assert all(p.poll() is not None for p in procs)
