"""One cold build and first launch, in a process of its own: `python -m loomcl.bench.compile_time.child
IMPL PROGRAM.json` prints one JSON object (status, build_s, launch_s, stages, reason).

Cold means nothing cached: loomcl gets an empty kernel cache directory, PoCL runs with its kernel
cache off (POCL_KERNEL_CACHE=0), and each starts in a fresh process. The first launch runs the
program's chosen kernel on one work-group of 64 work-items, with a zeroed 64 KiB buffer for every
pointer parameter, 4 KiB of local memory for every `__local` one and 0 for every number: enough for
hashcat's kernels (their work-item count parameter is 0, so they return at once) and the generated
ones; what it times is building the work-group function. loomcl's stages come from
loomcl.driver.compile_stages.

Beside the wall time, `cpu_s` is the processor time of build + first launch: this process's (all its
threads) and its children's (loomcl's compile servers, stopped at the end so that theirs counts).
On a loaded machine the wall time measures the load; processor time much less so.
"""
from __future__ import annotations

import json
import os
import sys
import tempfile
import time

import numpy as np

BUFFER_BYTES = 1 << 16
LOCAL_BYTES = 4096
LOCAL_SIZE = 64
SCALARS = {"char": np.int8, "uchar": np.uint8, "u8": np.uint8, "short": np.int16, "ushort": np.uint16,
           "u16": np.uint16, "int": np.int32, "uint": np.uint32, "u32": np.uint32, "float": np.float32,
           "long": np.int64, "ulong": np.uint64, "u64": np.uint64, "size_t": np.uint64, "double": np.float64}


def open_implementation(kind: str):
    from .. import impls
    from ..configs import CONFIGS

    if kind == "pocl":
        os.environ["POCL_KERNEL_CACHE"] = "0"
        return impls.open_pocl()
    os.environ["LOOMCL_CACHE_DIR"] = tempfile.mkdtemp(prefix="loomcl-compile-bench-")
    import loomcl as cl

    device = cl.get_platforms()[0].get_devices()[0]
    return impls.open_device(CONFIGS["default"].label, "loomcl", cl, device, "")


def set_arguments(impl, kernel, keep: list) -> None:
    cl = impl.cl
    qualifier = cl.kernel_arg_address_qualifier
    for index in range(kernel.num_args):
        space = kernel.get_arg_info(index, cl.kernel_arg_info.ADDRESS_QUALIFIER)
        if space == qualifier.LOCAL:
            kernel.set_arg(index, cl.LocalMemory(LOCAL_BYTES))
        elif space in (qualifier.GLOBAL, qualifier.CONSTANT):
            buffer = impl.buffer(np.zeros(BUFFER_BYTES, np.uint8))
            keep.append(buffer)
            kernel.set_arg(index, buffer)
        else:
            name = kernel.get_arg_info(index, cl.kernel_arg_info.TYPE_NAME).strip()
            if name not in SCALARS:
                raise ValueError(f"parameter {index} has type {name!r}, which the bench cannot fill")
            kernel.set_arg(index, SCALARS[name](0))


def cpu_seconds() -> float:
    """Processor seconds of this process and of its children that have ended (0 where unknown)."""
    try:
        import resource
    except ImportError:  # not POSIX
        return 0.0
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def stop_compile_servers() -> None:
    from loomcl.jit.compile_client import POOL

    POOL.shutdown()


def measure(kind: str, program: dict) -> dict:
    impl = open_implementation(kind)
    if isinstance(impl, str):
        return {"status": "unavailable", "reason": impl}
    stages = None
    if kind == "loomcl":
        from loomcl.driver import compile_stages

        compile_stages.reset()
    cpu_start = cpu_seconds()
    start = time.perf_counter()
    try:
        built = impl.build(program["source"], program["options"] + " -cl-kernel-arg-info")
    except Exception as exc:  # noqa: BLE001 - any build failure is this program's result
        from ..impls import build_log_line

        return {"status": "error", "reason": f"build: {build_log_line(exc)}"}
    build_s = time.perf_counter() - start
    keep: list = []
    try:
        kernel = getattr(built, program["kernel"])
        set_arguments(impl, kernel, keep)
        start = time.perf_counter()
        impl.cl.enqueue_nd_range_kernel(impl.queue, kernel, (LOCAL_SIZE,), (LOCAL_SIZE,))
        impl.queue.finish()
        launch_s = time.perf_counter() - start
    except Exception as exc:  # noqa: BLE001
        return {"status": "error", "reason": f"first launch: {type(exc).__name__}: {exc}"[:300],
                "build_s": build_s}
    if kind == "loomcl":
        stages = compile_stages.seconds()
        stop_compile_servers()
    return {"status": "ok", "build_s": build_s, "launch_s": launch_s, "cpu_s": cpu_seconds() - cpu_start,
            "stages": stages}


def main(argv: list[str]) -> int:
    kind, path = argv
    with open(path) as f:
        program = json.load(f)
    print(json.dumps(measure(kind, program)), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
