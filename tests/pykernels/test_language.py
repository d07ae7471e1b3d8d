"""The kernel language: loops, variables, arrays, helpers, vectors, atomics, work-item functions;
each kernel's result against Python/numpy."""
import math

import numpy as np

import loomcl as cl

i32, u32, f32 = np.int32, np.uint32, np.float32


@cl.kernel
def ranges(out: cl.global_ptr(i32), n: i32, step: i32):
    total = 0
    for k in range(n):
        total += k
    for k in range(3, n):
        total += 10 * k
    for k in range(n, -2, -3):
        total += 100 * k
    for k in range(0, n, step):        # a step whose sign is known only at run time
        total += 1000
    for k in range(n, 0, -step):
        total += 10000
    for k in range(5, 5):
        total += 1000000
    out[0] = total


def _ranges(n, step):
    total = sum(range(n)) + sum(10 * k for k in range(3, n)) + sum(100 * k for k in range(n, -2, -3))
    return total + 1000 * len(range(0, n, step)) + 10000 * len(range(n, 0, -step))


def test_range_loops_with_one_to_three_arguments_and_either_sign(queue):
    out = np.zeros(1, i32)
    for n, step in ((10, 3), (7, -2), (0, 1)):
        ranges(queue, (1,), (1,), out, n, step)
        assert out[0] == _ranges(n, step), (n, step)


@cl.kernel
def loop_variable(out: cl.global_ptr(i32), n: i32):
    count = 0
    for k in range(n):
        k = k * 100       # Python: the next iteration takes the range's next value anyway
        count += 1
    last = -1
    for j in range(n):
        last = j
    out[0] = count
    out[1] = j            # the last value taken, as in Python
    out[2] = last


def test_loop_variable_keeps_python_meaning(queue):
    out = np.zeros(3, i32)
    loop_variable(queue, (1,), (1,), out, 6)
    assert out.tolist() == [6, 5, 5]


@cl.kernel
def search(out: cl.global_ptr(i32), data: cl.global_ptr(i32), n: i32):
    i = cl.global_id(0)
    found = -1
    k = 0
    while True:
        if k >= n:
            break
        if data[k] % 2 == 1:
            k += 1
            continue
        if data[k] == i:
            found = k
            break
        k += 1
    if found < 0:
        out[i] = -1
        return
    out[i] = found * 10


def test_while_break_continue_and_early_return(queue):
    data = np.array([1, 4, 2, 3, 0, 6, 2], i32)
    out = np.zeros(8, i32)
    search(queue, (8,), (8,), out, data, data.size)
    expected = []
    for i in range(8):
        hits = [k for k, v in enumerate(data.tolist()) if v % 2 == 0 and v == i]
        expected.append(hits[0] * 10 if hits else -1)
    assert out.tolist() == expected


@cl.kernel(options="-loomcl-check")
def guarded(out: cl.global_ptr(f32), data: cl.global_ptr(f32), n: i32):
    i = cl.global_id(0)
    # short-circuit: data[i] is read only where i < n (checked mode would report the read past the end)
    if i < n and data[i] > 0.0 or i >= n and i < 2 * n:
        out[i] = 1.0


def test_and_or_short_circuit(queue):
    data = np.array([1.0, -1.0, 2.0, 0.0], f32)
    out = np.zeros(16, f32)
    guarded(queue, (16,), (4,), out, data, data.size)
    assert out.tolist() == [1, 0, 1, 0, 1, 1, 1, 1] + [0] * 8


@cl.kernel
def swaps(out: cl.global_ptr(i32)):
    a, b = 1, 2
    a, b = b, a
    x = 3
    x, y = x + 1, x - 1
    out[0] = a * 1000 + b * 100 + x * 10 + y


def test_tuple_assignment_reads_every_value_first(queue):
    out = np.zeros(1, i32)
    swaps(queue, (1,), (1,), out)
    assert out[0] == 2000 + 100 + 40 + 2


@cl.kernel
def declared(out: cl.global_ptr(f32), x: cl.global_ptr(f32)):
    i = cl.global_id(0)
    acc: np.float64 = 0
    scale = np.float64(1.000000001)
    for k in range(4):
        acc += x[i] * scale
    out[i] = acc
    count = 0
    count = 2.0 > 1.0   # a comparison is 0 or 1: stays an int
    out[i] += count


def test_annotated_variables_and_exact_float64_constants(queue):
    x = np.array([1.5, 2.5], f32)
    out = np.zeros(2, f32)
    declared(queue, (2,), (2,), out, x)
    assert np.allclose(out, (x.astype(np.float64) * 1.000000001 * 4).astype(f32) + 1)


@cl.func
def clamp_add(a, b, limit):
    s = a + b
    if s > limit:
        return limit
    return s


@cl.kernel
def helpers(out_f: cl.global_ptr(f32), out_i: cl.global_ptr(i32)):
    i = cl.global_id(0)
    out_f[i] = clamp_add(0.75 * i, 0.5, 2.0)    # specialized for floats
    out_i[i] = clamp_add(i, 1, 3)               # and for ints


def test_helpers_are_specialized_per_argument_types(queue):
    out_f, out_i = np.zeros(4, f32), np.zeros(4, i32)
    helpers(queue, (4,), (4,), out_f, out_i)
    assert out_f.tolist() == [min(0.75 * i + 0.5, 2.0) for i in range(4)]
    assert out_i.tolist() == [min(i + 1, 3) for i in range(4)]


@cl.func
def group_sum(scratch, lid):
    """A helper with barriers: a work-group tree reduction of scratch."""
    s = cl.local_size(0) // 2
    while s > 0:
        cl.barrier(cl.LOCAL_MEM_FENCE)
        if lid < s:
            scratch[lid] += scratch[lid + s]
        s //= 2
    cl.barrier(cl.LOCAL_MEM_FENCE)
    return scratch[0]


@cl.kernel
def sums(out: cl.global_ptr(f32), data: cl.global_ptr(f32, const=True)):
    scratch = cl.local_array(f32, 64)
    lid = cl.local_id(0)
    scratch[lid] = data[cl.global_id(0)]
    total = group_sum(scratch, lid)
    if lid == 0:
        out[cl.group_id(0)] = total


def test_helper_with_barriers_on_local_memory(queue):
    data = np.arange(256, dtype=f32)
    out = np.zeros(4, f32)
    sums(queue, (256,), (64,), out, data)
    assert out.tolist() == data.reshape(4, 64).sum(1).tolist()


@cl.kernel
def arrays(out: cl.global_ptr(i32)):
    tile = cl.local_array(i32, (4, 5))
    lx, ly = cl.local_id(0), cl.local_id(1)
    tile[ly, lx] = ly * 10 + lx
    cl.barrier()
    digits = cl.private_array(i32, 3)
    for k in range(3):
        digits[k] = tile[lx][ly] + k
    out[cl.global_id(1) * 4 + cl.global_id(0)] = digits[0] + digits[1] * 100 + digits[2] * 10000


def test_two_dimensional_local_and_private_arrays(queue):
    out = np.zeros(16, i32)
    arrays(queue, (4, 4), (4, 4), out)
    t = np.arange(4)[:, None] * 10 + np.arange(4)[None, :]   # tile[ly][lx]
    v = t.T                                                  # tile[lx][ly] at (ly, lx)
    assert out.reshape(4, 4).tolist() == (v + (v + 1) * 100 + (v + 2) * 10000).tolist()


@cl.kernel
def vectors(out: cl.global_ptr(cl.float4), pos: cl.global_ptr(cl.float4), w: f32):
    i = cl.global_id(0)
    p = pos[i]
    q = cl.float4(p.xyz * 2.0, w)
    q.x += cl.dot(p, p)
    out[i] = q + cl.float4(1.0)


def test_vector_types_swizzles_and_builtins(queue):
    pos = np.arange(8, dtype=f32).reshape(2, 4)
    out = np.zeros_like(pos)
    vectors(queue, (2,), (2,), out, pos, f32(0.5))
    expected = np.concatenate([pos[:, :3] * 2, np.full((2, 1), 0.5, f32)], axis=1)
    expected[:, 0] += (pos * pos).sum(1)
    assert out.tolist() == (expected + 1).tolist()


@cl.kernel
def atomics(counts: cl.global_ptr(i32), values: cl.global_ptr(i32), old: cl.global_ptr(i32)):
    i = cl.global_id(0)
    local_count = cl.local_array(i32, 1)
    if cl.local_id(0) == 0:
        local_count[0] = 0
    cl.barrier()
    cl.atomic_inc(local_count, 0)
    cl.atomic_add(counts, 0, values[i])
    cl.atomic_max(counts, 1, values[i])
    old[i] = cl.atomic_cmpxchg(counts, 2, i, i + 1)
    cl.barrier()
    if cl.local_id(0) == 0:
        cl.atomic_add(counts, 3, local_count[0])


def test_atomics_on_global_and_local_integers(queue):
    values = np.arange(64, dtype=i32) * 3 - 50
    counts, old = np.zeros(4, i32), np.zeros(64, i32)
    atomics(queue, (64,), (16,), counts, values, old)
    assert counts[0] == values.sum() and counts[1] == values.max() and counts[3] == 64
    # work-item i swaps in i + 1 only after 0 .. i - 1 did: the winners are 0 .. counts[2] - 1
    assert [i for i in range(64) if old[i] == i] == list(range(counts[2])) and counts[2] >= 1


@cl.kernel
def work_items(out: cl.global_ptr(i32)):
    i = cl.global_id(0) - cl.global_offset(0) + (cl.global_id(1) - cl.global_offset(1)) * 4
    out[6 * i] = cl.global_id(0)
    out[6 * i + 1] = cl.group_id(1)
    out[6 * i + 2] = cl.num_groups(0) * 10 + cl.num_groups(1)
    out[6 * i + 3] = cl.global_size(1)
    out[6 * i + 4] = cl.work_dim()
    out[6 * i + 5] = cl.local_size(0) * 10 + cl.local_id(1)


def test_work_item_functions(queue):
    out = np.zeros(6 * 8, i32)
    work_items(queue, (4, 2), (2, 1), out, global_offset=(10, 20))
    rows = out.reshape(8, 6)
    for k, (gx, gy) in enumerate((x, y) for y in range(2) for x in range(4)):
        assert rows[k].tolist() == [10 + gx, gy, 22, 2, 2, 20], k


@cl.kernel
def maths(out: cl.global_ptr(f32), x: cl.global_ptr(f32)):
    i = cl.global_id(0)
    v = x[i]
    out[8 * i] = math.sqrt(v)
    out[8 * i + 1] = math.exp(-v) + math.log(v + 1)
    out[8 * i + 2] = math.sin(v) * math.cos(v)
    out[8 * i + 3] = math.fabs(v - 1) + min(v, 0.5) + max(v, 1, 0.25)
    out[8 * i + 4] = cl.clamp(v, 0, 1) + cl.mad(v, 2.0, 1.0)
    out[8 * i + 5] = math.atan2(v, 2.0) + math.hypot(v, 1.0)
    out[8 * i + 6] = np.float32(math.pi) * v
    out[8 * i + 7] = cl.fma(v, v, 1.0) if v > 1.0 else cl.rsqrt(v + 1)


def test_math_builtins(queue):
    x = np.linspace(0.1, 3.0, 16).astype(f32)
    out = np.zeros(8 * x.size, f32)
    maths(queue, (x.size,), None, out, x)
    d = x.astype(np.float64)
    expected = np.stack([np.sqrt(d), np.exp(-d) + np.log(d + 1), np.sin(d) * np.cos(d),
                         np.abs(d - 1) + np.minimum(d, 0.5) + np.maximum(np.maximum(d, 1), 0.25),
                         np.clip(d, 0, 1) + d * 2 + 1, np.arctan2(d, 2) + np.hypot(d, 1), math.pi * d,
                         np.where(d > 1, d * d + 1, 1 / np.sqrt(d + 1))], axis=1)
    assert np.allclose(out.reshape(-1, 8), expected, rtol=2e-6, atol=1e-6)


@cl.kernel
def unsigned_ranges(out: cl.global_ptr(i32), n: u32):
    total = 0
    for k in range(n):            # counts in uint, like n
        total += 1
    for k in range(n, -1, -1):    # down to zero in a signed count: -1 is below every uint
        total += 100
    out[0] = total


def test_ranges_over_unsigned_bounds(queue):
    out = np.zeros(1, i32)
    unsigned_ranges(queue, (1,), (1,), out, u32(5))
    assert out[0] == 5 + 100 * 6
