"""--baseline: this run beside an earlier record; slowdowns beyond noise are flagged, noise is not."""
import json

import pytest

from loomcl.bench import noise, report_baseline

from .helpers import make_record


def test_the_comparison_for_a_small_record():
    before = make_record({"saxpy": {"loomcl": [2.0, 2.0, 2.1], "PoCL": [4.0, 4.0, 4.0]},
                          "scan": {"loomcl": [10.0, 10.0, 10.0], "PoCL": [20.0, 20.0, 20.0]},
                          "gone": {"loomcl": [1.0], "PoCL": [1.0]}})
    after = make_record({"saxpy": {"loomcl": [1.0, 1.0, 1.0], "PoCL": [4.0, 4.0, 4.0]},
                         "scan": {"loomcl": [13.0, 13.0, 13.0], "PoCL": [20.0, 20.0, 20.0]},
                         "new": {"loomcl": [5.0], "PoCL": [10.0]}})
    assert report_baseline.comparison(before, after) == "\n".join([
        "kernel   before ms  after ms  speedup  noise  PoCL ms  before/PoCL  after/PoCL  verdict",
        "-------  ---------  --------  -------  -----  -------  -----------  ----------  -------------------",
        "saxpy         2.00      1.00    2.00x   ±10%     4.00        2.00x       4.00x  faster",
        "scan         10.00     13.00    0.77x   ±10%    20.00        2.00x       1.54x  SLOWER",
        "new                     5.00                    10.00                    2.00x  not in the baseline",
        "-------  ---------  --------  -------  -----  -------  -----------  ----------  -------------------",
        "geomean                         1.24x                        2.00x       2.48x",
        "before: 2026-11-24T05:00:00+0000, commit 0123456789ab; after: 2026-11-24T05:00:00+0000, commit "
        "0123456789ab. Speedup:",
        "before / after time (best runs), over 2 kernels; ratios to PoCL over 2, each against its own run's PoCL. "
        "Noise: the",
        "larger of 10% and either side's repeat spread (median / best - 1).",
        "SLOWER beyond noise, PoCL not: scan",
        "1 kernel(s) of the baseline not in this run: gone",
    ])


def verdict(before_runs, after_runs, pocl_before=(4.0,), pocl_after=(4.0,), floor=0.10):
    before = make_record({"k": {"loomcl": list(before_runs), "PoCL": list(pocl_before)}})
    after = make_record({"k": {"loomcl": list(after_runs), "PoCL": list(pocl_after)}})
    return report_baseline.judge(before["rows"][0], after["rows"][0], floor)[2]


def test_a_slowdown_is_flagged_and_noise_is_not():
    assert verdict([1.0, 1.0, 1.0], [1.3, 1.3, 1.3]) == "SLOWER"
    assert verdict([1.0, 1.0, 1.0], [1.08, 1.08, 1.08]) == ""                  # within the 10% floor
    assert verdict([1.0, 1.4, 1.4], [1.3, 1.3, 1.3]) == ""                     # the baseline's runs scatter 40%
    assert verdict([1.0, 1.0, 1.0], [1.3, 1.3, 1.3], floor=0.5) == ""
    assert verdict([1.0, 1.0, 1.0], [1.3, 1.3, 1.3], pocl_after=(5.2,)) == "slower, PoCL too"
    assert verdict([1.0, 1.0, 1.0], [0.7, 0.7, 0.7]) == "faster"


def test_rows_of_other_sizes_or_without_times_are_not_compared():
    before = make_record({"a": {"loomcl": [1.0]}, "b": {"loomcl": "mismatch"}})
    after = make_record({"a": {"loomcl": [9.0]}, "b": {"loomcl": [1.0]}})
    after["rows"][0]["size"] = "64K"
    text = report_baseline.comparison(before, after)
    assert "size 64K, was 1M" in text and "SLOWER" not in text
    assert text.splitlines()[3].split() == ["b", "MISMATCH", "1.00"]
    assert report_baseline.judge(before["rows"][1], after["rows"][1], 0.1) is None


def test_noise_is_the_floor_or_the_spread():
    assert noise.noise([{"status": "ok", "min_ms": 1.0, "median_ms": 1.05}], 0.10) == 0.10
    assert noise.noise([{"status": "ok", "min_ms": 1.0, "median_ms": 1.25}], 0.10) == pytest.approx(0.25)
    assert noise.verdict(1.2, 0.1) == 1 and noise.verdict(1 / 1.2, 0.1) == -1 and noise.verdict(1.05, 0.1) == 0


def test_load_accepts_a_record_and_says_what_is_wrong_otherwise(tmp_path):
    good = tmp_path / "good.json"
    good.write_text(json.dumps(make_record({"a": {"loomcl": [1.0]}})))
    assert report_baseline.load(good)["rows"][0]["name"] == "a"
    bad = tmp_path / "bad.json"
    bad.write_text('{"rows": []}')
    with pytest.raises(ValueError, match="not a `loomcl bench --json` record"):
        report_baseline.load(bad)
    with pytest.raises(ValueError, match="cannot read"):
        report_baseline.load(tmp_path / "missing.json")


def test_record_prints_the_tables_of_a_saved_run_without_running(tmp_path, capsys):
    from loomcl.bench import command
    before = make_record({"k": {"loomcl": [1.0], "PoCL": [2.0]}})
    after = make_record({"k": {"loomcl": [2.0], "loomcl[novec]": [3.0], "PoCL": [2.0]}},
                        [("novec", "-loomcl-no-parallel-metadata", "")])
    (tmp_path / "before.json").write_text(json.dumps(before))
    (tmp_path / "after.json").write_text(json.dumps(after))
    argv = ["--record", str(tmp_path / "after.json"), "--baseline", str(tmp_path / "before.json")]
    assert command.main([*argv, "--ablation"]) == 0
    out = capsys.readouterr().out
    assert "k          2.00  1.50x" in out and "SLOWER beyond noise, PoCL not: k" in out
    assert command.main(argv[:2]) == 2
    assert command.main(["--record", str(tmp_path / "before.json"), "--ablation"]) == 2
    assert "not run with --ablation" in capsys.readouterr().err


def test_a_busier_machine_is_said():
    before, after = make_record({"k": {"loomcl": [1.0]}}), make_record({"k": {"loomcl": [5.0]}})
    before["machine"]["fma_gflops_by_impl"]["native probe"] = 220.0
    after["machine"]["fma_gflops_by_impl"]["native probe"] = 47.0
    assert "THE MACHINE DIFFERS: native FMA probe 220.0 -> 47.0 GFLOP/s" in report_baseline.comparison(before, after)
    after["machine"]["fma_gflops_by_impl"]["native probe"] = 200.0
    assert "MACHINE" not in report_baseline.comparison(before, after)
