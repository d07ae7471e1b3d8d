"""Compute-bound cases of seed 000's Table 1: Mandelbrot, Black-Scholes, NBody, DCT 8x8.

Flops count the arithmetic of the source, a math builtin (exp, log, sqrt, rsqrt) as one operation.
"""
from __future__ import annotations

import math

import numpy as np

from ..case import Buf, Case, Launch, Local, Problem, Tolerance
from .common import count_label, uniform

MAX_ITER = 256
FLOPS_PER_ITERATION = 8     # 2*x*y + y0, x2 - y2 + x0, two squares, the x2 + y2 test


def mandelbrot_counts(width, height, x_min, y_min, step, max_iter):
    """Escape counts in float32, as the kernel computes them; the loop runs only on pixels not yet out."""
    f = np.float32
    tid = np.arange(width * height)
    x0 = f(x_min) + f(step) * (tid % width).astype(f)
    y0 = f(y_min) + f(step) * (tid // width).astype(f)
    x, y = x0.copy(), y0.copy()
    x2, y2 = x * x, y * y
    counts = np.zeros(tid.size, np.uint32)
    live = np.arange(tid.size)
    for _ in range(max_iter):
        inside = x2 + y2 <= f(4.0)
        live, x, y, x2, y2 = live[inside], x[inside], y[inside], x2[inside], y2[inside]
        if live.size == 0:
            break
        counts[live] += 1
        y = f(2.0) * x * y + y0[live]
        x = x2 - y2 + x0[live]
        x2, y2 = x * x, y * y
    return counts


def mandelbrot_setup(n, rng):
    x_min, y_min, step = np.float32(-2.0), np.float32(-1.5), np.float32(3.0 / n)
    counts = mandelbrot_counts(n, n, x_min, y_min, step, MAX_ITER)
    image = (255 * counts // MAX_ITER).astype(np.int32)
    return Problem(
        size=f"{n}x{n}",
        buffers={"image": np.zeros(n * n, np.int32)},
        launches=[Launch("mandelbrot", (n * n,), (256,),
                         (Buf("image"), x_min, y_min, step, np.int32(n), np.uint32(MAX_ITER)))],
        reference=lambda: {"image": image},
        numpy=lambda: mandelbrot_counts(n, n, x_min, y_min, step, MAX_ITER),
        bytes=4 * n * n, flops=FLOPS_PER_ITERATION * float(counts.sum()), rate=("MP/s", n * n))


def cumulative_normal(d):
    k = 1.0 / (1.0 + 0.2316419 * np.abs(d))
    poly = k * (0.31938153 + k * (-0.356563782 + k * (1.781477937 + k * (-1.821255978 + k * 1.330274429))))
    tail = 0.39894228040143267794 * np.exp(-0.5 * d * d) * poly
    return np.where(d > 0, 1.0 - tail, tail)


def black_scholes(s, x, t, rate, vol):
    sqrt_t = np.sqrt(t)
    d1 = (np.log(s / x) + (rate + 0.5 * vol * vol) * t) / (vol * sqrt_t)
    d2 = d1 - vol * sqrt_t
    discount = x * np.exp(-rate * t)
    n1, n2 = cumulative_normal(d1), cumulative_normal(d2)
    return s * n1 - discount * n2, discount * (1.0 - n2) - s * (1.0 - n1)


def blackscholes_setup(n, rng):
    spot, strike, years = uniform(rng, n, 5, 30), uniform(rng, n, 1, 100), uniform(rng, n, 0.25, 10)
    rate, vol = np.float32(0.02), np.float32(0.30)

    def reference():
        call, put = black_scholes(spot.astype(np.float64), strike.astype(np.float64),
                                  years.astype(np.float64), float(rate), float(vol))
        return {"call": call, "put": put}

    return Problem(
        size=count_label(n),
        buffers={"call": np.zeros(n, np.float32), "put": np.zeros(n, np.float32),
                 "spot": spot, "strike": strike, "years": years},
        launches=[Launch("blackScholes", (n,), (256,), (Buf("call"), Buf("put"), Buf("spot"),
                                                        Buf("strike"), Buf("years"), rate, vol))],
        reference=reference,
        numpy=lambda: black_scholes(spot, strike, years, rate, vol),
        bytes=20 * n, flops=58 * n)


NBODY_LOCAL = 256


def nbody_reference(pos, vel, dt, eps2, chunk=256):
    p = pos.astype(np.float64)
    acc = np.zeros((len(p), 3))
    for start in range(0, len(p), chunk):
        d = p[None, :, :3] - p[start:start + chunk, None, :3]
        inv_r = 1.0 / np.sqrt((d * d).sum(axis=2) + eps2)
        acc[start:start + chunk] = ((p[None, :, 3] * inv_r ** 3)[:, :, None] * d).sum(axis=1)
    new_pos = p.copy()
    new_pos[:, :3] += vel[:, :3] * dt + 0.5 * dt * dt * acc
    new_vel = vel.astype(np.float64)
    new_vel[:, :3] += dt * acc
    return new_pos, new_vel


def nbody_setup(n, rng):
    pos = uniform(rng, (n, 4), -1, 1)
    pos[:, 3] = uniform(rng, n, 0.5, 1.5) / n
    vel = uniform(rng, (n, 4), -0.1, 0.1)
    vel[:, 3] = 0
    dt, eps2 = np.float32(0.005), np.float32(0.01)

    def reference():
        new_pos, new_vel = nbody_reference(pos, vel, float(dt), float(eps2))
        return {"new_pos": new_pos, "new_vel": new_vel}

    return Problem(
        size=count_label(n),
        buffers={"pos": pos, "vel": vel, "new_pos": np.zeros_like(pos), "new_vel": np.zeros_like(vel)},
        launches=[Launch("nbody_step", (n,), (NBODY_LOCAL,),
                         (Buf("pos"), Buf("vel"), Buf("new_pos"), Buf("new_vel"),
                          Local(16 * NBODY_LOCAL), np.int32(n), dt, eps2))],
        reference=reference,
        bytes=64 * n, flops=20.0 * n * n)


def dct_basis():
    d = np.zeros((8, 8))
    for u in range(8):
        scale = math.sqrt((1 if u == 0 else 2) / 8)
        for x in range(8):
            d[u, x] = scale * math.cos((2 * x + 1) * u * math.pi / 16)
    return d


def dct8x8(img, basis):
    h, w = img.shape
    blocks = img.reshape(h // 8, 8, w // 8, 8).transpose(0, 2, 1, 3)
    out = basis @ blocks @ basis.T
    return out.transpose(0, 2, 1, 3).reshape(h, w)


def dct_setup(n, rng):
    img = uniform(rng, (n, n), 0, 255)
    basis = dct_basis()
    basis32 = basis.astype(np.float32)
    return Problem(
        size=f"{n}x{n}",
        buffers={"out": np.zeros_like(img), "in": img, "basis": basis32},
        launches=[Launch("dct8x8", (n, n), (8, 8), (Buf("out"), Buf("in"), Buf("basis"), np.int32(n)))],
        reference=lambda: {"out": dct8x8(img.astype(np.float64), basis)},
        numpy=lambda: dct8x8(img, basis32),
        bytes=8 * n * n, flops=32 * n * n)


CASES = [
    Case("mandelbrot", "compute", "000 Fig. 11", "mandelbrot.cl", mandelbrot_setup,
         quick=256, full=1024,
         tolerance=Tolerance(atol=0, max_bad_fraction=0.01),
         note="contracted fma may flip escape counts at the set's edge"),
    Case("blackScholes", "compute", "000 Table 1 BlackScholes (SDK)", "blackscholes.cl", blackscholes_setup,
         quick=1 << 16, full=1 << 21, tolerance=Tolerance(rtol=1e-3, atol=2e-3)),
    Case("nbody", "compute", "000 Table 1 NBody (SDK)", "nbody.cl", nbody_setup,
         quick=1024, full=8192, tolerance=Tolerance(rtol=1e-3, atol=1e-4), needs=("float4", "rsqrt", "dot")),
    Case("dct8x8", "compute", "000 Table 1 DCT (SDK)", "dct.cl", dct_setup,
         quick=256, full=2048, tolerance=Tolerance(rtol=1e-4, atol=2e-3)),
]
