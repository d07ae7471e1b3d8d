"""Python twins of mandelbrot.cl, blackscholes.cl and nbody.cl."""
import math

import numpy as np

import loomcl as cl

f32 = np.float32
vectors = cl.global_ptr(cl.float4)


@cl.kernel
def mandelbrot(image: cl.global_ptr(np.int32), x_min: f32, y_min: f32, step: f32, width: np.int32,
               max_iter: np.uint32):
    tid = cl.global_id(0)
    x0 = x_min + step * float(tid % width)
    y0 = y_min + step * float(tid // width)
    x, y = x0, y0
    x2 = x * x
    y2 = y * y
    it = np.uint32(0)
    while x2 + y2 <= 4.0 and it < max_iter:
        y = 2.0 * x * y + y0
        x = x2 - y2 + x0
        x2 = x * x
        y2 = y * y
        it += 1
    image[tid] = 255 * it // max_iter


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


@cl.kernel
def nbody_step(pos: cl.global_ptr(cl.float4, const=True), vel: cl.global_ptr(cl.float4, const=True),
               new_pos: vectors, new_vel: vectors, tile: cl.local_ptr(cl.float4), n: np.int32, dt: f32, eps2: f32):
    gid = cl.global_id(0)
    lid = cl.local_id(0)
    lsize = cl.local_size(0)
    p = pos[gid]
    acc = cl.float4(0.0)
    for base in range(0, n, lsize):
        tile[lid] = pos[base + lid]
        cl.barrier(cl.LOCAL_MEM_FENCE)
        for j in range(lsize):
            q = tile[j]
            d = cl.float4(q.xyz - p.xyz, 0.0)
            inv_r = cl.rsqrt(cl.dot(d, d) + eps2)
            acc += (q.w * inv_r * inv_r * inv_r) * d
        cl.barrier(cl.LOCAL_MEM_FENCE)
    v = vel[gid]
    moved = p + v * dt + 0.5 * dt * dt * acc
    moved.w = p.w
    new_pos[gid] = moved
    new_vel[gid] = v + dt * acc
