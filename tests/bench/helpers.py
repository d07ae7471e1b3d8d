"""Fake rows and limits for report tests."""
from loomcl.bench.case import EXACT, Case
from loomcl.bench.machine import Limits
from loomcl.bench.runner import Result, Row


def make_row(name, times, bytes_=8e6, flops=0.0, rate=None):
    """times: implementation name -> list of ms, or a status string."""
    case = Case(name, "test", "seed", "stream.cl", setup=None, quick=1, full=1, tolerance=EXACT)
    results = {impl: Result("ok", wall_ms=list(t), event_ms=list(t)) if isinstance(t, list)
               else Result(t, reason=f"{t}: because") for impl, t in times.items()}
    return Row(case, "1M", bytes_, flops, rate, results, numpy_ms=1.5)


def make_limits():
    return Limits(numpy_copy_gbs=10.0, copy_gbs={"PoCL": 20.0}, fma_gflops={"PoCL": 100.0})


def make_record(times, techniques=(), repeat=3):
    """A JSON record as `--json` writes it. times: kernel -> {implementation: list of ms or a status};
    techniques: (name, options, description) of the technique configs the run measured."""
    from loomcl.bench import report
    configs = {"default": {"options": "", "threads": None, "technique": False, "description": "every technique on"},
               **{name: {"options": options, "threads": None, "technique": True, "description": description}
                  for name, options, description in techniques}}
    rows = [make_row(name, by_impl) for name, by_impl in times.items()]
    names = list(dict.fromkeys(impl for by_impl in times.values() for impl in by_impl))
    record = report.to_json(rows, names, make_limits(), {"repeat": repeat, "configs": configs}, [])
    record.update(time="2026-11-24T05:00:00+0000", commit="0123456789abcdef")
    return record
