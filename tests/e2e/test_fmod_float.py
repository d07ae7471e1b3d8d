"""Float fmod (and remainder, built on it) is exact and vectorizes: bit for bit numpy's C library over
random bit patterns (every exponent distance, subnormals, NaNs, infinities) and the special values,
with no fmodf call left in the work-item loop."""
from __future__ import annotations

import math
import re

import numpy as np

from loomcl.driver import backend
from loomcl.driver import compiler

SOURCE = """
__kernel void f(__global const float *a, __global const float *b, __global float *out) {
    int i = get_global_id(0);
    out[i] = NAME(a[i], b[i]);
}
"""
SPECIALS = np.array([0, -0.0, np.inf, -np.inf, np.nan, 1, -1, 1e-45, -1e-45, 3.4e38, 1.2e-38, 0.5, 7, -3], np.float32)


def inputs():
    rng = np.random.default_rng(17)
    n = 1 << 16
    random_bits = [rng.integers(0, 2 ** 32, n, dtype=np.uint64).astype(np.uint32).view(np.float32) for _ in range(2)]
    gx, gy = (a.ravel() for a in np.meshgrid(SPECIALS, SPECIALS))
    x = np.concatenate([random_bits[0], rng.uniform(-100, 100, n).astype(np.float32), gx])
    y = np.concatenate([random_bits[1], rng.uniform(-10, 10, n).astype(np.float32), gy])
    return x, y


def same_bits(got, expected):
    return (np.isnan(got) & np.isnan(expected)) | (got.view(np.int32) == expected.view(np.int32))


def test_fmod_is_exact(run_kernel):
    x, y = inputs()
    got = run_kernel(SOURCE.replace("NAME", "fmod"), "f", (x.size,), None, x, y, np.zeros_like(x))[2]
    with np.errstate(all="ignore"):
        expected = np.fmod(x, y)
    bad = ~same_bits(got, expected)
    assert not bad.any(), list(zip(x[bad], y[bad], got[bad], expected[bad]))[:5]


def test_remainder_is_exact(run_kernel):
    x, y = inputs()
    got = run_kernel(SOURCE.replace("NAME", "remainder"), "f", (x.size,), None, x, y, np.zeros_like(x))[2]

    def reference(a, b):
        if math.isnan(a) or math.isnan(b) or math.isinf(a) or b == 0:
            return math.nan
        return a if math.isinf(b) else math.remainder(a, b)

    expected = np.array([reference(float(a), float(b)) for a, b in zip(x, y)], np.float32)
    bad = ~same_bits(got, expected)
    assert not bad.any(), list(zip(x[bad], y[bad], got[bad], expected[bad]))[:5]


def test_fmod_vectorizes_without_libm_calls():
    program = compiler.build(SOURCE.replace("NAME", "fmod"))
    text = backend.llvm_ir(program.work_group_ir("f", (256, 1, 1), ids_fit_int=True), program.kernels["f"],
                           program.options)
    assert "x float>" in text and "x double>" in text
    assert not re.search(r"call .*@fmodf?\(|= frem ", text)
