import numpy as np
import pytest

from loomcl import ir
from loomcl.ir.reader import read_module
from loomcl.options import CompilerOptions
from loomcl.transforms.pipeline import work_group_function

from . import interp

PREDICATES = {"slt": np.less, "sle": np.less_equal, "sgt": np.greater, "sge": np.greater_equal,
              "eq": np.equal, "ult": np.less, "ule": np.less_equal, "ugt": np.greater, "uge": np.greater_equal}


def guarded(predicate: str, width: int, swapped: bool) -> str:
    lid = "%lid" if width == 64 else "%lid32"
    lhs, rhs = (f"%s, {lid}" if swapped else f"{lid}, %s").split(", ")
    return f"""kernel @guarded(ptr.global %out, i{width} %s) {{
entry:
  %lid = local_id 0
  %lid32 = trunc %lid to i32
  %grp = group_id 0
  %lsz = local_size 0
  %base = mul %grp, %lsz
  %gid = add %base, %lid
  %c = cmp {predicate} {lhs}, {rhs}
  branch %c, yes, no
yes:
  %p = elementptr i32, %out, %gid
  store i32 1, %p
  jump no
no:
  ret
}}"""


SWAP = {"slt": "sgt", "sle": "sge", "sgt": "slt", "sge": "sle", "eq": "eq", "ult": "ugt", "ule": "uge",
        "ugt": "ult", "uge": "ule"}


@pytest.mark.parametrize("swapped", [False, True])
@pytest.mark.parametrize("width", [32, 64])
@pytest.mark.parametrize("predicate", list(PREDICATES))
def test_guard_becomes_loop_bounds(predicate, width, swapped):
    L = 8
    text = guarded(SWAP[predicate] if swapped else predicate, width, swapped)
    f = work_group_function(read_module(text), "guarded", (L, 1, 1), CompilerOptions(verify_each=True))
    (loop,) = f.work_item_loops
    counter = loop.header.phis[0]
    assert not any(isinstance(u, ir.Compare) and u.block is loop.header and u is not loop.latch.terminator.condition
                   for u in counter.users)  # the guard is gone
    unsigned = predicate.startswith("u")
    for s in (-3, 0, 1, 5, L - 1, L, 100):
        if unsigned and s < 0:
            s_value = s % (1 << width)
        else:
            s_value = s
        out = np.zeros(2 * L, np.int32)
        interp.run_work_groups(f, [out, s_value % (1 << width)], (2,))
        lid = np.tile(np.arange(L), 2)
        expected = PREDICATES[predicate](lid.astype(np.uint64 if unsigned else np.int64),
                                         np.uint64(s_value) if unsigned else np.int64(s_value)).astype(np.int32)
        np.testing.assert_array_equal(out, expected, err_msg=f"{predicate} s={s}")


def test_guard_with_side_effects_before_it_is_kept():
    text = """kernel @k(ptr.global %out, i64 %s) {
entry:
  %lid = local_id 0
  %p = elementptr i32, %out, %lid
  store i32 7, %p
  %c = cmp ult %lid, %s
  branch %c, yes, no
yes:
  store i32 1, %p
  jump no
no:
  ret
}"""
    f = work_group_function(read_module(text), "k", (8, 1, 1), CompilerOptions(verify_each=True))
    assert not any(isinstance(i, ir.MathCall) for i in f.instructions())


def test_guard_followed_by_common_code_is_kept():
    """`if (lid == 1) {...}` then code for every work-item (regressions fuzz_22 and fuzz_357): the
    skipped path does not lead straight to the latch, so the guard must stay per work-item."""
    text = """kernel @k(ptr.global %out, i64 %s) {
entry:
  %lid = local_id 0
  %p = elementptr i32, %out, %lid
  %c = cmp eq %lid, i64 1
  branch %c, yes, join
yes:
  store i32 5, %p
  jump join
join:
  %v = load i32, %p
  %w = add %v, i32 1
  store %w, %p
  ret
}"""
    f = work_group_function(read_module(text), "k", (4, 1, 1), CompilerOptions(verify_each=True))
    (loop,) = f.work_item_loops
    assert loop.lower.value == 0 and loop.upper.value == 4  # still every work-item
    out = np.zeros(4, np.int32)
    interp.run_work_groups(f, [out, 0], (1,))
    np.testing.assert_array_equal(out, [1, 6, 1, 1])
