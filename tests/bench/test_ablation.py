"""--ablation: which configs it runs, and the Table-1 style table from a record."""
import pytest

from loomcl.bench import command, configs, report_ablation
from loomcl.bench.configs import Config

from .helpers import make_record

TECHNIQUES = [("novec", "-loomcl-no-parallel-metadata", "no parallel-access metadata"),
              ("noprofile", "-loomcl-no-profile", "no micro-profiling: the first variant runs")]


def small_record():
    return make_record({
        "saxpy": {"loomcl": [1.0, 1.02, 1.01], "loomcl[novec]": [2.5, 2.6, 2.5],
                  "loomcl[noprofile]": [0.8, 0.81, 0.8], "PoCL": [2.0, 2.1, 2.0]},
        "scan": {"loomcl": [4.0, 4.1, 4.0], "loomcl[novec]": [3.9, 3.9, 4.0],
                 "loomcl[noprofile]": "mismatch", "PoCL": [8.0, 8.0, 8.0]},
        "bitonic": {"loomcl": "skipped", "loomcl[novec]": "skipped", "loomcl[noprofile]": "skipped",
                    "PoCL": [3.0, 3.0, 3.0]},
    }, TECHNIQUES)


def test_the_table_for_a_small_record():
    assert report_ablation.table(small_record()) == "\n".join([
        "kernel   all on    vec  profile  PoCL ms  vs PoCL",
        "-------  ------  -----  -------  -------  -------",
        "saxpy      1.00  3.12x   0.80x*     2.00    2.00x",   # novec against noprofile: 2.5 / 0.8
        "scan       4.00      -    WRONG     8.00    2.00x",   # as built went wrong: nothing to set novec against
        "bitonic    skip   skip     skip     3.00",
        "-------  ------  -----  -------  -------  -------",
        "geomean          3.12x    0.80x             2.00x",
        "all on: loomcl with every technique, ms (best of 3); PoCL ms: PoCL in the same run; vs PoCL: PoCL time / "
        "all-on time.",
        "The compile-time techniques are measured as built: off with noprofile against noprofile (micro-profiling "
        "would choose a variant without them).",
        "A technique's column: the kernel's time with that technique off / with it on (2.00x: twice as slow "
        "without it); *: off is faster",
        "beyond noise (the larger of 10% and the runs' spread): the technique costs time on that kernel. Columns:",
        "  vec      novec (-loomcl-no-parallel-metadata): no parallel-access metadata",
        "  profile  noprofile (-loomcl-no-profile): no micro-profiling: the first variant runs",
        "noprofile costs time on 1 kernel(s): saxpy 0.80x",
    ])


def test_a_faster_off_is_starred_only_beyond_noise():
    def starred(off_runs, on_runs=(1.0, 1.0, 1.0)):
        record = make_record({"k": {"loomcl": list(on_runs), "loomcl[novec]": list(off_runs)}}, TECHNIQUES[:1])
        return report_ablation.cell(record["rows"][0], "novec", 0.10).endswith("*")
    assert starred([0.8, 0.8, 0.8])
    assert not starred([0.95, 0.95, 0.95])                       # within the 10% floor
    assert not starred([0.8, 0.8, 0.8], on_runs=(1.0, 1.3, 1.3))   # its own runs scatter by 30%


def test_the_json_section():
    section = report_ablation.to_json(small_record())
    assert section["noise_floor"] == 0.10
    assert section["techniques"]["novec"]["slowdown"] == {"saxpy": 3.125, "scan": None, "bitonic": None}
    assert section["techniques"]["noprofile"]["costs_time_on"] == ["saxpy"]
    assert section["techniques"]["novec"]["geomean"] == pytest.approx(3.125)


def test_modes_are_not_techniques_and_every_technique_runs():
    chosen = [c.name for c in configs.parse(None, ablation=True)]
    assert chosen[0] == "default" and "check" not in chosen and "1thread" not in chosen
    assert set(chosen[1:]) == {c.name for c in configs.CONFIGS.values() if c.technique}
    assert {"novec", "scalar", "allctx", "cbs", "nofold", "nohoriz"} <= set(chosen)
    assert [c.name for c in configs.parse("check,novec", ablation=True)][:3] == ["default", "check", "novec"]


def test_a_row_added_to_configs_is_measured_without_other_code(monkeypatch):
    monkeypatch.setitem(configs.CONFIGS, "nofoo", Config("nofoo", "-loomcl-no-foo", None, "foo off"))
    assert "nofoo" in [c.name for c in configs.parse(None, ablation=True)]
    assert "nofoo" in command.parser().format_help()
    record = make_record({"k": {"loomcl": [1.0], "loomcl[nofoo]": [3.0]}}, [("nofoo", "-loomcl-no-foo", "")])
    assert report_ablation.table(record).splitlines()[:3] == ["kernel   all on    foo", "-------  ------  -----",
                                                             "k          1.00  3.00x"]


def test_a_record_from_before_the_technique_flag_reads_with_todays_configs():
    record = make_record({"k": {"loomcl": [1.0], "loomcl[novec]": [2.0], "loomcl[check]": [3.0]}})
    record["settings"]["configs"] = {"default": {"options": ""}, "novec": {"options": "-loomcl-no-parallel-metadata"},
                                     "check": {"options": "-loomcl-check"}}
    assert report_ablation.techniques(record) == ["novec"]


def test_columns_are_named_by_the_technique_in_seven_characters():
    assert [report_ablation.header(n) for n in ["novec", "nohoriz", "noprofile", "cbs", "registerblocking"]] == \
        ["vec", "horiz", "profile", "cbs", "registe"]


def test_a_table_wider_than_130_columns_is_split_into_blocks():
    names = [f"notech{i}" for i in range(16)]
    record = make_record({"k": {"loomcl": [1.0], **{f"loomcl[{n}]": [2.0] for n in names}, "PoCL": [3.0]}},
                         [(n, f"-loomcl-no-{n}", "") for n in names])
    blocks = report_ablation.blocks(record, names, 0.1)
    assert len(blocks) == 2 and all(max(map(len, b.splitlines())) <= 130 for b in blocks)
    assert [b.splitlines()[0].split()[3] for b in blocks] == ["tech0", "tech8"]
    assert all(b.splitlines()[2].split()[-2:] == ["3.00", "3.00x"] for b in blocks)


def test_compile_time_techniques_run_as_built_in_an_ablation():
    """Every technique config but micro-profiling's own gets micro-profiling off as well, so that the
    profiler cannot pick a variant without the technique, and is set against the kernel as built."""
    chosen = {c.name: c for c in configs.parse(None, ablation=True)}
    assert chosen["default"].options == ""
    assert chosen["noprofile"].options == "-loomcl-no-microprofile"
    assert chosen["nowfv"].options == "-loomcl-no-wfv -loomcl-no-microprofile"
    record = make_record({"k": {"loomcl": [1.0], "loomcl[novec]": [3.0], "loomcl[noprofile]": [1.5]}}, TECHNIQUES)
    row = record["rows"][0]
    assert report_ablation.slowdown(row, "novec") == pytest.approx(2.0)       # against as built
    assert report_ablation.slowdown(row, "noprofile") == pytest.approx(1.5)   # against everything on
