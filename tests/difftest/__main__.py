"""Differential tester of the work-group compiler: `python3 -m tests.difftest --programs N --jobs J`.

Generates N random legal work-group programs (seeds S..S+N-1), computes each one's output with the
work-item reference interpreter, and compares bit-exactly with (a) the interpreter on the work-group
form of every pipeline configuration and (b) native runs through the public runtime. Prints progress,
then one summary line and every finding (seed, configuration, what differed); `--save DIR` writes
each failing program as a JSON file in the format of tests/difftest/reported/workgroup/.

Speed (2 cores): a native configuration costs a front-end run, the pipeline and LLVM (~0.25 s per
program), several times the interpreter's check of a pipeline configuration, so by default each
program runs natively with the default options plus one other configuration, rotating with the seed
(`--native sample`): a run covers all seven evenly, and the interpreter still checks every pipeline
configuration of every program. `--native all` runs all seven on every program.

One program in three (`--python share`; `all`, `none`) is also rendered as Python kernels and
checked the same way against the same reference output (python_check.py); the summary counts the
Python twins compared and those skipped (a construct Python kernels cannot express), by reason.
"""
from __future__ import annotations

import argparse
from collections import Counter
import json
import os
import sys
import time
from pathlib import Path

os.environ["LOOMCL_STRICT"] = "1"  # an optional pass's internal error is a finding, not a quiet fallback

from .runner import Plan, run  # noqa: E402 - after the environment is set


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python3 -m tests.difftest", description=__doc__.splitlines()[0])
    parser.add_argument("--programs", type=int, default=100, help="how many programs (default 100)")
    parser.add_argument("--jobs", type=int, default=2, help="worker processes (default 2)")
    parser.add_argument("--seed", type=int, default=0, help="first seed (default 0)")
    parser.add_argument("--save", type=Path, help="write each failing program here as a regression JSON")
    parser.add_argument("--native", choices=["all", "sample", "one", "none"], default="sample",
                        help="native configurations per program: all seven; sample (default): the default "
                             "options and one other, rotating with the seed; one: a single one, rotating")
    parser.add_argument("--interp", choices=["all", "sample", "none"], default="all",
                        help="pipeline configurations in the interpreter: all six (default); sample: the "
                             "default and two others, rotating")
    parser.add_argument("--python", choices=["all", "share", "none"], default="share",
                        help="also check programs as Python kernels: share (default): one in three; all; none")
    parser.add_argument("--fast", action="store_true", help="--interp sample --native one")
    parser.add_argument("--timeout", type=float, default=120.0, help="seconds before a silent worker is a hang")
    args = parser.parse_args(argv)

    if args.fast:
        args.interp, args.native = "sample", "one"
    plan = Plan(interp=args.interp, native=args.native, python=args.python)
    seeds = range(args.seed, args.seed + args.programs)
    findings, totals = [], {}
    python = Counter()  # "compared" and "skipped: REASON" of the Python twins
    done = 0
    start = time.monotonic()

    def on_result(result):
        nonlocal done
        done += 1
        if result.python:
            python[result.python] += 1
        for phase, seconds in result.times.items():
            totals[phase] = totals.get(phase, 0.0) + seconds
        for finding in result.findings:
            findings.append(finding)
            print(f"FINDING {finding.line()}", flush=True)
        if result.findings and args.save:
            save(args.save, result)
        if done % 25 == 0 or done == args.programs:
            elapsed = time.monotonic() - start
            print(f"[{done}/{args.programs}] {elapsed:.0f} s, {done / elapsed:.2f} programs/s, "
                  f"{len(findings)} findings", flush=True)

    run(seeds, plan, args.jobs, on_result, timeout=args.timeout)
    elapsed = time.monotonic() - start
    seeds_hit = sorted({f.seed for f in findings})
    phases = ", ".join(f"{k} {v:.0f} s" for k, v in sorted(totals.items(), key=lambda kv: -kv[1]))
    print(f"difftest: {done} programs in {elapsed:.0f} s ({done / elapsed:.2f} programs/s, jobs {args.jobs}, "
          f"native {args.native}); {len(findings)} findings in {len(seeds_hit)} programs"
          f"{': seeds ' + ' '.join(map(str, seeds_hit)) if seeds_hit else ''}")
    print(f"  worker time by phase: {phases}")
    skipped = sum(n for what, n in python.items() if what != "compared")
    print(f"  as Python kernels: {python['compared']} programs compared, {skipped} skipped"
          + "".join(f"\n    {n} skipped: {what[len('skipped: '):]}" for what, n in python.most_common()
                    if what != "compared"))
    for finding in findings:
        print(f"  {finding.line()}")
    return 1 if findings else 0


def save(directory: Path, result) -> Path:
    """The failing program as a regression file (kernel `k`, `sh` of local-size ints, n = len(in))."""
    from .check import reference_output
    from .generator import generate

    program = result.program if not isinstance(result.program, str) and result.program else generate(result.seed)
    expected = result.expected
    if expected is None:
        expected = reference_output(program)
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / f"fuzz_{result.seed}.json"

    def size(t):
        return t[0] if len(t) == 1 else list(t)

    observed = "; ".join(f"{f.kind} with {f.config}: {f.detail}" for f in result.findings)
    record = {
        "source": program.source, "kernel": program.kernel, "global_size": size(program.global_size),
        "local_size": size(program.local_size), "in": [int(x) for x in program.inputs.view("uint32")],
        "out_initial": [int(x) for x in program.out_initial.view("uint32")],
        "out_expected": None if expected is None else [int(x) for x in expected.view("uint32")],
        "observed": observed, "seed": result.seed,
        "findings": [{"config": f.config, "kind": f.kind, "detail": f.detail, "out": f.observed}
                     for f in result.findings],
    }
    path.write_text(json.dumps(record, indent=1) + "\n")
    if any(f.config.startswith("py-") for f in result.findings):  # and the Python twin that differed
        from .python_check import rendering

        path.with_suffix(".py").write_text(rendering(program))
    return path


if __name__ == "__main__":
    sys.exit(main())
