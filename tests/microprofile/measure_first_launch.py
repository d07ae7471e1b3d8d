"""What micro-profiling costs the first launches of a kernel: `python3 tests/microprofile/measure_first_launch.py`.

For each mode (off, background, sync) a fresh process builds the benchmark's Mandelbrot (1024x1024,
local size 256) and launches it LAUNCHES times, once with an empty cache directory (every kernel is
compiled: the first run of a program) and once more with the cache it left (a later process: the
choice is remembered). Prints the build time, each launch's wall time (enqueue to finish) and when
the choice was made. Not a test: times on a shared machine vary.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
LAUNCHES = 8
MODES = {"off": "0", "background": "1", "sync": "sync"}

CHILD = """
import json, time
import numpy as np
t0 = time.perf_counter()
import loomcl as cl
from loomcl.engine import microprofile
source = open({kernel!r}).read()
ctx = cl.create_some_context(interactive=False)
queue = cl.CommandQueue(ctx)
n = 1024
image = cl.Buffer(ctx, cl.mem_flags.READ_WRITE, 4 * n * n)
t1 = time.perf_counter()
kernel = cl.Program(ctx, source).build().mandelbrot
t2 = time.perf_counter()
walls, chosen_at = [], None
for i in range({launches}):
    start = time.perf_counter()
    kernel(queue, (n * n,), (256,), image, np.float32(-2), np.float32(-1.5), np.float32(3 / n), np.int32(n), np.uint32(256))
    queue.finish()
    walls.append(1e3 * (time.perf_counter() - start))
    if chosen_at is None and any(microprofile.choices_of(kernel).values()):
        chosen_at = i
print(json.dumps({{"import_ms": 1e3 * (t1 - t0), "build_ms": 1e3 * (t2 - t1), "walls": walls, "chosen_at": chosen_at,
                  "choice": list(microprofile.choices_of(kernel).values()), "stats": vars(microprofile.stats)}}))
"""


def child(mode: str, cache: str) -> dict:
    env = {**os.environ, "LOOMCL_CACHE_DIR": cache, "LOOMCL_MICROPROFILE": MODES[mode],
           "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))}
    code = CHILD.format(kernel=str(ROOT / "loomcl/bench/kernels/mandelbrot.cl"), launches=LAUNCHES)
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=900)
    if done.returncode:
        raise SystemExit(done.stderr)
    return json.loads(done.stdout.strip().splitlines()[-1])


def main() -> None:
    for mode in MODES:
        with tempfile.TemporaryDirectory() as cache:
            for run in ("cold", "warm"):
                r = child(mode, cache)
                walls = " ".join(f"{w:.1f}" for w in r["walls"])
                print(f"{mode:10} {run}: build {r['build_ms']:.0f} ms; launches (ms) {walls}; "
                      f"chosen at launch {r['chosen_at']} -> {r['choice']}; "
                      f"variants compiled {r['stats']['variants_compiled']}")


if __name__ == "__main__":
    main()
