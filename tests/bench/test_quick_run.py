"""`loomcl bench --quick`, the CI smoke test of the whole instrument: every kernel loomcl can build runs,
agrees with numpy (a mismatch exits non-zero), and lands in the JSON with a time; kernels that need
language features loomcl lacks are listed as skipped with the build log's reason; the ICD section's
calls through pyopencl agree with numpy and have times."""
from __future__ import annotations

import json
import subprocess
import sys

import pytest

pytestmark = pytest.mark.slow  # a bench smoke run: the slow tier


def test_quick_suite_runs_and_agrees(tmp_path):
    out = tmp_path / "bench.json"
    done = subprocess.run([sys.executable, "-m", "loomcl", "bench", "--quick", "--json", str(out)],
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    assert "geometric mean" in done.stdout or "PoCL not available" in done.stdout + done.stderr
    report = json.loads(out.read_text())
    rows = report["rows"]
    assert len(rows) >= 22
    loomcl = [row["results"]["loomcl"] for row in rows]
    assert {r["status"] for r in loomcl} <= {"ok", "skipped"}
    timed = [r for r in loomcl if r["status"] == "ok"]
    assert len(timed) >= 22 and all(r["min_ms"] > 0 and r["max_error"] is not None for r in timed)
    assert all("not supported" in r["reason"] for r in loomcl if r["status"] == "skipped")
    icd = report["icd"]        # the ICD section runs by default, each call checked against numpy
    cells = [r for row in icd["rows"] for r in row["results"].values()]
    assert "through the ICD" in done.stdout and cells
    assert all(r["status"] == "ok" and r["median_us"] > 0 for r in cells), icd["rows"]
