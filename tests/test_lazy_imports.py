"""`import loomcl` is cheap: contexts, buffers and copies load no compiler and no LLVM; the first build does.

Run in a fresh interpreter, since this one has long since loaded everything."""
import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
COMPILER = ("llvmlite", "loomcl.frontend", "loomcl.lower", "loomcl.transforms", "loomcl.codegen", "loomcl.driver",
            "loomcl.devlib")

CHILD = """
import json, sys
import numpy as np
import loomcl as cl

heavy = {heavy!r}
def loaded():
    return sorted({{name for name in sys.modules for h in heavy if name == h or name.startswith(h + ".")}})

ctx = cl.create_some_context(interactive=False)
queue = cl.CommandQueue(ctx)
host = np.arange(1000, dtype=np.float32)
buf = cl.Buffer(ctx, cl.mem_flags.READ_WRITE | cl.mem_flags.COPY_HOST_PTR, hostbuf=host)
other = cl.Buffer(ctx, cl.mem_flags.READ_WRITE, host.nbytes)
cl.enqueue_copy(queue, other, buf)
back = np.empty_like(host)
cl.enqueue_copy(queue, back, other)
queue.finish()
_ = ctx.devices[0].name, ctx.devices[0].max_compute_units
before = loaded()

program = cl.Program(ctx, "__kernel void twice(__global float *a) {{ a[get_global_id(0)] *= 2; }}").build()
program.twice(queue, host.shape, None, other)
cl.enqueue_copy(queue, back, other)
queue.finish()
print(json.dumps({{"before": before, "after": loaded(), "copied": bool((back == 2 * host).all())}}))
"""


def test_buffers_and_copies_load_no_compiler_and_no_llvm():
    result = subprocess.run([sys.executable, "-c", CHILD.format(heavy=COMPILER)], cwd=ROOT, capture_output=True,
                            text=True, timeout=300)
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout.splitlines()[-1])
    assert report["before"] == []
    assert report["copied"]
    # the first build loads them: the check above looks at the right names
    assert {"llvmlite", "loomcl.frontend", "loomcl.transforms", "loomcl.codegen", "loomcl.driver"} <= set(
        report["after"])
