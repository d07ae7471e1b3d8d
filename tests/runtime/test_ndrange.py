"""NDRange geometry: region splitting and the automatic local size."""
import pytest

from loomcl.engine.ndrange import choose_local_size, split_regions


def test_dividing_sizes_give_one_region():
    regions = split_regions((256, 4), (64, 2))
    assert len(regions) == 1
    assert regions[0].groups == (4, 2, 1) and regions[0].local_size == (64, 2, 1)


def test_remainders_give_up_to_eight_regions():
    regions = split_regions((10, 7, 5), (4, 3, 2))
    assert len(regions) == 8
    assert sum(r.group_count for r in regions) == 3 * 3 * 3
    covered = sum(r.group_count * r.local_size[0] * r.local_size[1] * r.local_size[2] for r in regions)
    assert covered == 10 * 7 * 5
    assert regions[-1].origin == (2, 2, 2) and regions[-1].local_size == (2, 1, 1)


def test_global_smaller_than_local_is_one_partial_group():
    (region,) = split_regions((5,), (64,))
    assert region.groups == (1, 1, 1) and region.local_size == (5, 1, 1)


@pytest.mark.parametrize("global_size", [(1,), (7,), (1000,), (1 << 20,), (1024, 1024), (3, 5, 7), (1000003,)])
def test_auto_local_size_is_sane(global_size):
    local = choose_local_size(global_size, threads=2, required=None)
    assert len(local) == len(global_size)
    product = 1
    for size in local:
        product *= size
    assert 1 <= product <= 256
    assert all(1 <= l <= max(g, 1) for l, g in zip(local, global_size))


def test_auto_local_size_prefers_wide_dividing_x():
    assert choose_local_size((1 << 20,), threads=2, required=None) == (256,)
    assert choose_local_size((1000,), threads=2, required=None) == (250,)
    assert choose_local_size((1024, 1024), threads=2, required=None) == (256, 1)


def test_auto_local_size_leaves_a_group_per_thread():
    local = choose_local_size((256,), threads=4, required=None)
    assert 256 // local[0] >= 4


def test_auto_local_size_respects_required():
    assert choose_local_size((64, 64), threads=2, required=(8, 4, 1)) == (8, 4)
