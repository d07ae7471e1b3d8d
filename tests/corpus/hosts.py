"""Host programs, written here, for public kernels of simple shape: each launches the kernels of one
file on small random inputs the way the benchmark's own host does, and asserts the result against
numpy. A host takes the file's source and build options; sizes are chosen so that the global size is
rounded up past the problem size, as the benchmarks do, so the kernels' guards matter."""
from __future__ import annotations

import collections

import numpy as np

import loomcl as cl

from ..e2e.e2e_helpers import launch

f32 = np.float32
_RNG = np.random.default_rng(7)
_CONTEXT = []


def session():
    if not _CONTEXT:
        ctx = cl.create_some_context(interactive=False)
        _CONTEXT.extend([ctx, cl.CommandQueue(ctx)])
    return _CONTEXT


def run(src, options, name, global_size, local_size, *args):
    ctx, queue = session()
    return launch(ctx, queue, src, name, global_size, local_size, *args, options=options)


def up(n, local):
    return -(-n // local) * local


def rand(*shape):
    return _RNG.random(shape, dtype=np.float32)


def close(actual, expected, rtol=2e-4, atol=2e-4):
    np.testing.assert_allclose(actual, expected, rtol=rtol, atol=atol)


# ---- PolyBench/GPU


def gemm(src, options):
    ni, nj, nk = 37, 45, 29
    a, b, c = rand(ni, nk), rand(nk, nj), rand(ni, nj)
    alpha, beta = f32(1.5), f32(1.2)
    *_, out = run(src, options, "gemm", (up(nj, 8), up(ni, 8)), (8, 8), a, b, c, alpha, beta,
                  np.int32(ni), np.int32(nj), np.int32(nk))
    close(out, alpha * a @ b + beta * c)


def mm2(src, options):
    ni, nj, nk, nl = 21, 34, 19, 27
    a, b, c, d = rand(ni, nk), rand(nk, nj), rand(nj, nl), rand(ni, nl)
    alpha, beta = f32(1.5), f32(1.2)
    sizes = [np.int32(v) for v in (ni, nj, nk, nl)]
    tmp, *_ = run(src, options, "mm2_kernel1", (up(nj, 8), up(ni, 8)), (8, 8), np.zeros((ni, nj), f32),
                  a, b, *sizes, alpha, beta)
    *_, out = run(src, options, "mm2_kernel2", (up(nl, 8), up(ni, 8)), (8, 8), tmp, c, d, *sizes,
                  alpha, beta)
    close(tmp, alpha * a @ b)
    close(out, beta * d + (alpha * a @ b) @ c)


def atax(src, options):
    nx, ny = 41, 53
    a, x = rand(nx, ny), rand(ny)
    _, _, tmp = run(src, options, "atax_kernel1", (up(nx, 16),), (16,), a, x, np.zeros(nx, f32),
                    np.int32(nx), np.int32(ny))
    _, y, _ = run(src, options, "atax_kernel2", (up(ny, 16),), (16,), a, np.zeros(ny, f32), tmp,
                  np.int32(nx), np.int32(ny))
    close(y, a.T @ (a @ x), rtol=1e-3)


def bicg(src, options):
    nx, ny = 41, 53
    a, p, r = rand(nx, ny), rand(ny), rand(nx)
    *_, q = run(src, options, "bicgKernel1", (up(nx, 16),), (16,), a, p, np.zeros(nx, f32),
                np.int32(nx), np.int32(ny))
    *_, s = run(src, options, "bicgKernel2", (up(ny, 16),), (16,), a, r, np.zeros(ny, f32),
                np.int32(nx), np.int32(ny))
    close(q, a @ p)
    close(s, a.T @ r)


def gesummv(src, options):
    n = 45
    a, b, x = rand(n, n), rand(n, n), rand(n)
    alpha, beta = f32(1.5), f32(1.2)
    *_, y, tmp = run(src, options, "gesummv_kernel", (up(n, 16),), (16,), a, b, x, np.zeros(n, f32),
                     np.zeros(n, f32), alpha, beta, np.int32(n))
    close(tmp, a @ x)
    close(y, alpha * (a @ x) + beta * (b @ x))


def mvt(src, options):
    n = 45
    a, x1, x2, y1, y2 = rand(n, n), rand(n), rand(n), rand(n), rand(n)
    _, out1, _ = run(src, options, "mvt_kernel1", (up(n, 16),), (16,), a, x1, y1, np.int32(n))
    _, out2, _ = run(src, options, "mvt_kernel2", (up(n, 16),), (16,), a, x2, y2, np.int32(n))
    close(out1, x1 + a @ y1)
    close(out2, x2 + a.T @ y2)


def syrk(src, options):
    ni, nj = 23, 31
    a, c = rand(nj, ni), rand(nj, nj)
    alpha, beta = f32(1.5), f32(1.2)
    _, out = run(src, options, "syrk_kernel", (up(nj, 8), up(nj, 8)), (8, 8), a, c, alpha, beta,
                 np.int32(ni), np.int32(nj))
    close(out, alpha * a @ a.T + beta * c)


def covariance(src, options):
    m, n = 27, 35
    data = rand(n, m)
    dims = (np.int32(m), np.int32(n))
    mean, _ = run(src, options, "mean_kernel", (up(m, 16),), (16,), np.zeros(m, f32), data, f32(n), *dims)
    _, centred = run(src, options, "reduce_kernel", (up(m, 8), up(n, 8)), (8, 8), mean, data, *dims)
    symmat, _ = run(src, options, "covar_kernel", (up(m, 16),), (16,), np.zeros((m, m), f32), centred, *dims)
    want = data - data.mean(axis=0)
    close(mean, data.mean(axis=0))
    close(symmat, want.T @ want, rtol=1e-3, atol=1e-3)


def correlation(src, options):
    m, n = 27, 35
    data = rand(n, m)
    dims = (np.int32(m), np.int32(n))
    mean, _ = run(src, options, "mean_kernel", (up(m, 16),), (16,), np.zeros(m, f32), data, f32(n), *dims)
    _, std, _ = run(src, options, "std_kernel", (up(m, 16),), (16,), mean, np.zeros(m, f32), data, f32(n),
                    f32(0.005), *dims)
    *_, normal = run(src, options, "reduce_kernel", (up(m, 8), up(n, 8)), (8, 8), mean, std, data,
                     f32(n), *dims)
    symmat, _ = run(src, options, "corr_kernel", (up(m, 16),), (16,), np.zeros((m, m), f32), normal, *dims)
    want = np.corrcoef(data.astype(np.float64), rowvar=False)
    want[m - 1, m - 1] = 0  # the benchmark's host sets this one element itself
    close(std, data.std(axis=0))
    close(symmat, want, rtol=1e-3, atol=1e-4)


def gemver(src, options):
    n = 37
    a, u1, v1, u2, v2 = rand(n, n), rand(n), rand(n), rand(n), rand(n)
    x, y, z, w = rand(n), rand(n), rand(n), np.zeros(n, f32)
    alpha, beta = f32(1.5), f32(1.2)
    a2, *_ = run(src, options, "gemver_kernel1", (up(n, 8), up(n, 8)), (8, 8), a, v1, v2, u1, u2, np.int32(n))
    _, x2, _, _ = run(src, options, "gemver_kernel2", (up(n, 16),), (16,), a2, x, y, z, beta, np.int32(n))
    *_, w2 = run(src, options, "gemver_kernel3", (up(n, 16),), (16,), a2, x2, w, alpha, np.int32(n))
    want_a = a + np.outer(u1, v1) + np.outer(u2, v2)
    want_x = x + beta * want_a.T @ y + z
    close(a2, want_a)
    close(x2, want_x, rtol=1e-3)
    close(w2, alpha * want_a @ want_x, rtol=1e-3)


def fdtd2d(src, options):
    nx, ny, t = 29, 38, 3
    fict, ex, ey, hz = rand(10), rand(nx, ny), rand(nx, ny), rand(nx, ny)
    dims = (np.int32(nx), np.int32(ny))
    grid = (up(ny, 8), up(nx, 8))
    _, _, ey1, _ = run(src, options, "fdtd_kernel1", grid, (8, 8), fict, ex, ey, hz, np.int32(t), *dims)
    ex1, _, _ = run(src, options, "fdtd_kernel2", grid, (8, 8), ex, ey1, hz, *dims)
    _, _, hz1 = run(src, options, "fdtd_kernel3", grid, (8, 8), ex1, ey1, hz, *dims)
    h, e_x, e_y = (v.astype(np.float64) for v in (hz, ex, ey))
    e_y[1:] -= 0.5 * (h[1:] - h[:-1])
    e_y[0] = fict[t]
    e_x[:, 1:] -= 0.5 * (h[:, 1:] - h[:, :-1])
    h[:-1, :-1] -= 0.7 * (e_x[:-1, 1:] - e_x[:-1, :-1] + e_y[1:, :-1] - e_y[:-1, :-1])
    close(ey1, e_y)
    close(ex1, e_x)
    close(hz1, h)


def convolution2d(src, options):
    ni, nj = 30, 41
    a = rand(ni, nj)
    _, b = run(src, options, "Convolution2D_kernel", (up(nj, 8), up(ni, 8)), (8, 8), a, np.zeros_like(a),
               np.int32(ni), np.int32(nj))
    c = np.array([[0.2, -0.3, 0.4], [0.5, 0.6, 0.7], [-0.8, -0.9, 0.10]], f32)  # c[col][row] as named
    want = np.zeros_like(a)
    for di in (-1, 0, 1):
        for dj in (-1, 0, 1):
            want[1:-1, 1:-1] += c[dj + 1, di + 1] * a[1 + di:ni - 1 + di, 1 + dj:nj - 1 + dj]
    close(b, want)


def gramschmidt(src, options):
    ni, nj = 24, 16
    a = rand(ni, nj) + np.eye(ni, nj, dtype=f32)
    r, q = np.zeros((nj, nj), f32), np.zeros((ni, nj), f32)
    for k in range(nj):
        dims = (np.int32(k), np.int32(ni), np.int32(nj))
        a, r, q = run(src, options, "gramschmidt_kernel1", (16,), (16,), a, r, q, *dims)
        a, r, q = run(src, options, "gramschmidt_kernel2", (up(ni, 16),), (16,), a, r, q, *dims)
        a, r, q = run(src, options, "gramschmidt_kernel3", (up(nj, 16),), (16,), a, r, q, *dims)
    np.testing.assert_allclose(q.T @ q, np.eye(nj), atol=1e-3)
    assert np.allclose(np.triu(r), r)


# ---- Rodinia


def nearest_neighbor(src, options):
    n = 1000
    locations = rand(n, 2) * 90
    lat, lng = f32(30.5), f32(60.25)
    _, dist = run(src, options, "NearestNeighbor", (up(n, 64),), (64,), locations, np.zeros(n, f32),
                  np.int32(n), lat, lng)
    close(dist, np.hypot(lat - locations[:, 0], lng - locations[:, 1]), rtol=1e-6, atol=0)


def kmeans(src, options):
    npoints, nfeatures, nclusters = 500, 6, 5
    feature = rand(npoints, nfeatures)
    clusters = rand(nclusters, nfeatures)
    _, swapped, *_ = run(src, options, "kmeans_swap", (npoints,), (50,), feature,
                         np.zeros(nfeatures * npoints, f32), np.int32(npoints), np.int32(nfeatures))
    *_, membership = run(src, options, "kmeans_kernel_c", (up(npoints, 64),), (64,), swapped, clusters,
                         np.zeros(npoints, np.int32), np.int32(npoints), np.int32(nclusters),
                         np.int32(nfeatures), np.int32(0), np.int32(0))
    np.testing.assert_array_equal(swapped.reshape(nfeatures, npoints), feature.T)
    distances = ((feature[:, None, :] - clusters[None, :, :]) ** 2).sum(axis=2)
    np.testing.assert_array_equal(membership, distances.argmin(axis=1))


def gaussian(src, options):
    n = 24
    a = rand(n, n) + n * np.eye(n, dtype=f32)
    b = rand(n)
    m = np.zeros((n, n), f32)
    a_dev, b_dev = a.copy(), b.copy()
    for t in range(n - 1):
        dims = (np.int32(n), np.int32(t))
        m, a_dev, b_dev = run(src, options, "Fan1", (up(n, 16),), (16,), m, a_dev, b_dev, *dims)
        m, a_dev, b_dev = run(src, options, "Fan2", (up(n, 8), up(n, 8)), (8, 8), m, a_dev, b_dev, *dims)
    assert np.allclose(np.tril(a_dev, -1), 0, atol=1e-4), "not upper triangular"
    x = np.linalg.solve(np.triu(a_dev).astype(np.float64), b_dev.astype(np.float64))
    close(x, np.linalg.solve(a.astype(np.float64), b.astype(np.float64)), rtol=1e-3, atol=1e-4)


def bfs(src, options):
    n, degree = 300, 3
    edges = _RNG.integers(0, n, n * degree).astype(np.int32)
    nodes = np.zeros(n, np.dtype([("starting", np.int32), ("no_of_edges", np.int32)]))
    nodes["starting"] = np.arange(n) * degree
    nodes["no_of_edges"] = degree
    mask, updating, visited = (np.zeros(n, np.int8) for _ in range(3))
    cost = np.full(n, -1, np.int32)
    mask[0] = visited[0] = 1
    cost[0] = 0
    while True:
        _, _, mask, updating, visited, cost = run(src, options, "BFS_1", (up(n, 64),), (64,), nodes,
                                                  edges, mask, updating, visited, cost, np.int32(n))
        mask, updating, visited, over = run(src, options, "BFS_2", (up(n, 64),), (64,), mask, updating,
                                            visited, np.zeros(1, np.int8), np.int32(n))
        if not over[0]:
            break
    want = np.full(n, -1, np.int32)
    want[0], queue = 0, collections.deque([0])
    while queue:
        v = queue.popleft()
        for u in edges[v * degree:(v + 1) * degree]:
            if want[u] < 0:
                want[u] = want[v] + 1
                queue.append(u)
    np.testing.assert_array_equal(cost, want)


def hotspot3d(src, options):
    nx, ny, nz = 16, 12, 5
    p, t = rand(nz, ny, nx), rand(nz, ny, nx) * 10 + 300
    c = dict(sdc=0.3, ce=0.1, cw=0.11, cn=0.12, cs=0.13, ct=0.14, cb=0.15, cc=0.2)
    *_, out = run(src, options, "hotspotOpt1", (nx, ny), (8, 4), p, t, np.zeros_like(t), f32(c["sdc"]),
                  np.int32(nx), np.int32(ny), np.int32(nz),
                  *(f32(c[k]) for k in ("ce", "cw", "cn", "cs", "ct", "cb", "cc")))
    pad = np.pad(t.astype(np.float64), 1, mode="edge")
    centre = pad[1:-1, 1:-1, 1:-1]
    want = (c["cc"] * centre + c["cw"] * pad[1:-1, 1:-1, :-2] + c["ce"] * pad[1:-1, 1:-1, 2:]
            + c["cs"] * pad[1:-1, 2:, 1:-1] + c["cn"] * pad[1:-1, :-2, 1:-1] + c["cb"] * pad[:-2, 1:-1, 1:-1]
            + c["ct"] * pad[2:, 1:-1, 1:-1] + c["sdc"] * p + c["ct"] * 80.0)
    close(out, want, rtol=1e-5)


# ---- NVIDIA OpenCL SDK samples and SDK-style kernels


def black_scholes(src, options):
    from scipy.special import ndtr

    n, r, v = 3000, 0.02, 0.30
    s, x, t = rand(n) * 25 + 5, rand(n) * 99 + 1, rand(n) * 9.75 + 0.25
    call, put, *_ = run(src, options, "BlackScholes", (1024,), (128,), np.zeros(n, f32), np.zeros(n, f32),
                        s, x, t, f32(r), f32(v), np.uint32(n))   # a grid-stride loop over the options
    s64, x64, t64 = (a.astype(np.float64) for a in (s, x, t))
    d1 = (np.log(s64 / x64) + (r + 0.5 * v * v) * t64) / (v * np.sqrt(t64))
    d2 = d1 - v * np.sqrt(t64)
    discount = np.exp(-r * t64)
    close(call, s64 * ndtr(d1) - x64 * discount * ndtr(d2), rtol=1e-4, atol=2e-4)
    close(put, x64 * discount * ndtr(-d2) - s64 * ndtr(-d1), rtol=1e-4, atol=2e-4)


def transpose(src, options):
    width, height, block = 48, 32, 16
    idata = rand(height, width)
    dims = (np.int32(0), np.int32(width), np.int32(height))
    for name in ("transpose", "transpose_naive"):
        local = (cl.LocalMemory(4 * block * (block + 1)),) if name == "transpose" else ()
        out, _ = run(src, options, name, (width, height), (block, block), np.zeros((width, height), f32),
                     idata, *dims, *local)
        np.testing.assert_array_equal(out, idata.T, err_msg=name)
    copied, _ = run(src, options, "shared_copy", (width, height), (block, block), np.zeros_like(idata), idata,
                    *dims, cl.LocalMemory(4 * block * (block + 1)))
    # shared_copy writes only where x < height and y < width (the sample's own test is square)
    np.testing.assert_array_equal(copied[:, :height], idata[:, :height])


def dct8x8(src, options):
    height, width = 24, 40
    image = rand(height, width) * 255
    _, out, *_ = run(src, options, "dct_transform", (height, width // 8), (8, 1), image, np.zeros_like(image),
                     np.int32(height), np.int32(width))
    k, n = np.meshgrid(np.arange(8), np.arange(8), indexing="ij")
    d = 0.5 * np.cos((2 * n + 1) * k * np.pi / 16)
    d[0] /= np.sqrt(2)
    blocks = image.astype(np.float64).reshape(height // 8, 8, width // 8, 8).transpose(0, 2, 1, 3)
    want = (4 * d @ blocks @ d.T).transpose(0, 2, 1, 3).reshape(height, width)  # each pass scales by 2
    close(out, want, rtol=1e-4, atol=2e-2)


# ---- SHOC level 1


def shoc_reduction(src, options):
    n, local, groups = 5000, 64, 8
    data = rand(n + 2 * local)   # the kernel reads i + blockSize past i < n: the host pads
    data[n:] = 0
    _, partial, *_ = run(src, options, "reduce", (local * groups,), (local,), data, np.zeros(groups, f32),
                         cl.LocalMemory(4 * local), np.uint32(n))
    close(partial.sum(), data[:n].astype(np.float64).sum(), rtol=1e-5)


def shoc_md(src, options):
    n, neighbours = 256, 16
    position = np.zeros((n, 4))
    position[:, :3] = _RNG.random((n, 3)) * 4
    neigh = np.stack([_RNG.choice(np.delete(np.arange(n), i), neighbours, replace=False) for i in range(n)])
    cutsq, lj1, lj2 = 4.0, 1.5, 2.0
    force, *_ = run(src, options, "compute_lj_force", (n,), (64,), np.zeros((n, 4)), position,
                    np.int32(neighbours), np.ascontiguousarray(neigh.T.astype(np.int32)), cutsq, lj1, lj2,
                    np.int32(n))
    d = position[:, None, :3] - position[neigh][:, :, :3]
    r2 = (d * d).sum(axis=2)
    inv = np.where(r2 < cutsq, 1 / r2, 0)
    coefficient = inv * inv ** 3 * (lj1 * inv ** 3 - lj2)
    close(force[:, :3], (d * coefficient[:, :, None]).sum(axis=1), rtol=1e-9, atol=1e-9)


def shoc_spmv(src, options):
    rows, cols, density = 200, 150, 0.05
    dense = np.where(_RNG.random((rows, cols)) < density, rand(rows, cols), 0).astype(f32)
    starts = np.concatenate([[0], np.cumsum((dense != 0).sum(axis=1))]).astype(np.int32)
    indices = np.nonzero(dense)[1].astype(np.int32)
    values = dense[dense != 0]
    vec = rand(cols)
    *_, out = run(src, options, "spmv_csr_scalar_kernel", (up(rows, 64),), (64,), values, vec, indices,
                  starts, np.int32(rows), np.zeros(rows, f32))
    *_, out_vector = run(src, options, "spmv_csr_vector_kernel", (rows * 32,), (128,), values, vec,
                         indices, starts, np.int32(rows), np.zeros(rows, f32))
    width = (dense != 0).sum(axis=1)
    ell_values = np.zeros((width.max(), rows), f32)
    ell_cols = np.zeros((width.max(), rows), np.int32)
    for r in range(rows):
        ell_values[:width[r], r] = dense[r][dense[r] != 0]
        ell_cols[:width[r], r] = np.nonzero(dense[r])[0]
    *_, out_ell = run(src, options, "spmv_ellpackr_kernel", (up(rows, 64),), (64,), ell_values, vec,
                      ell_cols, width.astype(np.int32), np.int32(rows), np.zeros(rows, f32))
    for got in (out, out_vector, out_ell):
        close(got, dense @ vec, rtol=1e-5, atol=1e-6)


HOSTS = {
    "gemm.cl": gemm, "2mm.cl": mm2, "atax.cl": atax, "bicg.cl": bicg, "gesummv.cl": gesummv,
    "mvt.cl": mvt, "syrk.cl": syrk, "covariance.cl": covariance, "correlation.cl": correlation,
    "gemver.cl": gemver, "fdtd2d.cl": fdtd2d, "2DConvolution.cl": convolution2d,
    "gramschmidt.cl": gramschmidt, "nearestNeighbor_kernel.cl": nearest_neighbor, "kmeans.cl": kmeans,
    "gaussianElim_kernels.cl": gaussian, "bfs_Kernels.cl": bfs, "hotspotKernel3D.cl": hotspot3d,
    "reduction.cl": shoc_reduction, "md.cl": shoc_md, "spmv.cl": shoc_spmv,
    "oclBlackScholes.cl": black_scholes, "oclTranspose.cl": transpose, "dct8x8_github_fixed.cl": dct8x8,
}
