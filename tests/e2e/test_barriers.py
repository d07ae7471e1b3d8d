"""Barriers: tree reductions, scans, barriers under uniform branches and in loops whose trip count
differs between work-items (hipSYCL thesis listing 3.3), stores after barrier loops."""
from __future__ import annotations

import numpy as np
import pytest

import loomcl as cl
from e2e_helpers import group_ranges, shape

REDUCE_ARG = """
__kernel void reduce(__global const float *in, __global float *sums, __global int *sizes,
                     __local float *tmp) {
    uint lid = get_local_id(0);
    tmp[lid] = in[get_global_id(0)];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint s = get_local_size(0) / 2; s > 0; s >>= 1) {
        if (lid < s)
            tmp[lid] += tmp[lid + s];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (lid == 0) {
        sums[get_group_id(0)] = tmp[0];
        sizes[get_group_id(0)] = get_local_size(0);
    }
}
"""

REDUCE_STATIC = """
__kernel void reduce(__global const float *in, __global float *sums, __global int *sizes) {
    __local float tmp[256];
    uint lid = get_local_id(0);
    tmp[lid] = in[get_global_id(0)];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint s = get_local_size(0) / 2; s > 0; s >>= 1) {
        if (lid < s)
            tmp[lid] += tmp[lid + s];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (lid == 0) {
        sums[get_group_id(0)] = tmp[0];
        sizes[get_group_id(0)] = get_local_size(0);
    }
}
"""


def check_group_sums(data, sums, sizes):
    """Per-group sums of consecutive groups (sizes as the kernel reported them; -1 = no such group)."""
    groups = int(np.count_nonzero(sizes >= 0))
    assert np.all(sizes[groups:] == -1), "groups were not numbered 0, 1, ..."
    ranges = group_ranges(data.size, sizes[:groups])
    want = np.array([data[a:b].astype(np.float64).sum() for a, b in ranges])
    np.testing.assert_array_equal(sums[:groups], want)


@pytest.mark.parametrize("kind", ["local_memory_arg", "kernel_scope_local"])
def test_work_group_reduction(run_kernel, variant, rng, kind):
    # the ragged size leaves a remainder group of 64 items: a power of two, so the halving loop holds
    n, local = shape(variant, 2048, 128, 3 * 128 + 64)
    data = rng.integers(-100, 100, n).astype(np.float32)  # small integers: exact float sums
    sums = np.zeros(n, np.float32)
    sizes = np.full(n, -1, np.int32)
    if kind == "local_memory_arg":
        args = (data, sums, sizes, cl.LocalMemory(256 * 4))
        src = REDUCE_ARG
    else:
        args = (data, sums, sizes)
        src = REDUCE_STATIC
    (_, sums, sizes) = run_kernel(src, "reduce", (n,), None if local is None else (local,), *args)
    check_group_sums(data, sums, sizes)
    if local is not None:
        np.testing.assert_array_equal(sizes[: -(-n // local)], [local] * (n // local) + ([n % local] if n % local else []))


SCAN = """
/* Blelloch exclusive scan of each work-group's items (local size a power of two). */
__kernel void scan(__global const int *in, __global int *out, __local int *tmp) {
    int lid = get_local_id(0);
    int size = get_local_size(0);
    tmp[lid] = in[get_global_id(0)];
    for (int d = 1; d < size; d <<= 1) {             /* up-sweep */
        barrier(CLK_LOCAL_MEM_FENCE);
        int ai = (lid + 1) * 2 * d - 1;
        if (ai < size)
            tmp[ai] += tmp[ai - d];
    }
    if (lid == 0)
        tmp[size - 1] = 0;
    for (int d = size / 2; d >= 1; d >>= 1) {         /* down-sweep */
        barrier(CLK_LOCAL_MEM_FENCE);
        int ai = (lid + 1) * 2 * d - 1;
        if (ai < size) {
            int t = tmp[ai - d];
            tmp[ai - d] = tmp[ai];
            tmp[ai] += t;
        }
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    out[get_global_id(0)] = tmp[lid];
}
"""


def test_blelloch_scan(run_kernel, variant, rng):
    n, local = shape(variant, 1024, 64, 5 * 64 + 16)
    data = rng.integers(-1000, 1000, n).astype(np.int32)
    out = np.zeros(n, np.int32)
    (_, out) = run_kernel(SCAN, "scan", (n,), None if local is None else (local,), data, out,
                          cl.LocalMemory(256 * 4))
    # each group's exclusive scan restarts at 0; find the groups from the zeros is unreliable, so
    # check against every candidate local size the launch can have had
    if local is None:
        candidates = [s for s in (8, 16, 32, 64, 128, 256) if n % s == 0]
    else:
        candidates = [local]
    results = []
    for size in candidates:
        want = np.empty(n, np.int32)
        for start in range(0, n, size):
            chunk = data[start:start + size]
            want[start:start + size] = np.concatenate([[0], np.cumsum(chunk)[:-1]])
        results.append(np.array_equal(out, want))
        if results[-1]:
            break
    assert any(results), f"no per-group exclusive scan with local size in {candidates} matches: {out[:20]}"


UNIFORM_IF = """
__kernel void uniform_if(__global const int *in, __global int *out, __local int *tmp) {
    int lid = get_local_id(0);
    int size = get_local_size(0);
    size_t gid = get_global_id(0);
    if (get_group_id(0) % 2 == 0) {
        tmp[lid] = in[gid];
        barrier(CLK_LOCAL_MEM_FENCE);
        out[gid] = tmp[size - 1 - lid];        /* reverse the group */
    } else {
        out[gid] = -in[gid];
    }
}
"""


def test_barrier_under_uniform_if(run_kernel, variant, rng):
    n, local = shape(variant, 512, 32, 512 + 19)
    data = rng.integers(0, 10000, n).astype(np.int32)
    out = np.zeros(n, np.int32)
    if local is None:
        local_eff = None
    else:
        local_eff = (local,)
    (_, out) = run_kernel(UNIFORM_IF, "uniform_if", (n,), local_eff, data, out, cl.LocalMemory(256 * 4))
    size = local if local is not None else infer_uniform_if_size(data, out)
    want = np.empty(n, np.int32)
    for g, start in enumerate(range(0, n, size)):
        chunk = data[start:start + size]
        want[start:start + size] = chunk[::-1] if g % 2 == 0 else -chunk
    np.testing.assert_array_equal(out, want)


def infer_uniform_if_size(data, out):
    """The local size the runtime chose: the first item negated belongs to group 1."""
    first_negated = int(np.argmax(out == -data))
    assert first_negated > 0
    return first_negated


VARYING_WORK = """
/* Same number of iterations (and barriers) for every item, but each item does a different amount of
   work per iteration. */
__kernel void varying_work(__global const int *in, __global int *out, __local int *tmp, int n_iter) {
    int lid = get_local_id(0);
    int size = get_local_size(0);
    int acc = 0, seen = 0;
    for (int i = 0; i < n_iter; ++i) {
        if (i < lid % 4 + 1)
            acc += in[get_global_id(0)] * (i + 1);
        barrier(CLK_LOCAL_MEM_FENCE);
        tmp[lid] = acc;
        barrier(CLK_LOCAL_MEM_FENCE);
        seen += tmp[(lid + 1) % size];
    }
    out[get_global_id(0)] = seen;
}
"""


def varying_work_reference(data, sizes, n_iter):
    out = np.empty_like(data)
    start = 0
    for size in sizes:
        chunk = data[start:start + size].astype(np.int64)
        lid = np.arange(size)
        acc = np.zeros(size, np.int64)
        seen = np.zeros(size, np.int64)
        for i in range(n_iter):
            acc += np.where(i < lid % 4 + 1, chunk * (i + 1), 0)
            seen += acc[(lid + 1) % size]
        out[start:start + size] = seen
        start += size
    return out


def one_d_sizes(n, local):
    return [local] * (n // local) + ([n % local] if n % local else [])


def test_barrier_loop_varying_work(run_kernel, variant, rng):
    n, local = shape(variant, 256, 32, 256 + 13)
    data = rng.integers(-50, 50, n).astype(np.int32)
    n_iter = 6
    candidates = [local] if local is not None else [s for s in (8, 16, 32, 64, 128, 256) if n % s == 0]
    (_, out) = run_kernel(VARYING_WORK, "varying_work", (n,), None if local is None else (local,), data,
                          np.zeros(n, np.int32), cl.LocalMemory(256 * 4), np.int32(n_iter))
    wants = [varying_work_reference(data, one_d_sizes(n, s), n_iter) for s in candidates]
    assert any(np.array_equal(out, w) for w in wants), f"local {local}: {out[:16]} vs {wants[0][:16]}"


LISTING_3_3 = """
/* hipSYCL thesis, listing 3.3: item lid runs 2 + lid iterations; only the first two reach the
   barrier, which all items do. Legal OpenCL; pocl's implicit-barrier scheme gets it wrong. */
__kernel void listing_3_3(__global int *acc, __local int *scratch) {
    size_t lid = get_local_id(0);
    scratch[lid] = acc[get_global_id(0)];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (size_t i = 0; i < 2 + lid; i++) {
        scratch[lid] += i;
        if (i < 2) barrier(CLK_LOCAL_MEM_FENCE);
    }
    acc[get_global_id(0)] = scratch[lid];
}

/* The same as a while loop, with cross-item reads that need both barriers of each early iteration. */
__kernel void listing_3_3_while(__global const int *in, __global int *acc, __global int *other,
                                __local int *scratch) {
    int lid = get_local_id(0);
    int size = get_local_size(0);
    scratch[lid] = in[get_global_id(0)];
    int seen = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    int i = 0;
    while (i < 2 + lid) {
        scratch[lid] += i;
        if (i < 2) {
            barrier(CLK_LOCAL_MEM_FENCE);
            seen += scratch[(lid + 1) % size];
            barrier(CLK_LOCAL_MEM_FENCE);
        }
        i++;
    }
    acc[get_global_id(0)] = scratch[lid];
    other[get_global_id(0)] = seen;
}
"""


def test_listing_3_3_for(run_kernel, variant, rng):
    n, local = shape(variant, 256, 32, 256 + 13)
    data = rng.integers(-50, 50, n).astype(np.int32)
    (out,) = run_kernel(LISTING_3_3, "listing_3_3", (n,), None if local is None else (local,), data,
                        cl.LocalMemory(256 * 4))
    candidates = [local] if local is not None else [s for s in (8, 16, 32, 64, 128, 256) if n % s == 0]
    wants = []
    for s in candidates:
        lid = np.arange(n) % s
        wants.append(data + (1 + lid) * (2 + lid) // 2)  # sum of i for i < 2 + lid
    assert any(np.array_equal(out, w) for w in wants), f"{out[:16]} vs {wants[0][:16]}"


def test_listing_3_3_while(run_kernel, variant, rng):
    n, local = shape(variant, 256, 32, 256 + 13)
    data = rng.integers(-50, 50, n).astype(np.int32)
    (_, acc, other) = run_kernel(LISTING_3_3, "listing_3_3_while", (n,), None if local is None else (local,),
                                 data, np.zeros(n, np.int32), np.zeros(n, np.int32), cl.LocalMemory(256 * 4))
    candidates = [local] if local is not None else [s for s in (8, 16, 32, 64, 128, 256) if n % s == 0]
    ok = False
    for s in candidates:
        lid = np.arange(n) % s
        want_acc = data + (1 + lid) * (2 + lid) // 2
        # neighbour's scratch after iteration 0 (in + 0) and after iteration 1 (in + 1)
        neighbour = np.empty(n, np.int32)
        for start, size in zip(range(0, n, s), one_d_sizes(n, s)):
            chunk = data[start:start + size]
            neighbour[start:start + size] = np.roll(chunk, -1)
        want_other = 2 * neighbour + 1
        if np.array_equal(acc, want_acc) and np.array_equal(other, want_other):
            ok = True
    if not ok:
        s = candidates[0]
        lid = np.arange(n) % s
        np.testing.assert_array_equal(acc, data + (1 + lid) * (2 + lid) // 2, err_msg="scratch")
        raise AssertionError(f"cross-item reads wrong: {other[:16]}")


STORE_AFTER_LOOP = """
/* A barrier loop inside an `if` that has an `else`, then a store after the loop inside the branch,
   then a store after the whole if/else. The condition is uniform per group (but differs between
   groups), and a kernel argument selects the branch for the whole launch too. */
__kernel void store_after_loop(__global const int *in, __global int *out, __global int *tail,
                               __local int *tmp, int mode) {
    int lid = get_local_id(0);
    int size = get_local_size(0);
    size_t gid = get_global_id(0);
    if (mode == 1 || (mode == 2 && get_group_id(0) % 2 == 1)) {
        tmp[lid] = in[gid];
        barrier(CLK_LOCAL_MEM_FENCE);
        for (int s = 1; s < size; s <<= 1) {           /* inclusive Hillis-Steele scan */
            int v = lid >= s ? tmp[lid - s] : 0;
            barrier(CLK_LOCAL_MEM_FENCE);
            tmp[lid] += v;
            barrier(CLK_LOCAL_MEM_FENCE);
        }
        out[gid] = tmp[lid];
    } else {
        out[gid] = 7 * in[gid];
    }
    tail[gid] = lid + 1000 * (int)get_group_id(0);
}
"""


@pytest.mark.parametrize("mode", [0, 1, 2])
def test_store_after_barrier_loop_in_if_else(run_kernel, variant, rng, mode):
    n, local = shape(variant, 256, 32, 256 + 21)
    data = rng.integers(-100, 100, n).astype(np.int32)
    (_, out, tail) = run_kernel(STORE_AFTER_LOOP, "store_after_loop", (n,), None if local is None else (local,),
                                data, np.zeros(n, np.int32), np.full(n, -1, np.int32), cl.LocalMemory(256 * 4),
                                np.int32(mode))
    if local is None:
        local = int(np.argmax(tail >= 1000)) or n  # group 1 starts where tail jumps
    want = np.empty(n, np.int32)
    want_tail = np.empty(n, np.int32)
    for g, (start, size) in enumerate(zip(range(0, n, local), one_d_sizes(n, local))):
        chunk = data[start:start + size]
        scanned = mode == 1 or (mode == 2 and g % 2 == 1)
        want[start:start + size] = np.cumsum(chunk) if scanned else 7 * chunk
        want_tail[start:start + size] = np.arange(size) + 1000 * g
    np.testing.assert_array_equal(tail, want_tail)
    np.testing.assert_array_equal(out, want)


HELPER_BARRIER = """
/* A helper with a barrier, called twice: inlining must expose both barriers. */
void exchange(__local int *tmp, int *value) {
    int lid = get_local_id(0);
    tmp[lid] = *value;
    barrier(CLK_LOCAL_MEM_FENCE);
    *value = tmp[(lid + 1) % get_local_size(0)];
    barrier(CLK_LOCAL_MEM_FENCE);
}

__kernel void rotate_twice(__global int *data, __local int *tmp) {
    int v = data[get_global_id(0)];
    exchange(tmp, &v);
    exchange(tmp, &v);
    data[get_global_id(0)] = v;
}
"""


def test_barrier_in_helper_function(run_kernel, variant, rng):
    n, local = shape(variant, 128, 16, 128 + 5)
    data = rng.integers(0, 1 << 20, n).astype(np.int32)
    (out,) = run_kernel(HELPER_BARRIER, "rotate_twice", (n,), None if local is None else (local,), data,
                        cl.LocalMemory(256 * 4))
    candidates = [local] if local is not None else [s for s in (8, 16, 32, 64, 128) if n % s == 0]
    wants = []
    for s in candidates:
        want = np.empty_like(data)
        for start, size in zip(range(0, n, s), one_d_sizes(n, s)):
            want[start:start + size] = np.roll(data[start:start + size], -2)
        wants.append(want)
    assert any(np.array_equal(out, w) for w in wants), f"{out[:16]} vs {wants[0][:16]}"


PRIVATE_ACROSS_BARRIER = """
/* A private array and a pointer into it live across barriers: context storage per work-item. */
__kernel void private_across(__global const int *in, __global int *out, __local int *tmp) {
    int lid = get_local_id(0);
    int size = get_local_size(0);
    int priv[4];
    for (int k = 0; k < 4; ++k)
        priv[k] = in[get_global_id(0)] * (k + 1);
    int *p = &priv[lid % 4];
    tmp[lid] = priv[3];
    barrier(CLK_LOCAL_MEM_FENCE);
    priv[0] += tmp[(lid + 1) % size];
    barrier(CLK_LOCAL_MEM_FENCE);
    tmp[lid] = *p;
    barrier(CLK_LOCAL_MEM_FENCE);
    out[get_global_id(0)] = priv[0] + priv[1] + priv[2] + priv[3] + 1000 * tmp[size - 1 - lid];
}
"""


def test_private_array_across_barriers(run_kernel, variant, rng):
    n, local = shape(variant, 256, 32, 256 + 11)
    data = rng.integers(-100, 100, n).astype(np.int32)
    (_, out) = run_kernel(PRIVATE_ACROSS_BARRIER, "private_across", (n,), None if local is None else (local,),
                          data, np.zeros(n, np.int32), cl.LocalMemory(256 * 4))
    candidates = [local] if local is not None else [s for s in (8, 16, 32, 64, 128, 256) if n % s == 0]
    wants = []
    for s in candidates:
        want = np.empty(n, np.int64)
        for start, size in zip(range(0, n, s), one_d_sizes(n, s)):
            x = data[start:start + size].astype(np.int64)
            lid = np.arange(size)
            priv = np.stack([x * (k + 1) for k in range(4)], axis=1)
            priv[:, 0] += priv[(lid + 1) % size, 3]
            picked = priv[lid, lid % 4]
            want[start:start + size] = priv.sum(axis=1) + 1000 * picked[size - 1 - lid]
        wants.append(want.astype(np.int32))
    assert any(np.array_equal(out, w) for w in wants), f"{out[:8]} vs {wants[0][:8]}"


CONVERGE = """
/* A barrier loop whose exit condition is read from __local memory by every item: uniform at run
   time, but not provably uniform to the compiler. Also a `for (;;)` left by a uniform `break`. */
__kernel void converge(__global const int *in, __global int *out, __global int *rounds) {
    __local int vals[256];
    __local int changed;
    int lid = get_local_id(0);
    int size = get_local_size(0);
    vals[lid] = in[get_global_id(0)];
    int round = 0;
    do {
        barrier(CLK_LOCAL_MEM_FENCE);
        if (lid == 0) changed = 0;
        barrier(CLK_LOCAL_MEM_FENCE);
        int left = lid > 0 ? vals[lid - 1] : vals[lid];
        barrier(CLK_LOCAL_MEM_FENCE);
        if (left > vals[lid]) { vals[lid] = left; changed = 1; }    /* propagate the max rightwards */
        ++round;
        barrier(CLK_LOCAL_MEM_FENCE);
    } while (changed);
    int extra = 0;
    for (;;) {
        barrier(CLK_LOCAL_MEM_FENCE);
        if (vals[size - 1] - extra <= vals[0]) break;
        ++extra;
    }
    out[get_global_id(0)] = vals[lid] * 1000 + extra;
    if (lid == 0) rounds[get_group_id(0)] = round;
}
"""


def test_barrier_loop_with_condition_in_local_memory(run_kernel, variant, rng):
    n, local = shape(variant, 256, 64, 256 + 40)
    data = rng.integers(0, 50, n).astype(np.int32)
    (_, out, rounds) = run_kernel(CONVERGE, "converge", (n,), None if local is None else (local,), data,
                                  np.zeros(n, np.int32), np.full(n, -1, np.int32))
    candidates = [local] if local is not None else [s for s in (8, 16, 32, 64, 128, 256) if n % s == 0]
    ok = False
    for s in candidates:
        want = np.empty(n, np.int64)
        want_rounds = []
        for start, size in zip(range(0, n, s), one_d_sizes(n, s)):
            vals = data[start:start + size].astype(np.int64).copy()
            r = 0
            while True:
                left = np.concatenate([[vals[0]], vals[:-1]])
                changed = np.any(left > vals)
                vals = np.maximum(vals, left)
                r += 1
                if not changed:
                    break
            extra = max(0, int(vals[-1] - vals[0]))
            want[start:start + size] = vals * 1000 + extra
            want_rounds.append(r)
        if np.array_equal(out, want) and np.array_equal(rounds[:len(want_rounds)], want_rounds):
            ok = True
    assert ok, f"{out[:8]}, rounds {rounds[:8]}"


REDUCE_2D = """
/* 2D group: reduce rows with a barrier loop over x, then columns with a loop over y. */
__kernel void reduce_2d(__global const int *in, __global int *out, int width) {
    __local int tile[16][16];
    int x = get_local_id(0), y = get_local_id(1);
    int sx = get_local_size(0), sy = get_local_size(1);
    tile[y][x] = in[get_global_id(1) * width + get_global_id(0)];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int s = sx / 2; s > 0; s >>= 1) {
        if (x < s) tile[y][x] += tile[y][x + s];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    for (int s = sy / 2; s > 0; s >>= 1) {
        if (x == 0 && y < s) tile[y][0] += tile[y + s][0];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (x == 0 && y == 0)
        out[get_group_id(1) * get_num_groups(0) + get_group_id(0)] = tile[0][0];
}
"""


@pytest.mark.parametrize("global_size,local", [((32, 16), (16, 8)), ((32, 32), (8, 16)), ((48, 24), (16, 4)),
                                               ((40, 12), (16, 8))])  # the last: ragged 8 x 4 groups
def test_2d_reduction(run_kernel, rng, global_size, local):
    w, h = global_size
    data = rng.integers(-1000, 1000, (h, w)).astype(np.int32)
    gx, gy = -(-w // local[0]), -(-h // local[1])
    (_, out) = run_kernel(REDUCE_2D, "reduce_2d", global_size, local, data, np.zeros(gx * gy, np.int32),
                          np.int32(w))
    want = [data[j * local[1]:(j + 1) * local[1], i * local[0]:(i + 1) * local[0]].sum()
            for j in range(gy) for i in range(gx)]
    np.testing.assert_array_equal(out, want)


@pytest.mark.parametrize("local", [1, 2, 1024])
def test_reduction_extreme_local_sizes(run_kernel, rng, local):
    n = 2048
    data = rng.integers(-100, 100, n).astype(np.float32)
    groups = n // local
    (_, sums, sizes) = run_kernel(REDUCE_ARG, "reduce", (n,), (local,), data, np.zeros(groups, np.float32),
                                  np.zeros(groups, np.int32), cl.LocalMemory(local * 4))
    np.testing.assert_array_equal(sizes, local)
    np.testing.assert_array_equal(sums, data.reshape(groups, local).astype(np.float64).sum(axis=1))
