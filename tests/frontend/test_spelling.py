"""Spelling suggestions: edit distance and clang's (length + 2) // 3 limit."""
import pytest

from loomcl.frontend.spelling import closest_name, edit_distance


@pytest.mark.parametrize("a, b, distance", [
    ("", "", 0), ("abc", "abc", 0), ("", "abc", 3), ("kitten", "sitting", 3),
    ("popcnt", "popcount", 2), ("clz", "ctz", 1), ("ab", "ba", 2),
])
def test_edit_distance(a, b, distance):
    assert edit_distance(a, b) == distance == edit_distance(b, a)


def test_closest_name_is_the_nearest_within_the_limit():
    names = ["popcount", "pow", "rotate", "clz", "ctz"]
    assert closest_name("popcnt", names) == "popcount"
    assert closest_name("rotat", names) == "rotate"
    assert closest_name("frobnicate", names) is None
    assert closest_name("xyz", names) is None  # 3 letters allow 1 edit; clz is 2 away


def test_ties_go_to_the_alphabetically_first_name():
    assert closest_name("cxz", ["ctz", "clz"]) == "clz"
