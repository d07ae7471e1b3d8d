"""Slices of a batch's flat group range: slices that tile [0, total) run every group of every region
exactly once, each with its slice's entry point. The native pool's walk over a request
(engine/native_pool.py, run_chunks: chunks of positions, each cut by every region's span, the
region's function called with region-local group indices) is modelled here in Python, so that every
split is checked exhaustively; the e2e tests of this folder run the real thing."""
from __future__ import annotations

import itertools
from types import SimpleNamespace

from loomcl.engine.group_slices import GroupSlice
from loomcl.engine.native_pool import RegionDesc

LAUNCH = 1000  # a region's `launch` field: LAUNCH + its index, so the slice's descriptors name it


def batch_of(counts: list[int]) -> SimpleNamespace:
    descs = (RegionDesc * len(counts))()
    first = 0
    for index, (desc, count) in enumerate(zip(descs, counts)):
        desc.entry, desc.args, desc.launch, desc.first, desc.count = 1, 2, LAUNCH + index, first, count
        first += count
    return SimpleNamespace(descs=descs, total_groups=first)


def groups_run(part: GroupSlice, chunk: int) -> list[tuple[int, int, int]]:
    """(entry, region, region-local group) of each group the pool runs for `part`."""
    ran = []
    for start in range(0, part.groups, chunk):
        end = min(start + chunk, part.groups)
        for desc in part.descs:
            lo, hi = max(start, desc.first), min(end, desc.first + desc.count)
            ran.extend((desc.entry, desc.launch - LAUNCH, b) for b in range(lo - desc.first, hi - desc.first))
    return ran


def test_slices_that_tile_a_batch_run_each_group_once():
    for counts in ([7], [5, 3], [4, 1, 6, 2], [1, 1, 1]):
        batch = batch_of(counts)
        everything = sorted((region, b) for region, count in enumerate(counts) for b in range(count))
        for cuts in itertools.chain.from_iterable(
                itertools.combinations(range(1, batch.total_groups), k) for k in (0, 1, 2, 3)):
            bounds = [0, *cuts, batch.total_groups]
            for chunk in (1, 2, 5):
                seen = []
                for number, (begin, end) in enumerate(zip(bounds, bounds[1:])):
                    part = GroupSlice(batch, (100 + number,) * len(counts), begin, end)
                    run = groups_run(part, chunk)
                    assert {entry for entry, _, _ in run} == {100 + number}
                    assert len(run) == end - begin
                    seen += [(region, b) for _, region, b in run]
                assert sorted(seen) == everything, (counts, bounds, chunk)


def test_a_slice_holds_only_the_regions_it_meets():
    batch = batch_of([4, 4, 4])
    part = GroupSlice(batch, (7, 8, 9), 5, 7)
    assert [(d.entry, d.launch - LAUNCH, d.first, d.count) for d in part.descs] == [(8, 1, -1, 3)]
    assert part.groups == 2 and part.request.count == 1 and part.request.total == 2


def test_variants_must_walk_the_groups_alike():
    """A variant that maps group indices to groups otherwise (tiles vs rows) or lays out the arena
    otherwise is no candidate: its slices would run other groups than the default's."""
    from loomcl.engine.microprofile import Candidate

    def candidate(tile, static=256, private=0):
        function = SimpleNamespace(address=1, group_tile=tile, static_local_bytes=static, private_bytes=private)
        return Candidate("v", {(16, 16, 1): function}, ((16, 16, 1),))

    assert candidate(None).same_layout(candidate(None)) and candidate(32).same_layout(candidate(32))
    assert not candidate(None).same_layout(candidate(32))
    assert not candidate(None).same_layout(candidate(None, static=512))
    assert not candidate(None).same_layout(candidate(None, private=128))
