"""`loomcl bench` / `python -m loomcl.bench`: the suite on loomcl and PoCL side by side.

After the kernel suite comes the ICD section (icd_section.py): launches and pyopencl.array calls
through pyopencl on loomcl's ICD beside pyopencl on PoCL and loomcl's own API, in µs per call. It is
selected like a family of cases: it runs by default, `--only icd` runs it alone, `--no-icd` leaves it
out.

`--compile` runs the compile-time section instead (compile_time/section.py): large programs (generated
ones, and hashcat's kernels when installed) built cold and launched once on loomcl and PoCL, with
loomcl's time per compiler stage; with `--quick`, the small generated program alone.

`--ablation` adds a loomcl variant for every technique of configs.py, each with that one technique off,
and prints what each is worth per kernel (report_ablation.py); `--baseline PATH` sets this run beside an
earlier `--json` record (report_baseline.py); `--record PATH` prints those tables for a saved record
instead of running.

main(argv) is what loomcl/cli.py calls. Exit status: 0 when every implementation that ran agreed with
numpy on every row, 1 when any row mismatched or errored, 2 for bad arguments.
"""
from __future__ import annotations

import argparse
import os
import sys

from .. import host
from . import configs, contention, icd_report, icd_section, impls, machine, noise, oracle, report, runner
from . import report_ablation, report_baseline
from .suite import select

QUICK_MACHINE = (1 << 22, 256, 3)     # copy elements, fma iterations, repeats
FULL_MACHINE = (1 << 24, 2048, 5)
ICD_SECTION = "icd"           # its name for --only
ICD_BATCH_S, ICD_QUICK_BATCH_S = 0.05, 0.01     # each target's time on one call per round


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="loomcl bench", description=__doc__.splitlines()[0])
    p.add_argument("--only", metavar="NAME[,NAME]",
                   help="cases whose name matches (substring or glob) or family is NAME; 'icd': the ICD section")
    p.add_argument("--quick", action="store_true", help="small sizes: a smoke test of the whole suite")
    p.add_argument("--threads", type=int, metavar="N", help="worker threads for loomcl and PoCL")
    p.add_argument("--repeat", type=int, metavar="N", help="timed runs per implementation (default 5, quick 3)")
    p.add_argument("--json", metavar="PATH", help="write the JSON record of the run to PATH")
    p.add_argument("--plot", metavar="PATH", help="write a PNG: speedup over PoCL and roofline (needs matplotlib)")
    p.add_argument("--config", metavar="NAME[,NAME]",
                   help="also run loomcl with these named option sets: " + ", ".join(
                       f"{c.name} ({c.options or f'{c.threads} thread'})" for c in configs.CONFIGS.values()
                       if c.name != "default"))
    p.add_argument("--oracle", action="store_true",
                   help="also run every kernel variant alone and compare micro-profiling's choice with the fastest")
    p.add_argument("--ablation", action="store_true",
                   help="run loomcl once more per technique, with it off, and print what each is worth per kernel: "
                        + ", ".join(c.name for c in configs.techniques()))
    p.add_argument("--baseline", metavar="PATH", help="compare this run with an earlier --json record")
    p.add_argument("--record", metavar="PATH",
                   help="no run: the --ablation and --baseline tables of a saved --json record")
    p.add_argument("--noise", type=float, default=100 * noise.NOISE_FLOOR, metavar="PCT",
                   help="differences below PCT%% (or the runs' own spread, if larger) are noise "
                        "(default %(default)g)")
    p.add_argument("--no-pocl", action="store_true", help="do not run PoCL")
    p.add_argument("--no-intel", action="store_true", help="do not run Intel's CPU runtime")
    p.add_argument("--no-loomcl", action="store_true", help="do not run loomcl")
    p.add_argument("--no-icd", action="store_true",
                   help="leave out the ICD section (pyopencl on loomcl's ICD beside pyopencl on PoCL)")
    p.add_argument("--contention", type=int, metavar="N",
                   help="run the suite quiet, then beside N CPU-bound processes, and report the slowdowns")
    p.add_argument("--compile", action="store_true",
                   help="instead of the suite: cold build + first launch of large programs, loomcl beside PoCL, "
                        "with loomcl's time per compiler stage")
    p.add_argument("--list", action="store_true", help="list the cases and exit")
    return p


def log(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def open_implementations(args, chosen) -> tuple[list, list[str]]:
    opened, unavailable = [], []
    impls.set_pocl_threads(args.threads)
    if not args.no_loomcl:
        for config in chosen:
            impl = impls.open_loomcl(config, args.threads)
            (unavailable if isinstance(impl, str) else opened).append(impl)
    if not args.no_pocl:
        impl = impls.open_pocl()
        (unavailable if isinstance(impl, str) else opened).append(impl)
    if not args.no_intel:
        if args.no_pocl and impls.names_loomcls_icd(os.environ.get("OCL_ICD_VENDORS")):
            del os.environ["OCL_ICD_VENDORS"]
        impls.show_intel_to_the_loader()
        impl = impls.open_intel()
        (unavailable if isinstance(impl, str) else opened).append(impl)
    return opened, unavailable


def list_cases(cases) -> str:
    return "\n".join(f"{c.name:16} {c.family:10} {c.seed:38} {c.source:18} {', '.join(c.needs)}" for c in cases)


def progress(index: int, total: int, row: runner.Row) -> str:
    parts = [f"{name} {r.min_ms:.2f} ms" if r.ok else f"{name} {r.status}" for name, r in row.results.items()]
    return f"[{index:2}/{total}] {row.case.name} ({row.size}): " + ", ".join(parts)


def icd_selected(args) -> bool:
    """The ICD section runs unless --no-icd; with --only, when 'icd' is one of the names."""
    if args.no_icd:
        return False
    return not args.only or ICD_SECTION in [name.strip().lower() for name in args.only.split(",")]


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)
    if args.compile:
        return run_compile(args)
    cases = select(args.only)
    if args.list:
        print(list_cases(cases))
        return 0
    with_icd = icd_selected(args)
    if not cases and not with_icd:
        log(f"no case matches {args.only!r}")
        return 2
    try:
        chosen = configs.parse(args.config, args.ablation)
        baseline = report_baseline.load(args.baseline, "--baseline") if args.baseline else None
        saved = report_baseline.load(args.record, "--record") if args.record else None
    except ValueError as exc:
        log(str(exc))
        return 2
    oracle.prepare_environment()  # every run: variants compile at the first launch, and settle in the warm-up
    if args.oracle:
        chosen += oracle.configs()
    if args.plot and (message := _plot_module().require_matplotlib()):
        log(message)
        return 2
    repeat = args.repeat if args.repeat is not None else (3 if args.quick else 5)
    if repeat < 1:
        log("--repeat must be at least 1")
        return 2
    if not 0 <= args.noise < 1000:
        log("--noise must be a percentage from 0")
        return 2
    if saved:
        return replay(args, saved, baseline)
    settings = {"quick": args.quick, "threads": args.threads, "repeat": repeat, "only": args.only,
                "configs": {c.name: {"options": c.options, "threads": c.threads, "technique": c.technique,
                                     "description": c.description} for c in chosen}}

    status, record = 0, report.header(settings)
    if cases:
        status, suite_record = run_suite(args, cases, chosen, repeat, settings, baseline)
        record = suite_record or record
    if with_icd:
        section = run_icd(args, repeat)
        print(("\n" if cases else "") + icd_report.summary(section))
        record["icd"] = icd_report.to_json(section)
        status = max(status, icd_exit_status(section))
    if args.json:
        report.write_json(args.json, record)
        log(f"wrote {args.json}")
    return status


def run_suite(args, cases, chosen, repeat: int, settings: dict, baseline: dict | None) -> tuple[int, dict | None]:
    """The kernel suite: (exit status, the JSON record), printing its summary; (1, None) when no
    implementation opened."""
    opened, unavailable = open_implementations(args, chosen)
    for line in unavailable:
        log(line)
    if not opened:
        log("nothing to run: no implementation is available")
        return 1, None
    names = [impl.name for impl in opened]
    # the techniques --ablation added have their own table: the main one shows loomcl, --config's and PoCL
    extra = {c.label for c in chosen} - {c.label for c in configs.parse(args.config)}
    shown = [name for name in names if name not in extra]
    log("running on: " + ", ".join(f"{i.name} ({i.device_name})" for i in opened))

    n, fma_iters, machine_repeat = QUICK_MACHINE if args.quick else FULL_MACHINE
    log("measuring the machine: copy bandwidth and fma peak")
    threads = args.threads or host.compute_units()
    limits = machine.measure(opened, n, fma_iters, machine_repeat, threads)

    rows = []
    for index, case in enumerate(cases, 1):
        log(f"[{index:2}/{len(cases)}] {case.name} ...")
        rows.append(runner.run_case(case, opened, repeat, args.quick))
        log(progress(index, len(cases), rows[-1]))
    if args.contention:
        loaded = []
        with contention.Background(args.contention):
            for index, case in enumerate(cases, 1):
                log(f"[{index:2}/{len(cases)}] {case.name} beside {args.contention} busy processes ...")
                loaded.append(runner.run_case(case, opened, repeat, args.quick))
        table = contention.slowdowns(rows, loaded, shown)
        print(contention.summary(table, shown, args.contention) + "\n")
        settings["contention"] = {"busy": args.contention, "slowdowns": table}
    limits = limits.merge(machine.measure(opened, n, fma_iters, machine_repeat, threads))

    print(report.summary(rows, shown, limits, unavailable))
    if args.oracle:
        print("\n" + oracle.summary(rows))
    record = report.to_json(rows, names, limits, settings, unavailable)
    if args.plot:
        _plot_module().plot(args.plot, rows, shown, limits)
        log(f"wrote {args.plot}")
    comparisons(args, record, baseline, "this run")
    return exit_status(rows), record


def comparisons(args, record: dict, baseline: dict | None, what: str) -> None:
    """The ablation table (added to the record) and the before/after table, and the ablation plot."""
    floor = args.noise / 100
    if args.ablation:
        print("\nablation: each kernel's time with one technique off / with it on\n"
              + report_ablation.table(record, floor))
        record["ablation"] = report_ablation.to_json(record, floor)
        if args.plot:
            from . import plot_ablation
            path = plot_ablation.path_beside(args.plot)
            plot_ablation.plot(path, record, floor)
            log(f"wrote {path}")
    if baseline:
        print(f"\nbefore and after: {args.baseline} and {what}\n" + report_baseline.comparison(baseline, record, floor))


def replay(args, record: dict, baseline: dict | None) -> int:
    """--record: the tables of a saved run, no run."""
    if not (args.ablation or baseline):
        log("--record needs --ablation or --baseline: the tables to print")
        return 2
    if args.ablation and not report_ablation.techniques(record):
        log(f"--record {args.record}: the run measured no technique config (it was not run with --ablation)")
        return 2
    comparisons(args, record, baseline, args.record)
    return 0


def run_compile(args) -> int:
    from .compile_time import section

    kinds = [k for k in section.IMPLEMENTATIONS if not (k == "pocl" and args.no_pocl or k == "loomcl" and args.no_loomcl)]
    rows = section.run(args.quick, kinds, log)
    print(section.summary(rows))
    if args.json:
        record = report.header({"quick": args.quick, "compile": True})
        record["compile"] = section.to_json(rows)
        report.write_json(args.json, record)
        log(f"wrote {args.json}")
    return section.exit_status(rows)


def run_icd(args, repeat: int) -> icd_section.IcdSection:
    impls.set_pocl_threads(args.threads)     # the workers inherit it
    targets = [t for t in icd_section.TARGETS
               if not (t == "pocl" and args.no_pocl or t in ("loomcl", "icd") and args.no_loomcl)]
    sizes = icd_section.QUICK_SIZES if args.quick else icd_section.SIZES
    batch_s = ICD_QUICK_BATCH_S if args.quick else ICD_BATCH_S
    return icd_section.run(targets, sizes, repeat, batch_s, args.threads, log)


def icd_exit_status(section: icd_section.IcdSection) -> int:
    if not section.devices:
        log("ICD section: nothing to run: no target is available")
        return 1
    failed = [c for row in section.rows for c in row.cells.values() if c.status in ("mismatch", "error")]
    if failed:
        log(f"FAILED: {len(failed)} call(s) through pyopencl disagree with numpy or errored (see above)")
        return 1
    return 0


def exit_status(rows: list[runner.Row]) -> int:
    """1 if any implementation disagreed with numpy or failed on any row (a skip is not a failure)."""
    failed = [r for row in rows for r in row.results.values() if r.status in ("mismatch", "error")]
    if failed:
        log(f"FAILED: {len(failed)} result(s) disagree with numpy or errored (see above)")
        return 1
    return 0


def _plot_module():
    from . import plot
    return plot
