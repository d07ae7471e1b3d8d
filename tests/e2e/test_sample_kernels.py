"""Kernels in the style of the vendors' SDK samples, written here, each run against numpy: an n-body
step with float4 and local-memory tiles, Black-Scholes with erf and with the CND polynomial, an 8x8
DCT through local memory, bitonic sort over many launches (global passes and a local-memory pass with
barriers in loops), Mandelbrot four pixels at a time with int4/float4 masks, and a particle update over
an array of structs (numpy structured dtype) and over a struct of arrays."""
from __future__ import annotations

import math

import numpy as np
import pytest

import loomcl as cl
from e2e_helpers import build

NBODY = """
/* One time step of an all-pairs n-body system. pos.w is the mass. Each work-group walks the bodies
 * tile by tile: every work-item stages one body of the tile in local memory. */
kernel void nbody_step(global const float4 *pos, global const float4 *vel,
                       global float4 *new_pos, global float4 *new_vel,
                       local float4 *tile, float dt, float eps2) {
    int i = get_global_id(0), l = get_local_id(0), n = get_global_size(0), t = get_local_size(0);
    float4 p = pos[i];
    float4 acc = (float4)(0.0f);
    for (int base = 0; base < n; base += t) {
        tile[l] = pos[base + l];
        barrier(CLK_LOCAL_MEM_FENCE);
        for (int j = 0; j < t; j++) {
            float4 d = tile[j] - p;
            d.w = 0.0f;
            float inv = rsqrt(dot(d, d) + eps2);
            acc += d * (tile[j].w * inv * inv * inv);
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    float4 v = vel[i] + acc * dt;
    float4 q = p + v * dt;
    q.w = p.w;
    new_pos[i] = q;
    new_vel[i] = v;
}
"""


def nbody_reference(pos, vel, dt, eps2):
    p, m = pos[:, :3].astype(np.float64), pos[:, 3].astype(np.float64)
    d = p[None, :, :] - p[:, None, :]
    inv = 1.0 / np.sqrt((d * d).sum(axis=2) + eps2)
    acc = (d * (m[None, :] * inv ** 3)[:, :, None]).sum(axis=1)
    v = vel[:, :3] + acc * dt
    return p + v * dt, v


@pytest.mark.parametrize("local", [16, 64])
def test_nbody_float4_tiles(run_kernel, rng, local):
    n, dt, eps2 = 256, np.float32(0.01), np.float32(0.05)
    pos = rng.uniform(-1, 1, (n, 4)).astype(np.float32)
    pos[:, 3] = rng.uniform(0.5, 1.5, n)
    vel = rng.uniform(-0.1, 0.1, (n, 4)).astype(np.float32)
    vel[:, 3] = 0
    *_, new_pos, new_vel = run_kernel(NBODY, "nbody_step", (n,), (local,), pos, vel,
                                      np.zeros_like(pos), np.zeros_like(vel),
                                      cl.LocalMemory(16 * local), dt, eps2)
    want_pos, want_vel = nbody_reference(pos, vel, dt, eps2)
    np.testing.assert_allclose(new_vel[:, :3], want_vel, rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(new_pos[:, :3], want_pos, rtol=1e-5, atol=1e-6)
    np.testing.assert_array_equal(new_pos[:, 3], pos[:, 3])


BLACK_SCHOLES = """
/* European call and put prices. CND(d) is the standard normal distribution, from erf or from the
 * Abramowitz-Stegun polynomial (26.2.17) that the SDK samples use. */
float cnd_erf(float d) { return 0.5f * (1.0f + erf(d * M_SQRT1_2_F)); }

float cnd_poly(float d) {
    const float a1 = 0.31938153f, a2 = -0.356563782f, a3 = 1.781477937f,
                a4 = -1.821255978f, a5 = 1.330274429f;
    const float inv_sqrt_2pi = 0.39894228040143267794f;
    float k = 1.0f / (1.0f + 0.2316419f * fabs(d));
    float w = 1.0f - inv_sqrt_2pi * exp(-0.5f * d * d)
                     * k * (a1 + k * (a2 + k * (a3 + k * (a4 + k * a5))));
    return d < 0.0f ? 1.0f - w : w;
}

kernel void black_scholes(global const float *spot, global const float *strike,
                          global const float *years, global float *call, global float *put,
                          float rate, float volatility, int use_erf) {
    int i = get_global_id(0);
    float s = spot[i], x = strike[i], t = years[i];
    float sqrt_t = sqrt(t);
    float d1 = (log(s / x) + (rate + 0.5f * volatility * volatility) * t) / (volatility * sqrt_t);
    float d2 = d1 - volatility * sqrt_t;
    float n1 = use_erf ? cnd_erf(d1) : cnd_poly(d1);
    float n2 = use_erf ? cnd_erf(d2) : cnd_poly(d2);
    float discount = exp(-rate * t);
    call[i] = s * n1 - x * discount * n2;
    put[i] = x * discount * (1.0f - n2) - s * (1.0f - n1);
}
"""


@pytest.mark.parametrize("use_erf", [1, 0])
def test_black_scholes(run_kernel, rng, use_erf):
    from scipy.special import ndtr

    n, rate, vol = 4000, 0.02, 0.30
    s = rng.uniform(5, 30, n).astype(np.float32)
    x = rng.uniform(1, 100, n).astype(np.float32)
    t = rng.uniform(0.25, 10, n).astype(np.float32)
    *_, call, put = run_kernel(BLACK_SCHOLES, "black_scholes", (n,), (64,), s, x, t,
                               np.zeros(n, np.float32), np.zeros(n, np.float32),
                               np.float32(rate), np.float32(vol), np.int32(use_erf))
    s64, x64, t64 = (a.astype(np.float64) for a in (s, x, t))
    d1 = (np.log(s64 / x64) + (rate + 0.5 * vol * vol) * t64) / (vol * np.sqrt(t64))
    d2 = d1 - vol * np.sqrt(t64)
    discount = np.exp(-rate * t64)
    want_call = s64 * ndtr(d1) - x64 * discount * ndtr(d2)
    want_put = x64 * discount * ndtr(-d2) - s64 * ndtr(-d1)
    # float32 arithmetic on prices up to 100: the polynomial CND adds its 7.5e-8 error
    np.testing.assert_allclose(call, want_call, rtol=1e-4, atol=2e-4)
    np.testing.assert_allclose(put, want_put, rtol=1e-4, atol=2e-4)


DCT8 = """
/* The 8x8 DCT-II of each block of an image: one work-group per block, one work-item per
 * coefficient. The block and the row-transformed block live in local memory. */
#define B 8

float basis(int k, int n) {
    float scale = k == 0 ? M_SQRT1_2_F * 0.5f : 0.5f;
    return scale * cospi((2 * n + 1) * k / (2.0f * B));
}

kernel void dct8x8(global const float *image, global float *out, int width) {
    local float block[B][B];
    local float rows[B][B];
    int x = get_local_id(0), y = get_local_id(1);
    int gx = get_global_id(0), gy = get_global_id(1);
    block[y][x] = image[gy * width + gx];
    barrier(CLK_LOCAL_MEM_FENCE);
    float sum = 0.0f;
    for (int n = 0; n < B; n++)
        sum += basis(x, n) * block[y][n];        /* row y, frequency x */
    rows[y][x] = sum;
    barrier(CLK_LOCAL_MEM_FENCE);
    sum = 0.0f;
    for (int n = 0; n < B; n++)
        sum += basis(y, n) * rows[n][x];         /* column x, frequency y */
    out[gy * width + gx] = sum;
}
"""


def dct_matrix():
    k, n = np.meshgrid(np.arange(8), np.arange(8), indexing="ij")
    d = 0.5 * np.cos((2 * n + 1) * k * np.pi / 16)
    d[0] /= math.sqrt(2)
    return d


def test_dct_8x8_blocks_through_local_memory(run_kernel, rng):
    h, w = 32, 48
    image = rng.uniform(-128, 128, (h, w)).astype(np.float32)
    _, out = run_kernel(DCT8, "dct8x8", (w, h), (8, 8), image, np.zeros_like(image), np.int32(w))
    d = dct_matrix()
    blocks = image.astype(np.float64).reshape(h // 8, 8, w // 8, 8).transpose(0, 2, 1, 3)
    want = (d @ blocks @ d.T).transpose(0, 2, 1, 3).reshape(h, w)
    np.testing.assert_allclose(out, want, atol=2e-3)
    # orthonormal: the transform keeps each block's energy
    np.testing.assert_allclose((out.astype(np.float64) ** 2).sum(), (image.astype(np.float64) ** 2).sum(),
                               rtol=1e-5)


BITONIC = """
/* Bitonic sort of 2^m keys. `bitonic_local` sorts each work-group's slice in local memory (barriers
 * inside both loops, directions alternating by group so that slices pair into bitonic sequences);
 * `bitonic_global` runs one compare-exchange pass (k, j) over the whole array per launch. */
kernel void bitonic_local(global uint *keys, local uint *slice) {
    int l = get_local_id(0), n = get_local_size(0), g = get_global_id(0);
    slice[l] = keys[g];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int k = 2; k <= n; k <<= 1) {
        for (int j = k >> 1; j > 0; j >>= 1) {
            int partner = l ^ j;
            if (partner > l) {
                bool up = (g & k) == 0;     /* at k = n: even slices up, odd ones down */
                uint a = slice[l], b = slice[partner];
                if ((a > b) == up) { slice[l] = b; slice[partner] = a; }
            }
            barrier(CLK_LOCAL_MEM_FENCE);
        }
    }
    keys[g] = slice[l];
}

kernel void bitonic_global(global uint *keys, uint k, uint j) {
    uint i = get_global_id(0), partner = i ^ j;
    if (partner > i) {
        uint a = keys[i], b = keys[partner];
        bool up = (i & k) == 0;
        if ((a > b) == up) { keys[i] = b; keys[partner] = a; }
    }
}
"""


@pytest.mark.parametrize("n,local", [(1024, 64), (4096, 256)])
def test_bitonic_sort_over_many_launches(ctx, queue, rng, n, local):
    keys = rng.integers(0, 2**32, n, dtype=np.uint32)
    prg = build(ctx, BITONIC)
    mf = cl.mem_flags
    buf = cl.Buffer(ctx, mf.READ_WRITE | mf.COPY_HOST_PTR, hostbuf=keys)
    prg.bitonic_local(queue, (n,), (local,), buf, cl.LocalMemory(4 * local))
    partly = np.empty_like(keys)
    cl.enqueue_copy(queue, partly, buf)
    for start in range(0, n, local):  # each slice sorted, alternately up and down
        piece = partly[start:start + local]
        want = np.sort(keys[start:start + local])
        np.testing.assert_array_equal(piece, want if (start // local) % 2 == 0 else want[::-1])
    launches = 0
    k = 2 * local
    while k <= n:
        j = k // 2
        while j > 0:
            prg.bitonic_global(queue, (n,), None, buf, np.uint32(k), np.uint32(j))
            launches += 1
            j //= 2
        k *= 2
    out = np.empty_like(keys)
    cl.enqueue_copy(queue, out, buf)
    queue.finish()
    assert launches > 1
    np.testing.assert_array_equal(out, np.sort(keys))


MANDELBROT4 = """
/* Escape counts of four horizontally adjacent pixels per work-item: float4 coordinates, an int4
 * mask from the vector comparison (-1 where still inside), counts advanced by subtracting it. */
kernel void mandelbrot4(global int4 *counts, float x0, float y0, float step, int width4,
                        int max_iter) {
    int i = get_global_id(0);
    int px = (i % width4) * 4, py = i / width4;
    float4 cr = x0 + step * (float4)(px, px + 1, px + 2, px + 3);
    float4 ci = (float4)(y0 + step * py);
    float4 zr = 0.0f, zi = 0.0f;
    int4 count = 0;
    for (int it = 0; it < max_iter; it++) {
        float4 zr2 = zr * zr, zi2 = zi * zi;
        int4 inside = zr2 + zi2 <= 4.0f;
        if (!any(inside))
            break;
        count -= inside;
        float4 t = zr2 - zi2 + cr;
        zi = select(zi, 2.0f * zr * zi + ci, inside);
        zr = select(zr, t, inside);
    }
    counts[i] = count;
}
"""


def mandelbrot_reference(x0, y0, step, width, height, max_iter):
    f = np.float32
    px, py = np.meshgrid(np.arange(width, dtype=f), np.arange(height, dtype=f))
    cr, ci = f(x0) + f(step) * px, np.broadcast_to(f(y0) + f(step) * py, px.shape)
    zr, zi = np.zeros_like(cr), np.zeros_like(ci)
    count = np.zeros(cr.shape, np.int32)
    for _ in range(max_iter):
        zr2, zi2 = zr * zr, zi * zi
        inside = zr2 + zi2 <= f(4)
        if not inside.any():
            break
        count += inside
        t = zr2 - zi2 + cr
        zi = np.where(inside, f(2) * zr * zi + ci, zi)
        zr = np.where(inside, t, zr)
    return count


def test_mandelbrot_int4_float4(run_kernel):
    width, height, max_iter = 128, 96, 200
    x0, y0, step = -2.0, -1.125, 2.5 / width
    (counts,) = run_kernel(MANDELBROT4, "mandelbrot4", (width // 4 * height,), (32,),
                           np.zeros((height, width), np.int32), np.float32(x0), np.float32(y0),
                           np.float32(step), np.int32(width // 4), np.int32(max_iter))
    want = mandelbrot_reference(x0, y0, step, width, height, max_iter)
    assert want.max() == max_iter and want.min() < 5   # the picture has both kinds of pixel
    # a work-item stops when its own four pixels are out, numpy when all are: identical counts
    # unless the two compilations round differently (contraction into FMA), which flips a few
    # pixels on the set's boundary
    differ = np.count_nonzero(counts != want)
    assert differ <= counts.size // 200, f"{differ} of {counts.size} pixels differ"


PARTICLES = """
/* A particle step with gravity and a floor, written twice: over an array of structs (the layout of
 * a numpy structured dtype with align=True) and over a struct of arrays (one array per field). */
typedef struct {
    float4 pos;
    float4 vel;
    float mass;
    char alive;
    double energy;
} particle;

void advance(float4 *pos, float4 *vel, float dt, int *alive) {
    const float4 gravity = (float4)(0.0f, -9.81f, 0.0f, 0.0f);
    *vel += gravity * dt;
    *pos += *vel * dt;
    if ((*pos).y < 0.0f) {            /* bounce, losing half the speed; slow ones come to rest */
        (*pos).y = -(*pos).y;
        (*vel).y = -0.5f * (*vel).y;
        *alive = fabs((*vel).y) > 0.1f;
    }
}

kernel void particles_aos(global particle *ps, float dt, global int *sizes) {
    int i = get_global_id(0);
    particle p = ps[i];
    int alive = p.alive;
    advance(&p.pos, &p.vel, dt, &alive);
    p.alive = (char)alive;
    p.energy = 0.5 * p.mass * dot(p.vel.xyz, p.vel.xyz) + (double)(p.mass * 9.81f * p.pos.y);
    ps[i] = p;
    if (i == 0) sizes[0] = sizeof(particle);
}

kernel void particles_soa(global float4 *pos, global float4 *vel, global const float *mass,
                          global char *alive, global double *energy, float dt) {
    int i = get_global_id(0);
    float4 p = pos[i], v = vel[i];
    int live = alive[i];
    advance(&p, &v, dt, &live);
    pos[i] = p; vel[i] = v; alive[i] = (char)live;
    energy[i] = 0.5 * mass[i] * dot(v.xyz, v.xyz) + (double)(mass[i] * 9.81f * p.y);
}
"""

PARTICLE = np.dtype([("pos", np.float32, 4), ("vel", np.float32, 4), ("mass", np.float32),
                     ("alive", np.int8), ("energy", np.float64)], align=True)


def particles_reference(pos, vel, mass, alive, dt):
    f = np.float32
    vel = vel.copy()
    pos = pos.copy()
    alive = alive.astype(np.int32)
    vel[:, 1] -= f(9.81) * f(dt)
    pos += vel * f(dt)
    low = pos[:, 1] < 0
    pos[low, 1] = -pos[low, 1]
    vel[low, 1] *= f(-0.5)
    alive[low] = np.abs(vel[low, 1]) > f(0.1)
    speed2 = (vel[:, :3].astype(np.float64) ** 2).sum(axis=1)
    energy = 0.5 * mass * speed2 + mass.astype(np.float64) * 9.81 * pos[:, 1]
    return pos, vel, alive, energy


def random_particles(rng, n):
    ps = np.zeros(n, PARTICLE)
    ps["pos"] = rng.uniform(-0.05, 1, (n, 4))
    ps["vel"] = rng.uniform(-3, 3, (n, 4))
    ps["pos"][:, 3] = ps["vel"][:, 3] = 0
    ps["mass"] = rng.uniform(0.1, 2, n)
    ps["alive"] = 1
    return ps


def test_particles_array_of_structs(run_kernel, rng):
    n, dt = 500, np.float32(0.05)
    ps = random_particles(rng, n)
    out, sizes = run_kernel(PARTICLES, "particles_aos", (n,), (50,), ps, dt, np.zeros(1, np.int32))
    assert sizes[0] == PARTICLE.itemsize == 48
    pos, vel, alive, energy = particles_reference(ps["pos"], ps["vel"], ps["mass"], ps["alive"], dt)
    assert 0 < np.count_nonzero(alive == 0) < n
    np.testing.assert_allclose(out["pos"], pos, rtol=1e-6, atol=1e-6)
    np.testing.assert_allclose(out["vel"], vel, rtol=1e-6, atol=1e-6)
    np.testing.assert_array_equal(out["alive"], alive)
    np.testing.assert_array_equal(out["mass"], ps["mass"])
    np.testing.assert_allclose(out["energy"], energy, rtol=1e-5)


def test_particles_struct_of_arrays_agrees(run_kernel, rng):
    n, dt = 500, np.float32(0.05)
    ps = random_particles(rng, n)
    pos, vel, _, alive, energy = run_kernel(
        PARTICLES, "particles_soa", (n,), (50,), ps["pos"].copy(), ps["vel"].copy(),
        ps["mass"].copy(), ps["alive"].copy(), np.zeros(n), dt)
    (aos, _) = run_kernel(PARTICLES, "particles_aos", (n,), (50,), ps, dt, np.zeros(1, np.int32))
    np.testing.assert_array_equal(pos, aos["pos"])
    np.testing.assert_array_equal(vel, aos["vel"])
    np.testing.assert_array_equal(alive, aos["alive"])
    np.testing.assert_array_equal(energy, aos["energy"])


WARP_SUMS = """
/* Rows summed by 32 work-items each, the partial sums reduced through `local volatile` memory (the
 * shape of SHOC's spmv_csr_vector_kernel, written here). Volatile accesses inside a work-item loop
 * once made LLVM's loop vectorizer abort the process (an assertion in VPlanRecipes.cpp). */
kernel void row_sums(global const float *val, global const int *starts, global float *out, int rows) {
    int t = get_local_id(0), lane = t & 31;
    int row = get_group_id(0) * (get_local_size(0) / 32) + t / 32;
    local volatile float partial[128];
    partial[t] = 0;
    float sum = 0;
    if (row < rows)
        for (int j = starts[row] + lane; j < starts[row + 1]; j += 32)
            sum += val[j];
    partial[t] = sum;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int step = 16; step > 0; step >>= 1) {
        if (lane < step) partial[t] += partial[t + step];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (lane == 0 && row < rows) out[row] = partial[t];
}
"""


@pytest.mark.parametrize("local", [64, 128])
def test_volatile_local_reduction(run_kernel, rng, local):
    rows = 37
    lengths = rng.integers(0, 90, rows)
    starts = np.concatenate([[0], np.cumsum(lengths)]).astype(np.int32)
    val = rng.random(starts[-1]).astype(np.float32)
    groups = -(-rows * 32 // local)
    *_, out = run_kernel(WARP_SUMS, "row_sums", (groups * local,), (local,), val, starts,
                         np.zeros(rows, np.float32), np.int32(rows))
    want = [val[starts[r]:starts[r + 1]].astype(np.float64).sum() for r in range(rows)]
    np.testing.assert_allclose(out, want, rtol=1e-5)
