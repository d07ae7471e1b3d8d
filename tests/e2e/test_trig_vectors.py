"""sin, cos and tan in OpenCL C kernels, through the whole pipeline: whole-function vectorization
takes their work-item loops (MathFunction.reduces_by_period), and the vector functions reduce a
vector whose lanes are all below 2^17 by Cody-Waite, any other by Payne-Hanek (devlib/math/trig.py,
trig_double.py). The inputs come in runs long enough that whole vectors take each way, and mixed
vectors too; results are checked in ulps against float64 (float) and mpmath (double)."""
from __future__ import annotations

import re

import mpmath as mp
import numpy as np
import pytest

from loomcl import cli

RNG = np.random.default_rng(2026)
FUNCTIONS = {"sin": (np.sin, mp.sin), "cos": (np.cos, mp.cos), "tan": (np.tan, mp.tan)}
BOUND = {"sin": 4.0, "cos": 4.0, "tan": 5.0}   # OpenCL 1.2, table 7.1 and 7.2 (ulp)

SOURCE = """
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
__kernel void f(__global const T *a, __global T *out) { size_t i = get_global_id(0); out[i] = NAME(a[i]); }
"""


def near_inputs(dtype) -> np.ndarray:
    """Lanes all below 2^17: next to multiples of pi/2 (where the reduction cancels most), tiny
    values and signed zeros, and random ones; each group a multiple of 64 long."""
    multiples = (RNG.integers(1, 83000, 1024) * (np.pi / 2)).astype(dtype)
    tiny = np.array([0.0, -0.0, 1e-45, -1e-45, 1e-38, -3e-39, 2.0 ** -20, -2.0 ** -21], dtype)
    return np.concatenate([multiples, np.nextafter(multiples, dtype(np.inf)), np.nextafter(multiples, dtype(0)),
                           np.tile(tiny, 8), RNG.uniform(-2.0 ** 17, 2.0 ** 17, 1024).astype(dtype)])


def mixed_inputs(dtype) -> np.ndarray:
    """Every other lane far (up to 2^100), so every vector takes Payne-Hanek with near lanes in it."""
    x = near_inputs(dtype)
    x[::2] = (np.exp2(RNG.uniform(17.5, 100, x[::2].size)) * RNG.choice([-1.0, 1.0], x[::2].size)).astype(dtype)
    return x


def run(run_kernel, name: str, x: np.ndarray) -> np.ndarray:
    t = "float" if x.dtype == np.float32 else "double"
    source = SOURCE.replace("T ", f"{t} ").replace("NAME", name)
    return run_kernel(source, "f", (x.size,), (64,), x, np.zeros_like(x))[1]


def float_ulps(got: np.ndarray, x: np.ndarray, reference) -> np.ndarray:
    exact = reference(x.astype(np.float64))
    ulp = np.spacing(np.abs(exact.astype(np.float32))).astype(np.float64)
    return np.abs(got.astype(np.float64) - exact) / ulp


def double_ulps(got: np.ndarray, x: np.ndarray, reference) -> np.ndarray:
    errors = []
    for g, a in zip(got, x):
        exact = reference(mp.mpf(float(a)))
        ulp = np.spacing(abs(float(exact))) if float(exact) != 0 else 5e-324
        errors.append(float(abs(mp.mpf(float(g)) - exact)) / ulp)
    return np.array(errors)


@pytest.mark.parametrize("inputs", [near_inputs, mixed_inputs])
@pytest.mark.parametrize("name", list(FUNCTIONS))
def test_float_trig_within_opencl_ulp(run_kernel, name, inputs):
    x = inputs(np.float32)
    got = run(run_kernel, name, x)
    errors = float_ulps(got, x, FUNCTIONS[name][0])
    assert errors.max() <= BOUND[name], (x[errors.argmax()], got[errors.argmax()])
    if name != "cos":   # odd: the sign of a zero kept
        zeros = np.flatnonzero(x == 0)
        np.testing.assert_array_equal(np.signbit(got[zeros]), np.signbit(x[zeros]))


@pytest.mark.parametrize("inputs", [near_inputs, mixed_inputs])
@pytest.mark.parametrize("name", list(FUNCTIONS))
def test_double_trig_within_opencl_ulp(run_kernel, name, inputs):
    mp.mp.prec = 160
    x = inputs(np.float64)[::3]   # mpmath is slow: a third of the points, still runs of whole vectors
    x = x[: x.size // 64 * 64]
    got = run(run_kernel, name, x)
    errors = double_ulps(got, x, FUNCTIONS[name][1])
    assert errors.max() <= BOUND[name], (x[errors.argmax()], got[errors.argmax()])


@pytest.mark.parametrize("t", ["float", "double"])
def test_trig_loops_are_vectorized_with_a_branch_per_vector(tmp_path, capsys, t):
    path = tmp_path / "sin.cl"
    path.write_text(SOURCE.replace("T ", f"{t} ").replace("NAME", "sin"))
    assert cli.main(["build", str(path), "--emit", "llvm"]) == 0
    text = capsys.readouterr().out
    # the vector function's blocks, inlined (LLVM may rewrite the all-lanes test itself)
    assert re.search(r"^near\S*:", text, re.M) and re.search(r"^far\S*:", text, re.M), \
        "the vector sin lost its per-vector branch (or WFV declined the loop)"
