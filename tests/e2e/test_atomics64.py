"""64-bit atomics (cl_khr_int64_base_atomics, cl_khr_int64_extended_atomics): `atom_*` on long and
ulong in global and local memory, contended by many work-items on the worker threads
(LOOMCL_THREADS, one per core by default), with values beyond 32 bits."""
from __future__ import annotations

import numpy as np
import pytest

import loomcl as cl

BIG = 1 << 40


def test_extension_macros_and_device_string(run_kernel, ctx):
    src = """
    __kernel void k(__global int *out) {
    #if defined(cl_khr_int64_base_atomics) && defined(cl_khr_int64_extended_atomics)
        out[0] = 1;
    #else
        out[0] = 2;
    #endif
    }"""
    (out,) = run_kernel(src, "k", (1,), (1,), np.zeros(1, np.int32))
    assert out[0] == 1
    extensions = ctx.devices[0].extensions.split()
    assert "cl_khr_int64_base_atomics" in extensions
    assert "cl_khr_int64_extended_atomics" in extensions


def test_contended_global_counter(run_kernel):
    """Every work-item adds a value above 2^32 to one counter, and subtracts, increments and
    decrements others: the totals are exact only if every update is atomic."""
    src = """
    __kernel void k(__global long *c, __global ulong *u) {
        long i = get_global_id(0);
        atom_add(&c[0], (1L << 40) + i);
        atom_sub(&c[1], (1L << 33) + i);
        atom_inc(&u[0]);
        atom_dec(&u[1]);
    }"""
    n = 1 << 16
    c = np.zeros(2, np.int64)
    u = np.array([0, 1 << 50], np.uint64)
    c, u = run_kernel(src, "k", (n,), (64,), c, u)
    i = np.arange(n, dtype=np.int64)
    assert c[0] == np.sum(BIG + i)
    assert c[1] == -np.sum((1 << 33) + i)
    assert u[0] == n and u[1] == (1 << 50) - n


def test_old_values_are_a_permutation(run_kernel):
    """atom_add returns the old value: with increments of 2^36 the old values are every multiple."""
    src = """
    __kernel void k(__global ulong *c, __global ulong *old) {
        old[get_global_id(0)] = atom_add(c, 1UL << 36);
    }"""
    n = 4096
    c, old = run_kernel(src, "k", (n,), (32,), np.zeros(1, np.uint64), np.zeros(n, np.uint64))
    assert c[0] == n << 36
    assert np.array_equal(np.sort(old), np.arange(n, dtype=np.uint64) << np.uint64(36))


@pytest.mark.parametrize("ctype,dtype", [("long", np.int64), ("ulong", np.uint64)])
def test_min_max_and_or_xor_above_32_bits(run_kernel, rng, ctype, dtype):
    src = f"""
    __kernel void k(__global const {ctype} *x, __global {ctype} *r) {{
        {ctype} v = x[get_global_id(0)];
        atom_min(&r[0], v);
        atom_max(&r[1], v);
        atom_and(&r[2], v);
        atom_or(&r[3], v);
        atom_xor(&r[4], v);
    }}"""
    n = 8192
    info = np.iinfo(dtype)
    x = rng.integers(info.min, info.max, n, dtype=dtype, endpoint=True)
    r = np.array([info.max, info.min, ~dtype(0), 0, 0], dtype)
    _, r = run_kernel(src, "k", (n,), (64,), x, r)
    assert r[0] == x.min() and r[1] == x.max()
    assert r[2] == np.bitwise_and.reduce(x) and r[3] == np.bitwise_or.reduce(x)
    assert r[4] == np.bitwise_xor.reduce(x)


def test_signed_min_max_distinguish_from_unsigned(run_kernel):
    src = """
    __kernel void k(__global long *s, __global ulong *u) {
        atom_min(&s[0], -1L);
        atom_max(&s[1], -1L);
        atom_min(&u[0], 0xffffffffffffffffUL);
        atom_max(&u[1], 0xffffffffffffffffUL);
    }"""
    s, u = run_kernel(src, "k", (1,), (1,), np.array([5, 5], np.int64), np.array([5, 5], np.uint64))
    assert list(s) == [-1, 5] and list(u) == [5, (1 << 64) - 1]


def test_cmpxchg_loop_builds_a_64_bit_product(run_kernel):
    """A compare-and-swap loop multiplies a shared value (no atom_mul exists): correct only if the
    exchange is atomic over all 64 bits."""
    src = """
    __kernel void k(__global ulong *p, __global const ulong *f) {
        ulong factor = f[get_global_id(0)];
        ulong old = *p, seen;
        while ((seen = atom_cmpxchg(p, old, old * factor)) != old)
            old = seen;
    }"""
    n = 2048
    f = np.full(n, 3, np.uint64)
    f[::7] = 5
    p, _ = run_kernel(src, "k", (n,), (16,), np.array([1], np.uint64), f)
    expected = 1
    for v in f.tolist():
        expected = (expected * v) % (1 << 64)
    assert int(p[0]) == expected


def test_xchg_hands_over_every_value(run_kernel):
    src = """
    __kernel void k(__global long *slot, __global long *got) {
        long i = get_global_id(0);
        got[i] = atom_xchg(slot, (i + 1) << 35);
    }"""
    n = 4096
    slot, got = run_kernel(src, "k", (n,), (64,), np.zeros(1, np.int64), np.zeros(n, np.int64))
    everything = np.sort(np.concatenate([got, slot]))
    assert np.array_equal(everything, np.arange(n + 1, dtype=np.int64) << 35)


def test_local_atomics(run_kernel):
    """__local 64-bit atomics within a group, then one global atom_add per group."""
    src = """
    __kernel void k(__global const long *x, __global long *sums, __global long *total,
                    __local long *acc) {
        if (get_local_id(0) == 0) { acc[0] = 0; acc[1] = LONG_MAX; acc[2] = 0; }
        barrier(CLK_LOCAL_MEM_FENCE);
        long v = x[get_global_id(0)];
        atom_add(&acc[0], v);
        atom_min(&acc[1], v);
        long seen, old = acc[2];
        while ((seen = atom_cmpxchg(&acc[2], old, old ^ v)) != old) old = seen;
        barrier(CLK_LOCAL_MEM_FENCE);
        if (get_local_id(0) == 0) {
            size_t g = get_group_id(0);
            sums[3 * g] = acc[0]; sums[3 * g + 1] = acc[1]; sums[3 * g + 2] = acc[2];
            atom_add(total, acc[0]);
        }
    }"""
    n, local = 1 << 14, 128
    x = (np.arange(n, dtype=np.int64) * 7919) << 31
    groups = n // local
    _, sums, total = run_kernel(src, "k", (n,), (local,), x, np.zeros(3 * groups, np.int64),
                                np.zeros(1, np.int64), cl.LocalMemory(24))
    per_group = x.reshape(groups, local)
    assert np.array_equal(sums[0::3], per_group.sum(axis=1))
    assert np.array_equal(sums[1::3], per_group.min(axis=1))
    assert np.array_equal(sums[2::3], np.bitwise_xor.reduce(per_group, axis=1))
    assert total[0] == x.sum()


def test_64_bit_atomic_on_int_is_not_widened(run_kernel):
    """The 32-bit rows still win for int: the old value wraps at 32 bits."""
    src = """
    __kernel void k(__global int *c) { atom_add(c, 0x7fffffff); atom_add(c, 2); }"""
    (c,) = run_kernel(src, "k", (1,), (1,), np.zeros(1, np.int32))
    assert c[0] == np.int32(-0x7fffffff)
