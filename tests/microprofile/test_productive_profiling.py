"""A profiled launch runs every work-group exactly once, some with each variant, and computes what the
unprofiled kernel computes; small launches, printf kernels, checked mode and the switch behave."""
from __future__ import annotations

import numpy as np
import pytest

import loomcl as cl
from loomcl.engine import microprofile, variants

from profiled import CountingLaunch, expected_out, grew, selection_of, snapshot

RAGGED = (1 << 17) + 37  # two regions: 2048 groups of 64 and one of 37


def test_every_group_runs_once_and_the_results_match_numpy(ctx, queue):
    before = snapshot()
    launch = CountingLaunch(ctx, queue, RAGGED, 64)
    launch()
    out, hits = launch.results()
    assert grew(before, "profiled_launches") == 1 and grew(before, "decisions") == 1
    assert grew(before, "profiled_groups") > 0
    np.testing.assert_array_equal(hits, launch.expected_hits(1))
    np.testing.assert_array_equal(out, expected_out(launch.a))
    selection = selection_of(launch.kernel)
    assert len(selection.candidates) >= 2 and selection.winner is not None
    launch()  # the winner's launch
    out, hits = launch.results()
    np.testing.assert_array_equal(hits, launch.expected_hits(2))
    np.testing.assert_array_equal(out, expected_out(launch.a))


@pytest.mark.parametrize("forced", ["nointerleave", "scalar", "default"])
def test_a_forced_winner_computes_what_the_unprofiled_kernel_computes(ctx, queue, monkeypatch, forced):
    monkeypatch.setenv(microprofile.FORCE_ENVIRONMENT, forced)
    profiled = CountingLaunch(ctx, queue, RAGGED, 64, seed=3)
    plain = CountingLaunch(ctx, queue, RAGGED, 64, options="-loomcl-no-microprofile", seed=3)
    for _ in range(2):
        profiled()
        plain()
    assert microprofile.choices_of(profiled.kernel) == {selection_of(profiled.kernel).shape: forced}
    assert plain.kernel._selections == {}
    (out, hits), (plain_out, plain_hits) = profiled.results(), plain.results()
    np.testing.assert_array_equal(out, plain_out)
    np.testing.assert_array_equal(hits, plain_hits)
    np.testing.assert_array_equal(hits, profiled.expected_hits(2))


def test_a_2d_launch_with_tails_writes_each_group_once(ctx, queue):
    source = """
    kernel void ids(global int *out, global int *hits) {
        size_t w = get_global_size(0);
        out[get_global_id(1) * w + get_global_id(0)] = (int)(get_group_id(1) * 1000 + get_group_id(0));
        atomic_inc(&hits[get_group_id(1) * get_num_groups(0) + get_group_id(0)]);
    }"""
    width, height, local = 300, 250, (16, 16)
    out = np.full(width * height, -1, np.int32)
    groups = (-(-width // 16), -(-height // 16))
    hits = np.zeros(groups[0] * groups[1], np.int32)
    mf = cl.mem_flags
    out_buf = cl.Buffer(ctx, mf.READ_WRITE | mf.COPY_HOST_PTR, hostbuf=out)
    hits_buf = cl.Buffer(ctx, mf.READ_WRITE | mf.COPY_HOST_PTR, hostbuf=hits)
    kernel = cl.Program(ctx, source).build().ids
    before = snapshot()
    kernel(queue, (width, height), local, out_buf, hits_buf)
    cl.enqueue_copy(queue, out, out_buf)
    cl.enqueue_copy(queue, hits, hits_buf)
    queue.finish()
    assert grew(before, "profiled_launches") == 1
    y, x = np.mgrid[0:height, 0:width]
    np.testing.assert_array_equal(out.reshape(height, width), (y // 16) * 1000 + x // 16)
    gy, gx = np.mgrid[0:groups[1], 0:groups[0]]
    sizes = np.minimum(16, width - 16 * gx) * np.minimum(16, height - 16 * gy)
    np.testing.assert_array_equal(hits, sizes.reshape(-1))


def test_a_kernel_walking_its_groups_in_tiles_runs_each_group_once(ctx, queue):
    """A transpose walks its output down the columns: its groups run in tiles (group-order), in
    every variant alike, and each profiling slice runs its own groups."""
    source = """
    kernel void transpose(global const float *in, global float *out, global int *hits, int n) {
        size_t x = get_global_id(0), y = get_global_id(1);
        out[x * n + y] = in[y * n + x];
        atomic_inc(&hits[get_group_id(1) * get_num_groups(0) + get_group_id(0)]);
    }"""
    n = 1024
    a = np.random.default_rng(5).random((n, n), dtype=np.float32)
    out, hits = np.zeros_like(a), np.zeros((n // 16) ** 2, np.int32)
    mf = cl.mem_flags
    a_buf = cl.Buffer(ctx, mf.READ_ONLY | mf.COPY_HOST_PTR, hostbuf=a)
    out_buf = cl.Buffer(ctx, mf.READ_WRITE | mf.COPY_HOST_PTR, hostbuf=out)
    hits_buf = cl.Buffer(ctx, mf.READ_WRITE | mf.COPY_HOST_PTR, hostbuf=hits)
    kernel = cl.Program(ctx, source).build().transpose
    before = snapshot()
    kernel(queue, (n, n), (16, 16), a_buf, out_buf, hits_buf, np.int32(n))
    cl.enqueue_copy(queue, out, out_buf)
    cl.enqueue_copy(queue, hits, hits_buf)
    queue.finish()
    assert grew(before, "profiled_launches") == 1
    assert selection_of(kernel).default.functions[(16, 16, 1)].group_tile  # (the walk under test)
    np.testing.assert_array_equal(hits, np.full(hits.size, 256))
    np.testing.assert_array_equal(out, a.T)


def test_small_launches_run_the_default_and_gather_rounds(ctx, queue, monkeypatch):
    """Launches with room for less than ROUNDS rounds add what they can; a launch with room for none
    runs the default alone; the choice comes when the rounds are complete."""
    monkeypatch.setattr(microprofile, "MIN_GROUPS", 1)
    monkeypatch.setattr(microprofile, "SLICE_NS", 0)  # slices of the smallest size: known room
    monkeypatch.setattr(microprofile, "MIN_SLICE_PER_THREAD", 1)
    monkeypatch.setattr(microprofile, "ROUNDS", 8)  # more than one small launch has room for
    monkeypatch.setattr(microprofile, "DROP_RATIO", 1e9)  # every variant stays in the race
    threads = microprofile_threads()
    tiny = CountingLaunch(ctx, queue, 64, 64)  # one group: no room for a round
    before = snapshot()
    tiny()
    assert grew(before, "profiled_launches") == 0 and not selection_of(tiny.kernel).rounds
    # room for two rounds of two slices of `threads` groups per variant: the first calibrates
    small = CountingLaunch(ctx, queue, 64 * 4 * len(variants.VARIANTS) * threads, 64)
    small()
    selection = selection_of(small.kernel)
    assert 0 < len(selection.rounds) < microprofile.ROUNDS and selection.winner is None
    launches = 1
    while selection.winner is None and launches < 2 * microprofile.ROUNDS:
        small()
        launches += 1
    assert selection.winner is not None and len(selection.rounds) == microprofile.ROUNDS
    out, hits = small.results()
    np.testing.assert_array_equal(hits, small.expected_hits(launches))
    np.testing.assert_array_equal(out, expected_out(small.a))
    _, tiny_hits = tiny.results()
    np.testing.assert_array_equal(tiny_hits, tiny.expected_hits(1))


def microprofile_threads() -> int:
    from loomcl.engine.pool import get_pool

    return get_pool().thread_count


def test_variants_far_behind_leave_the_race(ctx, queue, monkeypatch):
    monkeypatch.setattr(microprofile, "DROP_RATIO", 0.0)  # all but a round's fastest are "far behind"
    monkeypatch.setattr(microprofile, "ROUNDS", 1000)  # only the race can decide
    before = snapshot()
    launch = CountingLaunch(ctx, queue, RAGGED, 64)
    launch()
    launches = 1
    while launches < 5 and selection_of(launch.kernel).winner is None:
        launch()
        launches += 1
    selection = selection_of(launch.kernel)
    assert len(selection.candidates) == 1 and selection.winner is selection.candidates[0]
    assert grew(before, "decisions") == 1
    out, hits = launch.results()
    np.testing.assert_array_equal(hits, launch.expected_hits(launches))
    np.testing.assert_array_equal(out, expected_out(launch.a))


@pytest.mark.parametrize("how", ["option", "environment", "checked"])
def test_switched_off_no_variant_is_compiled(ctx, queue, monkeypatch, how):
    options = {"option": "-loomcl-no-microprofile", "checked": "-loomcl-check"}.get(how, "")
    if how == "environment":
        monkeypatch.setenv(microprofile.ENVIRONMENT, "0")
    before = snapshot()
    launch = CountingLaunch(ctx, queue, RAGGED, 64, options=options)
    for _ in range(3):
        launch()
    out, hits = launch.results()
    assert launch.kernel._selections == {}
    assert grew(before, "variants_compiled") == 0 and grew(before, "profiled_launches") == 0
    np.testing.assert_array_equal(hits, launch.expected_hits(3))
    np.testing.assert_array_equal(out, expected_out(launch.a))


def test_background_compiles_start_at_the_second_launch(ctx, queue, monkeypatch):
    monkeypatch.setenv(microprofile.ENVIRONMENT, "1")
    monkeypatch.setattr(microprofile, "MIN_LAUNCH_NS", 0)  # (the first launch's time does not matter here)
    before = snapshot()
    launch = CountingLaunch(ctx, queue, RAGGED, 64)
    launch()
    queue.finish()
    selection = selection_of(launch.kernel)
    assert selection.candidates is None and grew(before, "variants_compiled") == 0  # launched once
    launch()
    queue.finish()
    assert selection.ready.wait(120) and len(selection.candidates) >= 2
    launches = 2
    while selection.winner is None and launches < 10:
        launch()
        queue.finish()
        launches += 1
    assert selection.winner is not None and grew(before, "profiled_launches") >= 1
    out, hits = launch.results()
    np.testing.assert_array_equal(hits, launch.expected_hits(launches))
    np.testing.assert_array_equal(out, expected_out(launch.a))


def test_few_groups_or_brief_launches_compile_no_variant(ctx, queue, monkeypatch):
    monkeypatch.setenv(microprofile.ENVIRONMENT, "1")
    monkeypatch.setattr(microprofile, "MIN_LAUNCH_NS", 10**12)  # no launch here is that long
    before = snapshot()
    few = CountingLaunch(ctx, queue, 64 * (microprofile.MIN_GROUPS - 1), 64)
    brief = CountingLaunch(ctx, queue, RAGGED, 64)
    for _ in range(3):
        few()
        brief()
    assert few.kernel._selections == {} and selection_of(brief.kernel).candidates is None
    assert all(plan.selection is None for plan in brief.kernel._plans.values())  # no longer timed
    assert grew(before, "variants_compiled") == 0
    for launch in (few, brief):
        out, hits = launch.results()
        np.testing.assert_array_equal(hits, launch.expected_hits(3))
        np.testing.assert_array_equal(out, expected_out(launch.a))


def test_printf_kernels_print_as_without_profiling(ctx, queue, capfd):
    source = """
    kernel void say(global int *out) {
        size_t i = get_global_id(0);
        out[i] = (int)i;
        if (i % 16384 == 5) printf("item %d of group %d\\n", (int)i, (int)get_group_id(0));
    }"""
    outputs = []
    for options in ("", "-loomcl-no-microprofile"):
        kernel = cl.Program(ctx, source).build(options=options).say
        out = np.zeros(1 << 17, np.int32)
        buf = cl.Buffer(ctx, cl.mem_flags.READ_WRITE, out.nbytes)
        for _ in range(2):
            kernel(queue, (out.size,), (64,), buf)
        cl.enqueue_copy(queue, out, buf)
        queue.finish()
        np.testing.assert_array_equal(out, np.arange(out.size))
        assert kernel._selections == {}
        outputs.append(sorted(capfd.readouterr().out.splitlines()))
    expected = sorted(f"item {i} of group {i // 64}" for i in range(5, 1 << 17, 16384)) * 2
    assert outputs[0] == outputs[1] == sorted(expected)


def test_a_profiled_launch_on_a_profiling_queue_has_its_times(ctx):
    queue = cl.CommandQueue(ctx, properties=cl.command_queue_properties.PROFILING_ENABLE)
    launch = CountingLaunch(ctx, queue, RAGGED, 64)
    before = snapshot()
    event = launch()
    event.wait()
    assert grew(before, "profiled_launches") == 1
    assert event.command_execution_status == cl.command_execution_status.COMPLETE
    assert event.profile.queued <= event.profile.start < event.profile.end
    out, hits = launch.results()
    np.testing.assert_array_equal(hits, launch.expected_hits(1))
