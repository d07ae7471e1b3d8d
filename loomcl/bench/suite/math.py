"""Math builtin throughput: sin, cos, exp, log, sqrt, pow, erf and atan2, one call per work-item over
float and double arrays (16M elements; 64K in quick mode), reported in Gelem/s beside numpy's ufunc
(report_math.py). The question each row answers: does the builtin inline into the work-item loop and
vectorize with it, or does every lane call scalar libm?

Inputs cover the ranges kernels meet (angles of a few periods, exponents that neither overflow nor
underflow, positive bases); the tolerance is the OpenCL 1.2 limit with margin (float within 16 ulp
relative, double within 64 ulp), with an absolute floor where results cross zero.
"""
from __future__ import annotations

import math

import numpy as np

from ..case import Buf, Case, Launch, Problem, Tolerance
from .common import count_label

QUICK, FULL = 1 << 16, 1 << 24

# name: (numpy's equivalent or None, first input range, second input range or None)
FUNCTIONS = {
    "sin": (np.sin, (-20.0, 20.0), None),
    "cos": (np.cos, (-20.0, 20.0), None),
    "exp": (np.exp, (-80.0, 80.0), None),
    "log": (np.log, (1e-3, 1e3), None),
    "sqrt": (np.sqrt, (0.0, 1e4), None),
    "pow": (np.power, (1e-2, 10.0), (-8.0, 8.0)),
    "erf": (None, (-4.0, 4.0), None),
    "atan2": (np.arctan2, (-1.0, 1.0), (-1.0, 1.0)),
}
TOLERANCE = {np.float32: Tolerance(rtol=2e-6, atol=1e-6), np.float64: Tolerance(rtol=1e-14, atol=1e-15)}
_ERF = np.frompyfunc(math.erf, 1, 1)


def reference(name: str, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """The exact result, rounded once: numpy in double (math.erf where numpy has none)."""
    ufunc, _, second = FUNCTIONS[name]
    wide = [a.astype(np.float64), b.astype(np.float64)]
    if ufunc is None:
        return _ERF(wide[0]).astype(np.float64)
    return ufunc(*wide) if second else ufunc(wide[0])


def setup_for(name: str, label: str, dtype):
    ufunc, first, second = FUNCTIONS[name]

    def setup(n: int, rng: np.random.Generator) -> Problem:
        a = rng.uniform(*first, n).astype(dtype)
        b = rng.uniform(*(second or (0.0, 1.0)), n).astype(dtype)
        out = np.empty_like(a)
        numpy = None
        if ufunc is not None:
            numpy = (lambda: ufunc(a, b, out=out)) if second else (lambda: ufunc(a, out=out))
        return Problem(
            size=count_label(n),
            buffers={"a": a, "b": b, "out": np.zeros_like(a)},
            launches=[Launch(f"{name}_{label}", (n,), (256,), (Buf("a"), Buf("b"), Buf("out")))],
            reference=lambda: {"out": reference(name, a, b)},
            numpy=numpy, bytes=(3 if second else 2) * a.itemsize * n, flops=n)
    return setup


CASES = [
    Case(f"{name}_{label}", "math", "002 sec. 5 (Vecmathlib)", "math.cl", setup_for(name, label, dtype),
         quick=QUICK, full=FULL, tolerance=TOLERANCE[dtype], needs=("fp64",) if label == "double" else ())
    for label, dtype in (("float", np.float32), ("double", np.float64)) for name in FUNCTIONS
]
