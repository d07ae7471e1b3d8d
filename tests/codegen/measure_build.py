"""Build times as a user meets them (not a test: timings are never asserted).

    python tests/codegen/measure_build.py [--root DIR] [--runs N]

Each run is a fresh Python process that imports loomcl, builds a program of five kernels (the demo's
vadd, reduce and matmul, a volatile __local row reduction, and a scan with barriers in a loop) and
launches each once: cold with an empty cache (LLVM runs, in compile servers) and warm (every object
from the disk cache, no server started). `--root` measures another checkout of loomcl the same way,
interleaved, so that both see the same machine load. Prints the median of each phase in ms, and
the CPU time of the process and its compile servers (steadier than wall time on a loaded machine).
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

_CHILD = r'''
import time
t0 = time.perf_counter()
import json, os
import numpy as np
import loomcl as cl
from loomcl.demo import SOURCE
imported = time.perf_counter()
SOURCE += """
kernel void rows(global float *out, global const float *in) {
    __local volatile float s[128];
    int t = get_local_id(0), lane = t & 31;
    s[t] = in[get_global_id(0)];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int h = 16; h > 0; h >>= 1) {
        if (lane < h) s[t] += s[t + h];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (lane == 0) out[get_global_id(0) / 32] = s[t];
}
kernel void scan(global float *x, local float *tmp) {
    int t = get_local_id(0);
    tmp[t] = x[get_global_id(0)];
    for (int d = 1; d < get_local_size(0); d <<= 1) {
        barrier(CLK_LOCAL_MEM_FENCE);
        float v = t >= d ? tmp[t - d] : 0.0f;
        barrier(CLK_LOCAL_MEM_FENCE);
        tmp[t] += v;
    }
    x[get_global_id(0)] = tmp[t];
}
"""
ctx = cl.create_some_context()
queue = cl.CommandQueue(ctx)
n = 256
a = np.random.rand(n * n).astype(np.float32)
mf = cl.mem_flags
A, B, C = (cl.Buffer(ctx, mf.READ_WRITE | mf.COPY_HOST_PTR, hostbuf=a) for _ in range(3))
start = time.perf_counter()
prg = cl.Program(ctx, SOURCE).build()
built = time.perf_counter()
prg.vadd(queue, (n * n,), (64,), A, B, C, np.int32(n * n))
prg.reduce(queue, (n * n,), (256,), A, C, cl.LocalMemory(1024))
prg.matmul(queue, (n, n), (16, 16), A, B, C, np.int32(n))
prg.rows(queue, (n * n,), (128,), C, A)
prg.scan(queue, (n * n,), (256,), B, cl.LocalMemory(1024))
queue.finish()
done = time.perf_counter()
cpu = sum(os.times()[:2])
try:  # compile servers still running (Linux): their CPU time is the build's too
    from loomcl.jit.compile_client import POOL
    for server in POOL._idle:
        fields = open(f"/proc/{server.process.pid}/stat").read().rsplit(")", 1)[1].split()
        cpu += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
except ImportError:
    pass
print(json.dumps({"import": imported - t0, "build": built - start, "first launches": done - built,
                  "total": done - t0, "cpu": cpu}))
'''


def run(root: str, cache_dir: str) -> dict:
    env = dict(os.environ, PYTHONPATH=root, LOOMCL_CACHE_DIR=cache_dir)
    child = subprocess.run([sys.executable, "-c", _CHILD], env=env, capture_output=True, text=True)
    if child.returncode:
        sys.exit(f"the build failed under {root}:\n{child.stderr}")
    return json.loads(child.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--root", action="append", default=[], help="another loomcl checkout to compare")
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()
    roots = [str(Path(__file__).resolve().parents[2]), *args.root]
    results = {(root, phase): [] for root in roots for phase in ("cold", "warm")}
    for _ in range(args.runs):
        for root in roots:
            with tempfile.TemporaryDirectory() as cache_dir:
                results[root, "cold"].append(run(root, cache_dir))
                results[root, "warm"].append(run(root, cache_dir))
    for (root, phase), samples in results.items():
        medians = {name: statistics.median(s[name] for s in samples) * 1e3 for name in samples[0]}
        print(f"{root} {phase}: " + ", ".join(f"{name} {ms:.0f} ms" for name, ms in medians.items()))


if __name__ == "__main__":
    main()
