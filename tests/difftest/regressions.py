"""The regression kernels of reported/workgroup/ and of found/ as `Case`s, and their native runs in a
subprocess (a crash of generated code must not take the caller down).

`python3 -m tests.difftest.regressions FILE CONFIG...` runs FILE natively in each build-option
configuration and prints one JSON line per configuration: `{"config": ..., "start": true}` before
it starts and `{"config": ..., "ok": bool, "detail": ...}` after. `native_results` reads those
lines; when the process dies it records a crash for the configuration that had started and goes on
with the rest in a new process.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np

from .check import Case
from .generator import PRELUDE

REPOSITORY = Path(__file__).resolve().parents[2]
HERE = Path(__file__).resolve().parent
REPORTED = HERE / "reported" / "workgroup"  # the cases reported to the project (reported/README.md)
FOUND = HERE / "found"  # what our own difftest campaigns found, once fixed


def files() -> list[Path]:
    """The reported regression files, then ours (same format)."""
    return sorted(REPORTED.glob("*.json")) + sorted(FOUND.glob("*.json"))


def _size(value) -> tuple:
    return tuple(value) if isinstance(value, list) else (value,)


def load(path: Path):
    """(source, Case, expected output) of a regression file. `swap_across_barrier.json` has no data
    fields; its note says: x = arange(8) f32, y = 100 + x, n = 1, and out must be (y[i], x[i])."""
    d = json.loads(Path(path).read_text())
    if d["kernel"] == "swap":
        x = np.arange(8, dtype=np.float32)
        y = 100 + x
        case = Case(0, "swap", _size(d["global_size"]), _size(d["local_size"]),
                    [x, y, np.zeros(16, np.float32), np.int32(1)], output=2)
        return d["source"], case, np.stack([y, x], 1).ravel()
    inputs = np.array(d["in"], np.uint32).view(np.int32)
    local = _size(d["local_size"])
    items = int(np.prod(local))
    case = Case(0, d["kernel"], _size(d["global_size"]), local,
                [np.array(d["out_initial"], np.uint32).view(np.int32), inputs, np.zeros(items, np.int32),
                 np.int32(len(inputs))], output=0, local_args={2: 4 * items})
    return PRELUDE + d["source"], case, np.array(d["out_expected"], np.uint32).view(np.int32)


def native_results(path: Path, configs) -> dict:
    """config -> (ok, detail) for every configuration, each run natively in a child process."""
    results: dict = {}
    remaining = list(configs)
    while remaining:
        started = None
        env = dict(os.environ, LOOMCL_CACHE_SIZE="0", LOOMCL_THREADS="1")
        process = subprocess.run([sys.executable, "-m", "tests.difftest.regressions", str(path), *remaining],
                                 cwd=REPOSITORY, env=env, capture_output=True, text=True, timeout=600)
        for line in process.stdout.splitlines():
            if not line.startswith("{"):
                continue
            message = json.loads(line)
            if message.get("start"):
                started = message["config"]
            else:
                results[message["config"]] = (message["ok"], message["detail"])
                started = None
        if started is not None or process.returncode != 0 and not all(c in results for c in remaining):
            crashed = started if started is not None else next(c for c in remaining if c not in results)
            tail = (process.stderr.strip().splitlines() or ["(no output)"])[-1][:300]
            results[crashed] = (False, f"crash: process died (exit code {process.returncode}): {tail}")
        remaining = [c for c in remaining if c not in results]
    return results


def _run_natively(path: Path, configs) -> None:
    from .check import Native, compare

    source, case, expected = load(path)
    native = Native()
    for options in configs:
        print(json.dumps({"config": options, "start": True}), flush=True)
        try:
            got = native.launch(native.build(source, options), case)
            found = compare(case, options, got, expected)
            message = {"ok": found is None, "detail": found.detail if found else ""}
        except Exception as e:  # noqa: BLE001
            message = {"ok": False, "detail": f"{type(e).__name__}: {str(e)[:300]}"}
        print(json.dumps({"config": options, **message}), flush=True)


if __name__ == "__main__":
    _run_natively(Path(sys.argv[1]), sys.argv[2:])
