"""Launches of hand-written work-group functions: results against numpy, region decoding, local
memory, argument packing, the plan and function caches, and repeated launches."""
import numpy as np
import pytest

import loomcl as cl

mf = cl.mem_flags


def read(queue, buf, dtype, count):
    out = np.empty(count, dtype)
    cl.enqueue_copy(queue, out, buf)
    return out


@pytest.mark.parametrize("n, local", [(1000, None), (1024, (64,)), (1000, (64,)), (1, (1,)), (100000, (128,))])
def test_vadd(ctx, queue, prg, n, local):
    a, b = np.random.rand(n).astype(np.float32), np.random.rand(n).astype(np.float32)
    a_buf = cl.Buffer(ctx, mf.READ_ONLY | mf.COPY_HOST_PTR, hostbuf=a)
    b_buf = cl.Buffer(ctx, mf.READ_ONLY | mf.COPY_HOST_PTR, hostbuf=b)
    c_buf = cl.Buffer(ctx, mf.WRITE_ONLY, a.nbytes)
    event = prg.vadd(queue, (n,), local, a_buf, b_buf, c_buf, np.uint32(n))
    assert isinstance(event, cl.Event)
    assert np.array_equal(read(queue, c_buf, np.float32, n), a + b)


def expected_geometry(global_size, local_size, offset):
    """Per work-item (linear over the global size, x fastest): group ids, local sizes, local ids."""
    dims = len(global_size)
    gs = tuple(global_size) + (1,) * (3 - dims)
    ls = tuple(local_size) + (1,) * (3 - dims)
    grids = np.meshgrid(*[np.arange(g) for g in gs], indexing="ij")
    rel = [grid.transpose(2, 1, 0).reshape(-1) for grid in grids]  # x fastest
    groups = np.stack([r // l for r, l in zip(rel, ls)], axis=1)
    lids = np.stack([r % l for r, l in zip(rel, ls)], axis=1)
    sizes = np.stack([np.where(r // l < g // l, l, g % l) for r, l, g in zip(rel, ls, gs)], axis=1)
    return groups, sizes, lids


@pytest.mark.parametrize(
    "global_size, local_size, offset",
    [
        ((64,), (16,), None),
        ((1000,), (64,), (3,)),
        ((37, 11), (8, 4), (1, 2)),
        ((16, 16), (16, 16), None),
        ((9, 7, 5), (4, 2, 3), (5, 0, 7)),
        ((5,), (64,), None),
        ((300, 3), None, None),
    ],
)
def test_every_work_item_runs_once_with_its_ids(ctx, queue, prg, global_size, local_size, offset):
    total = int(np.prod(global_size))
    count = cl.Buffer(ctx, mf.READ_WRITE, 4 * total)
    groups, sizes, lids = (cl.Buffer(ctx, mf.READ_WRITE, 12 * total) for _ in range(3))
    knl = prg.record
    knl(queue, global_size, local_size, count, groups, sizes, lids, global_offset=offset)
    if local_size is None:
        local_size = next(iter(knl._plans.values())).local_size
    want_groups, want_sizes, want_lids = expected_geometry(global_size, local_size, offset)
    assert np.all(read(queue, count, np.int32, total) == 1)
    assert np.array_equal(read(queue, groups, np.int32, 3 * total).reshape(-1, 3), want_groups)
    assert np.array_equal(read(queue, sizes, np.int32, 3 * total).reshape(-1, 3), want_sizes)
    assert np.array_equal(read(queue, lids, np.int32, 3 * total).reshape(-1, 3), want_lids)


def test_many_groups_across_threads(ctx, queue, prg):
    total = 1 << 18
    count = cl.Buffer(ctx, mf.READ_WRITE, 4 * total)
    scratch = [cl.Buffer(ctx, mf.READ_WRITE, 12 * total) for _ in range(3)]
    for _ in range(3):
        prg.record(queue, (total,), (4,), count, *scratch)
    assert np.all(read(queue, count, np.int32, total) == 3)


def test_remainder_sizes_compile_separately_and_are_cached(ctx, queue, prg):
    out = cl.Buffer(ctx, mf.READ_WRITE, 4 * 100)
    for _ in range(3):
        prg.store_gid(queue, (100,), (32,), out)
    assert np.array_equal(read(queue, out, np.int32, 100), np.arange(100))
    compiled = [size for name, size in prg._compiled.compiled_sizes if name == "store_gid"]
    assert compiled == [(32, 1, 1), (4, 1, 1)]


def test_scalar_arguments(ctx, queue, prg):
    x = np.arange(64, dtype=np.float32)
    buf = cl.Buffer(ctx, mf.READ_WRITE | mf.COPY_HOST_PTR, hostbuf=x)
    prg.scale(queue, (64,), (16,), buf, np.float32(0.5), np.int32(-3))
    prg.scale(queue, (64,), (16,), buf, 2, 1)
    assert np.array_equal(read(queue, buf, np.float32, 64), (x * 0.5 - 3) * 2 + 1)


def test_argument_slots_hold_zero_extended_bits(ctx, queue, prg):
    out = cl.Buffer(ctx, mf.READ_WRITE, 8 * 9)
    prg.slots(queue, (1,), (1,), out, -1, 65535, -2, -3, 2**64 - 1, 1.5, -2.0, np.float16(1.0), True)
    got = read(queue, out, np.uint64, 9)
    want = [0xFF, 0xFFFF, 0xFFFFFFFE, 2**64 - 3, 2**64 - 1,
            np.float32(1.5).view(np.uint32), np.float64(-2.0).view(np.uint64), np.float16(1.0).view(np.uint16), 1]
    assert got.tolist() == [int(w) for w in want]


def test_by_value_vector_argument(ctx, queue, prg):
    out = cl.Buffer(ctx, mf.READ_WRITE, 4 * 8)
    prg.by_value(queue, (8,), (8,), out, np.array([1, 2, 3, 4], np.float32))
    assert np.all(read(queue, out, np.float32, 8) == 5)


@pytest.mark.parametrize("local", [8, 64, 128])
def test_local_pointer_argument_after_static_locals(ctx, queue, prg, local):
    n = 1024
    src = np.arange(n, dtype=np.float32)
    src_buf = cl.Buffer(ctx, mf.READ_ONLY | mf.COPY_HOST_PTR, hostbuf=src)
    dst_buf = cl.Buffer(ctx, mf.WRITE_ONLY, src.nbytes)
    prg.local_reverse(queue, (n,), (local,), src_buf, dst_buf, cl.LocalMemory(4 * local))
    want = src.reshape(-1, local)[:, ::-1].reshape(-1)
    assert np.array_equal(read(queue, dst_buf, np.float32, n), want)


def test_local_memory_grows_the_arenas(ctx, queue, prg):
    n, local = 8192, 4096
    src = np.arange(n, dtype=np.float32)
    src_buf = cl.Buffer(ctx, mf.READ_ONLY | mf.COPY_HOST_PTR, hostbuf=src)
    dst_buf = cl.Buffer(ctx, mf.WRITE_ONLY, src.nbytes)
    prg.local_reverse(queue, (n,), (local,), src_buf, dst_buf, cl.LocalMemory(4 * local * 32))
    assert np.array_equal(read(queue, dst_buf, np.float32, n), src.reshape(-1, local)[:, ::-1].reshape(-1))


def test_too_much_local_memory(ctx, queue, prg):
    src = cl.Buffer(ctx, mf.READ_WRITE, 64 * 4)
    too_big = ctx.devices[0].local_mem_size + 1
    with pytest.raises(cl.MemoryError, match="OUT_OF_RESOURCES.*local memory"):
        prg.local_reverse(queue, (64,), (64,), src, src, cl.LocalMemory(too_big))


def test_reqd_work_group_size_is_used_when_local_is_none(ctx, queue, prg):
    out = cl.Buffer(ctx, mf.READ_WRITE, 4 * 64)
    prg.fixed(queue, (64,), None, out)
    assert np.array_equal(read(queue, out, np.int32, 64), np.arange(64))
    assert [s for n, s in prg._compiled.compiled_sizes if n == "fixed"] == [(8, 1, 1)]


def test_set_arg_then_enqueue_nd_range_kernel(ctx, queue, prg):
    out = cl.Buffer(ctx, mf.READ_WRITE, 4 * 32)
    knl = cl.Kernel(prg, "store_gid")
    knl.set_arg(0, out)
    cl.enqueue_nd_range_kernel(queue, knl, (32,), (8,))
    assert np.array_equal(read(queue, out, np.int32, 32), np.arange(32))


def test_g_times_l(ctx, queue, prg):
    out = cl.Buffer(ctx, mf.READ_WRITE, 4 * 32)
    prg.store_gid(queue, (4,), (8,), out, g_times_l=True)
    assert np.array_equal(read(queue, out, np.int32, 32), np.arange(32))


def test_list_sizes_and_empty_ndrange(ctx, queue, prg):
    out = cl.Buffer(ctx, mf.READ_WRITE, 4 * 32)
    prg.store_gid(queue, [32], [8], out)
    assert np.array_equal(read(queue, out, np.int32, 32), np.arange(32))
    event = prg.store_gid(queue, (0,), None, out, allow_empty_ndrange=True)
    event.wait()
    assert event.command_execution_status == cl.command_execution_status.COMPLETE


def test_profiled_launch(ctx, profiling_queue, prg):
    out = cl.Buffer(ctx, mf.READ_WRITE, 4 * 4096)
    event = prg.store_gid(profiling_queue, (4096,), (64,), out)
    event.wait()
    assert event.profile.queued <= event.profile.start <= event.profile.end
    assert event.command_type == cl.command_type.NDRANGE_KERNEL


def test_thousand_repeated_launches(ctx, queue, prg):
    n = 64 * 64
    count = cl.Buffer(ctx, mf.READ_WRITE, 4 * n)
    scratch = [cl.Buffer(ctx, mf.READ_WRITE, 12 * n) for _ in range(3)]
    knl = prg.record
    for _ in range(1000):
        knl(queue, (n,), (64,), count, *scratch)
    queue.finish()
    assert np.all(read(queue, count, np.int32, n) == 1000)


def test_alternating_kernels_and_sizes(ctx, queue, prg):
    n = 3000
    count = cl.Buffer(ctx, mf.READ_WRITE, 4 * n)
    scratch = [cl.Buffer(ctx, mf.READ_WRITE, 12 * n) for _ in range(3)]
    out = cl.Buffer(ctx, mf.READ_WRITE, 4 * n)
    for i in range(300):
        prg.record(queue, (n,), (64,) if i % 2 else (7,), count, *scratch)
        prg.store_gid(queue, (n,), None, out)
        prg.empty(queue, (1,), (1,))
    assert np.all(read(queue, count, np.int32, n) == 300)
    assert np.array_equal(read(queue, out, np.int32, n), np.arange(n))


def test_compile_failure_for_a_local_size(ctx, queue, prg, monkeypatch):
    from kernels import CompileError

    def refuse(name, local_size, ids_fit_int=False, *specialization):
        error = CompileError([])
        error.log = "too many registers"
        raise error

    monkeypatch.setattr(prg._compiled, "work_group_function", refuse)
    out = cl.Buffer(ctx, mf.READ_WRITE, 4 * 64)
    with pytest.raises(cl.RuntimeError, match=r"BUILD_PROGRAM_FAILURE.*local size \(16, 1, 1\).*\n.*too many registers"):
        prg.store_gid(queue, (64,), (16,), out)


def test_three_element_vector_is_padded(ctx, queue, prg):
    out = cl.Buffer(ctx, mf.READ_WRITE, 4 * 8)
    prg.by_value3(queue, (8,), (8,), out, (1.0, 2.0, 3.0))
    assert np.all(read(queue, out, np.float32, 8) == 1.0)  # v.x + the padding lane (0)
