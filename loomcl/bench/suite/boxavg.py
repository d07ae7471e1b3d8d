"""The boxAvg family of seed 001 on a w x w image: the 5x5 box average four ways (see boxavg.cl).

Bytes count each launch's traffic with every buffer read or written once (the seed's "upper bound"
accounting: 8 B/pixel for a single pass, 16 for two passes through an intermediate image); the MP/s
column is the seed's unit, to set beside its 115 (boxAvg1) to 1500 (copy-bound) MP/s.
"""
from __future__ import annotations

import numpy as np

from ..case import Buf, Case, Launch, Problem, Tolerance
from .common import uniform

RANGE = 2
ROW_ITEMS = 32      # work-items of the block-of-rows kernels (V3, fused): a few per core


def box_average_1d(a, axis, dtype=np.float64):
    """Average over the window [i-RANGE, i+RANGE] clipped to the array, along one axis."""
    n = a.shape[axis]
    sums = np.cumsum(a, axis=axis, dtype=dtype)
    sums = np.concatenate([np.zeros_like(np.take(sums, [0], axis=axis)), sums], axis=axis)
    index = np.arange(n)
    low, high = np.maximum(index - RANGE, 0), np.minimum(index + RANGE + 1, n)
    shape = [1, 1]
    shape[axis] = n
    counts = (high - low).reshape(shape)
    return (np.take(sums, high, axis=axis) - np.take(sums, low, axis=axis)) / counts


def box_average(img, dtype=np.float64):
    """The clipped box average is separable: the count of a clipped box is the product of its sides."""
    return box_average_1d(box_average_1d(img, 1, dtype), 0, dtype)


def _image_problem(w, rng, buffers_extra, launches, bytes_per_pixel, flops_per_pixel):
    img = uniform(rng, (w, w))
    buffers = {"in": img, "out": np.zeros_like(img), **buffers_extra}
    return Problem(
        size=f"{w}x{w}", buffers=buffers, launches=launches,
        reference=lambda: {"out": box_average(img)},
        numpy=lambda: box_average(img, np.float32),
        bytes=bytes_per_pixel * w * w, flops=flops_per_pixel * w * w, rate=("MP/s", w * w))


def _dims(w):
    return np.int32(w), np.int32(w)


def box1_setup(w, rng):
    launch = Launch("boxAvg1", (w, w), (64, 4), (*_dims(w), Buf("in"), Buf("out")))
    return _image_problem(w, rng, {}, [launch], 8, 51)


def box_h1v1_setup(w, rng):
    tmp = np.zeros((w, w), np.float32)
    launches = [Launch("boxAvgH1", (w, w), (64, 4), (*_dims(w), Buf("in"), Buf("tmp"))),
                Launch("boxAvgV1", (w, w), (64, 4), (*_dims(w), Buf("tmp"), Buf("out")))]
    return _image_problem(w, rng, {"tmp": tmp}, launches, 16, 22)


def box_h4v3_setup(w, rng):
    tmp = np.zeros((w, w), np.float32)
    launches = [Launch("boxAvgH4", (w,), (8,), (*_dims(w), Buf("in"), Buf("tmp"))),
                Launch("boxAvgV3", (ROW_ITEMS,), (1,), (*_dims(w), Buf("tmp"), Buf("out")))]
    return _image_problem(w, rng, {"tmp": tmp}, launches, 16, 13)


def box_fused_setup(w, rng):
    aux = np.zeros(ROW_ITEMS * w, np.float32)
    launch = Launch("boxAvg2", (ROW_ITEMS,), (1,), (*_dims(w), Buf("in"), Buf("out"), Buf("aux")))
    return _image_problem(w, rng, {"aux": aux}, [launch], 8, 13)


# The sliding sums of H4 carry rounding along a row of w pixels: allow for it.
SLIDING = Tolerance(rtol=1e-4, atol=5e-4)

CASES = [
    Case("boxAvg1", "boxAvg", "001 listing 15-2", "boxavg.cl", box1_setup,
         quick=256, full=4096, tolerance=Tolerance(rtol=1e-5, atol=1e-6)),
    Case("boxAvgH1V1", "boxAvg", "001 listing 15-3", "boxavg.cl", box_h1v1_setup,
         quick=256, full=4096, tolerance=Tolerance(rtol=1e-5, atol=1e-6)),
    Case("boxAvgH4V3", "boxAvg", "001 listings 15-6, 15-7", "boxavg.cl", box_h4v3_setup,
         quick=256, full=4096, tolerance=SLIDING),
    Case("boxAvg2", "boxAvg", "001 listing 15-10", "boxavg_fused.cl", box_fused_setup,
         quick=256, full=4096, tolerance=SLIDING, needs=("float4",)),
]
