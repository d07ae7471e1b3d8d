from loomcl import ir
from loomcl.ir.reader import read_module
from loomcl.transforms import narrow_work_item_ids
from loomcl.transforms.passes import PassContext

TEXT = """kernel @k(ptr.global %out) {
entry:
  %lid = local_id 0
  %grp = group_id 0
  %els = enqueued_local_size 0
  %off = global_offset 0
  %base = mul %grp, %els
  %sum = add %base, %lid
  %gid = add %sum, %off
  %gid32 = trunc %gid to i32
  %lid32 = trunc %lid to i32
  %four = mul %gid, i64 4
  %four32 = trunc %four to i32
  %gid16 = trunc %gid to i16
  ret
}"""


def test_only_exact_id_truncations_are_marked():
    f = read_module(TEXT).functions["k"]
    assert narrow_work_item_ids.mark_exact_truncations(f) == 2
    assert not narrow_work_item_ids.run(f, PassContext(f))  # nothing left to mark: no change
    marked = {i.name for i in f.instructions() if isinstance(i, ir.Cast) and i.no_wrap}
    assert marked == {"gid32", "lid32"}  # not gid * 4, not a 16-bit narrowing
    assert "%gid32 = trunc nuw nsw %gid to i32" in ir.print_function(f)
    again = read_module(ir.print_function(f)).functions["k"]  # the flag survives the text form
    assert [i.name for i in again.instructions() if isinstance(i, ir.Cast) and i.no_wrap] == ["gid32", "lid32"]
