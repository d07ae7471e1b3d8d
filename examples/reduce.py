import time
from pathlib import Path

import numpy as np
import loomcl as cl                      # a drop-in for the common part of pyopencl

ctx = cl.create_some_context()
queue = cl.CommandQueue(ctx, properties=cl.command_queue_properties.PROFILING_ENABLE)
a = np.random.rand(1 << 20).astype(np.float32)
mf = cl.mem_flags
a_buf = cl.Buffer(ctx, mf.READ_ONLY | mf.COPY_HOST_PTR, hostbuf=a)
out = cl.Buffer(ctx, mf.WRITE_ONLY, a.nbytes // 256)

start = time.perf_counter()
source = (Path(__file__).parent / "reduce.cl").read_text()
prg = cl.Program(ctx, source).build(options="-D TILE=256")
print(f"build: {(time.perf_counter() - start) * 1e3:.1f} ms")

partial = np.empty(a.size // 256, np.float32)
for launch in range(3):          # the first launch also compiles the kernel for local size 256
    start = time.perf_counter()
    evt = prg.reduce(queue, (a.size,), (256,), a_buf, out, cl.LocalMemory(256 * 4))
    cl.enqueue_copy(queue, partial, out)
    wall_ms = (time.perf_counter() - start) * 1e3
    kernel_ms = (evt.profile.end - evt.profile.start) * 1e-6
    print(f"launch {launch}: kernel {kernel_ms:.3f} ms, launch + copy back {wall_ms:.3f} ms")

print(f"sum on the device {partial.sum():.1f}, numpy {a.sum():.1f}")
