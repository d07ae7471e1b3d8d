"""Structs, unions, enums and goto, run natively against numpy structured arrays (align=True gives
the C layout), in the default pipeline and in the unstructured and context-all variants."""
from __future__ import annotations

import numpy as np
import pytest

PIPELINES = ["", "-loomcl-no-structured", "-loomcl-context-all"]

RECORD = np.dtype([("c", np.int8), ("d", np.float64), ("i", np.int32), ("s", np.int16)], align=True)

RECORDS = """
typedef struct { char c; double d; int i; short s; } record;

record scaled(record r, int k) {        /* by value in, by value out: the caller's copy changes */
    r.i *= k; r.d *= k; r.s = (short)(r.s + k); r.c = (char)-r.c;
    return r;
}

__kernel void records(__global record *rs, __global const record *in, __global int *sizes) {
    int g = get_global_id(0);
    record r = in[g];
    record t = scaled(r, 3);
    rs[g] = t;
    (rs + g)->i += r.i;                 /* -> on a global pointer, and the original is unchanged */
    if (g == 0) sizes[0] = sizeof(record);
}
"""


@pytest.mark.parametrize("options", PIPELINES)
def test_array_of_structs_matches_numpy_layout(run_kernel, rng, options):
    n = 48
    src = np.zeros(n, RECORD)
    src["c"] = rng.integers(-100, 100, n)
    src["d"] = rng.random(n)
    src["i"] = rng.integers(-1000, 1000, n)
    src["s"] = rng.integers(-1000, 1000, n)
    out, _, sizes = run_kernel(RECORDS, "records", (n,), (16,),
                               np.zeros(n, RECORD), src, np.zeros(1, np.int32), options=options)
    assert sizes[0] == RECORD.itemsize == 24
    np.testing.assert_array_equal(out["i"], src["i"] * 4)
    np.testing.assert_array_equal(out["d"], src["d"] * 3)
    np.testing.assert_array_equal(out["s"], src["s"] + 3)
    np.testing.assert_array_equal(out["c"], -src["c"])


BY_VALUE = """
typedef struct { float scale; int offset; double bias; } params;

__kernel void affine(params p, __global const int *in, __global double *out) {
    int g = get_global_id(0);
    out[g] = p.scale * in[g] + p.offset + p.bias;
}
"""


def test_struct_kernel_argument_from_a_numpy_structured_scalar(run_kernel):
    dtype = np.dtype([("scale", np.float32), ("offset", np.int32), ("bias", np.float64)], align=True)
    p = np.array([(2.5, -7, 0.25)], dtype)[0]
    data = np.arange(32, dtype=np.int32)
    _, out = run_kernel(BY_VALUE, "affine", (32,), (8,), p, data, np.zeros(32))
    np.testing.assert_array_equal(out, np.float32(2.5) * data - 7 + 0.25)


ACROSS_BARRIER = """
struct acc { int sum; float avg; int hist[4]; };

__kernel void neighbours(__global const int *in, __global int *out, __local struct acc *shared) {
    int l = get_local_id(0), n = get_local_size(0);
    struct acc mine = { in[get_global_id(0)], 0.0f, {0, 0, 0, 0} };
    for (int k = 0; k < 4; k++) mine.hist[k] = mine.sum * k;
    shared[l] = mine;
    barrier(CLK_LOCAL_MEM_FENCE);
    struct acc right = shared[(l + 1) % n];
    barrier(CLK_LOCAL_MEM_FENCE);            /* mine lives across both barriers */
    out[get_global_id(0)] = mine.sum + 10 * right.sum + mine.hist[3] + (int)right.avg;
}
"""


@pytest.mark.parametrize("options", PIPELINES)
def test_struct_variable_lives_across_barriers(run_kernel, ctx, options):
    import loomcl as cl
    n, local = 64, 16
    data = np.arange(n, dtype=np.int32) * 7 - 100
    _, out = run_kernel(ACROSS_BARRIER, "neighbours", (n,), (local,), data, np.zeros(n, np.int32),
                        cl.LocalMemory(local * 24), options=options)
    groups = data.reshape(-1, local)
    right = np.roll(groups, -1, axis=1).reshape(-1)
    np.testing.assert_array_equal(out, data + 10 * right + 3 * data)


UNIONS_ENUMS_GOTO = """
enum kind { NEGATIVE = -1, ZERO, POSITIVE, COUNT = POSITIVE + 2 };
typedef union { float f; uint bits; uchar bytes[4]; } word;

__kernel void classify(__global const float *in, __global uint *bits, __global int *kinds,
                       __global uchar *low) {
    int g = get_global_id(0);
    word w = { .f = in[g] };
    bits[g] = w.bits;
    low[g] = w.bytes[0];
    int k = ZERO;
    if (in[g] == 0.0f) goto done;
    k = in[g] < 0.0f ? NEGATIVE : POSITIVE;
    int steps = 0;
again:                                  /* a reducible loop made of a goto */
    steps++;
    if (steps < COUNT) goto again;
    k *= steps;
done:
    kinds[g] = k;
}
"""


@pytest.mark.parametrize("options", PIPELINES)
def test_union_enum_and_goto(run_kernel, options):
    data = np.array([0.0, 1.5, -2.25, 3.0e-3] * 8, np.float32)
    _, bits, kinds, low = run_kernel(UNIONS_ENUMS_GOTO, "classify", (32,), (8,), data,
                                     np.zeros(32, np.uint32), np.zeros(32, np.int32),
                                     np.zeros(32, np.uint8), options=options)
    np.testing.assert_array_equal(bits, data.view(np.uint32))
    np.testing.assert_array_equal(low, data.view(np.uint8)[::4])
    np.testing.assert_array_equal(kinds, np.sign(data).astype(np.int32) * 3)


def test_goto_into_a_loop_is_refused(ctx):
    import loomcl as cl
    src = """__kernel void k(__global int *o) {
    int i = 0;
    if (o[0]) goto inside;
    while (i < 10) {
        i++;
inside:
        o[i] = i;
    }
}"""
    with pytest.raises(cl.RuntimeError) as info:
        cl.Program(ctx, src).build()
    assert "this 'goto' enters a loop other than through its start" in str(info.value)


CONSTANT_TABLE = """
typedef struct { int id; float weight; } entry;
__constant entry table[3] = { { 10, 0.5f }, { .weight = 2.0f, .id = 20 }, { 30 } };

__kernel void lookup(__global const int *which, __global float *out) {
    int g = get_global_id(0);
    __constant entry *e = &table[which[g]];
    out[g] = e->id * e->weight;
}
"""


def test_program_scope_constant_structs(run_kernel):
    which = np.array([0, 1, 2, 1] * 4, np.int32)
    _, out = run_kernel(CONSTANT_TABLE, "lookup", (16,), (4,), which, np.zeros(16, np.float32))
    np.testing.assert_array_equal(out, np.array([5.0, 40.0, 0.0, 40.0] * 4, np.float32))
