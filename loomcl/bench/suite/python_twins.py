"""Python twins: bench kernels written as Python kernels (loomcl/pyfront/, kernels/py/), each run on
its OpenCL C twin's problem (the same launches, arguments, sizes, reference and tolerance), so that a
row shows what writing the kernel in Python costs. They run on loomcl only.

`--only python` runs every twin beside its OpenCL C twin; a pattern naming a twin (`saxpy.py`) runs it.
"""
from __future__ import annotations

from dataclasses import replace

from . import compute, linalg, parallel, stream

FAMILY = "python"
SOURCES = {"saxpy": "stream.py", "stencil5": "stream.py", "transpose": "transpose.py", "reduce": "reduce.py",
           "sgemmTiled": "linalg.py", "mandelbrot": "mandelbrot.py", "blackScholes": "blackscholes.py",
           "nbody": "nbody.py", "histogram256": "histogram.py", "scan": "scan.py"}

C_TWINS = [case for case in (*stream.CASES, *compute.CASES, *linalg.CASES, *parallel.CASES)
           if case.name in SOURCES]
CASES = [replace(case, name=f"{case.name}.py", family=FAMILY, source=f"py/{SOURCES[case.name]}",
                 note=f"Python twin of {case.name}") for case in C_TWINS]


def is_python(case) -> bool:
    return case.source.endswith(".py")
