"""`loomcl bench --ablation` on one small case: every technique config runs and agrees with numpy, the
ablation table and JSON section have every technique, and --baseline flags a slower kernel."""
from __future__ import annotations

import json
import subprocess
import sys

import numpy as np
import pytest

from loomcl.bench import configs
from loomcl.bench.suite import select

from .helpers import make_record

pytestmark = pytest.mark.slow  # a bench smoke run: the slow tier


def test_ablation_runs_every_technique_and_compares_with_a_baseline(tmp_path):
    (saxpy,) = select("saxpy")
    size = saxpy.setup(saxpy.quick, np.random.default_rng(0)).size
    baseline = make_record({"saxpy": {"loomcl": [1e-6]}})      # far faster than any real run
    baseline["rows"][0]["size"] = size
    (tmp_path / "before.json").write_text(json.dumps(baseline))
    out = tmp_path / "after.json"
    done = subprocess.run([sys.executable, "-m", "loomcl", "bench", "--quick", "--only", "saxpy", "--ablation",
                           "--repeat", "2", "--no-icd", "--no-pocl", "--json", str(out),
                           "--baseline", str(tmp_path / "before.json")],
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    record = json.loads(out.read_text())
    names = [c.name for c in configs.techniques()]
    (row,) = record["rows"]
    for config in ["default", *names]:
        result = row["results"][configs.CONFIGS[config].label]
        assert result["status"] == "ok" and result["max_error"] is not None and len(result["runs_ms"]) == 2
    assert set(record["ablation"]["techniques"]) == set(names)
    assert all(t["slowdown"]["saxpy"] > 0 for t in record["ablation"]["techniques"].values())
    table = done.stdout.split("ablation: ")[1]
    assert table.splitlines()[1].split()[:2] == ["kernel", "all"]
    cells = [line.split()[2:] for line in table.split("\nall on:")[0].splitlines()
             if line.startswith("saxpy")]                                 # one row per block
    assert sum(map(len, cells)) == len(names)                            # a cell per technique
    assert "SLOWER beyond noise, PoCL not: saxpy" in done.stdout
    assert "loomcl[" not in done.stdout.split("ablation: ")[0].split("\n\n")[1]   # the main table: loomcl alone
