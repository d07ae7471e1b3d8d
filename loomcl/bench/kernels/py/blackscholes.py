"""Python twin of blackscholes.cl: European options, the cumulative normal as a @cl.func helper."""
import math

import numpy as np

import loomcl as cl

f32 = np.float32


@cl.func
def cumulative_normal(d):
    """The Abramowitz-Stegun polynomial of the cumulative normal distribution."""
    k = 1.0 / (1.0 + 0.2316419 * abs(d))
    poly = k * (0.31938153 + k * (-0.356563782 + k * (1.781477937 + k * (-1.821255978 + k * 1.330274429))))
    tail = 0.39894228040143267794 * math.exp(-0.5 * d * d) * poly
    return 1.0 - tail if d > 0.0 else tail


@cl.kernel
def blackScholes(call: cl.global_ptr(f32), put: cl.global_ptr(f32), spot: cl.global_ptr(f32, const=True),
                 strike: cl.global_ptr(f32, const=True), years: cl.global_ptr(f32, const=True), rate: f32,
                 volatility: f32):
    i = cl.global_id(0)
    s = spot[i]
    x = strike[i]
    t = years[i]
    sqrt_t = math.sqrt(t)
    d1 = (math.log(s / x) + (rate + 0.5 * volatility * volatility) * t) / (volatility * sqrt_t)
    d2 = d1 - volatility * sqrt_t
    discount = x * math.exp(-rate * t)
    n1 = cumulative_normal(d1)
    n2 = cumulative_normal(d2)
    call[i] = s * n1 - discount * n2
    put[i] = discount * (1.0 - n2) - s * (1.0 - n1)
