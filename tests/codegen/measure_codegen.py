"""Measurements for the codegen report (not a test: timings are never asserted).

    python tests/codegen/measure_codegen.py

Copy kernel on 16M floats (one thread, local size 256) against np.copyto; compile time per kernel
without cache, with the disk cache (fresh in-process memo), and LLVM IR emission alone.
"""
import os
import sys
import tempfile
import time

import numpy as np

sys.path.insert(0, os.path.dirname(__file__))
os.environ.setdefault("LOOMCL_CACHE_DIR", tempfile.mkdtemp())

from loomcl import ir
from loomcl import jit
from loomcl.driver import backend
from loomcl.ir import types as ty  # noqa: E402
from loomcl.options import CompilerOptions  # noqa: E402
from loomcl.options import DEFAULT_OPTIONS  # noqa: E402

from codegen_helpers import GLOBAL, global_id, kernel, launch, work_item_loop  # noqa: E402
from math_kernels import build_math  # noqa: E402
from test_basic_kernels import build_saxpy, build_vector_add  # noqa: E402


def build_copy(local=256):
    f, b = kernel("copy", [GLOBAL, GLOBAL], ["src", "dst"], (local, 1, 1))

    def body(b, lid):
        gid = global_id(b, lid, local)
        b.store(b.load(ty.f32, b.element_ptr(ty.f32, f.params[0], gid)), b.element_ptr(ty.f32, f.params[1], gid))

    work_item_loop(b, local, body)
    b.ret()
    return f


def best(fn, repeat=15):
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times)


def measure_copy():
    n = 1 << 24
    src, dst = np.random.rand(n).astype(np.float32), np.zeros(n, np.float32)
    for options in (DEFAULT_OPTIONS, CompilerOptions(parallel_metadata=False),
                    CompilerOptions(parallel_metadata=False, vectorize=False)):
        compiled = backend.compile_work_group(build_copy(), options=options)
        t = best(lambda: launch(compiled, [src, dst], (n,)))
        print(f"copy 16M f32 {options.key()}: {2 * n * 4 / t / 1e9:.1f} GB/s ({t * 1e3:.2f} ms)")
    assert (dst == src).all()
    t = best(lambda: np.copyto(dst, src))
    print(f"np.copyto: {2 * n * 4 / t / 1e9:.1f} GB/s ({t * 1e3:.2f} ms)")


def measure_compile():
    builders = {"vector_add": build_vector_add, "saxpy": build_saxpy, "copy": build_copy,
                "exp": lambda: build_math(ir.MathFunction.EXP, 1), "log10": lambda: build_math(ir.MathFunction.LOG10, 1)}
    for name, build in builders.items():
        function = build()
        emit = best(lambda: backend.kernel_module(function), 5)
        jit._COMPILED.clear()
        start = time.perf_counter()
        backend.compile_work_group(function, options=CompilerOptions(use_cache=False))
        cold = time.perf_counter() - start
        jit._COMPILED.clear()
        backend.compile_work_group(function)  # fills the disk cache
        jit._COMPILED.clear()
        start = time.perf_counter()
        backend.compile_work_group(function)
        hit = time.perf_counter() - start
        print(f"{name}: emit {emit * 1e3:.2f} ms, compile (no cache) {cold * 1e3:.1f} ms, disk-cache hit {hit * 1e3:.2f} ms")


if __name__ == "__main__":
    measure_compile()
    measure_copy()
