"""The reader reads back what the printer writes."""
import pytest

from loomcl import ir
from loomcl.ir import types as ty
from loomcl.ir.reader import ReadError, read_function, read_module
from loomcl.transforms.clone import clone_module

MODULE = """constant @table : [4 x i32] = [1, 2, 3, 4]

func f32 @helper(f32 %x, i32 %n) {
entry:
  %c = cmp slt %n, i32 0
  branch %c, neg, pos
neg:
  %y = fneg %x
  jump join
pos:
  %z = fmul %x, f32 0.5
  jump join
join:
  %r = phi f32 [%y, neg], [%z, pos]
  ret %r
}

kernel @k(ptr.global %out, f32 %a, i32 %n) reqd_work_group_size(64, 1, 1) {
  local @tile : [64 x f32]
entry:
  %priv = alloca [4 x f32]
  %lid = local_id 0
  %gid0 = group_id 0
  %sz = enqueued_local_size 0
  %t = mul %gid0, %sz
  %gid = add %t, %lid
  %p = elementptr f32, %out, %gid
  %v = load f32, %p
  %h = call @helper(%v, %n)
  %tp = elementptr f32, @tile, %lid
  store %h, %tp
  barrier 1
  %tab = elementptr i32, @table, i64 2
  %tv = load i32, %tab volatile
  %f = sitofp %tv to f32
  %s = math.fma f32 %h, %f, %a
  %vec = insertelement <4 x f32> <0.0, 1.0, -0.0, 1e-05>, %s, i32 0
  %e = extractelement %vec, i32 3
  %sh = shufflevector %vec, %vec, <0, 5>
  %old = atomic add %out, i32 1
  %cx = cmpxchg %out, f32 0.0, %e
  %sel = select i1 1, %e, undef f32
  store %sel, %p
  jump loop
loop:
  %i = phi i32 [i32 0, entry], [%i.1, loop]
  %i.1 = add %i, i32 1
  %done = cmp sge %i.1, %n
  switch %i.1, loop [3: exit, 4: exit]
exit:
  fence 2
  ret
}
"""


def test_round_trip_module():
    module = read_module(MODULE)
    ir.verify_module(module)
    text = ir.print_module(module)
    assert text == MODULE
    assert ir.print_module(read_module(text)) == text


def test_round_trip_of_a_copy():
    module = read_module(MODULE)
    copy = clone_module(module)
    ir.verify_module(copy)
    assert ir.print_module(copy) == MODULE
    call = next(i for i in copy.functions["k"].instructions() if isinstance(i, ir.Call))
    assert call.callee is copy.functions["helper"]


def test_forward_references_and_work_item_loops():
    text = """kernel @f(i32 %n) local_size(8, 1, 1) {
entry:
  jump header
header:  work_item_loop x, counter %x, latch latch
  %x = phi i64 [i64 0, entry], [%x.next, latch]
  jump latch
latch:
  %x.next = add %x, i64 1
  %c = cmp ult %x.next, i64 8
  branch %c, header, exit
exit:
  ret
}"""
    f = read_function(text)
    ir.verify_function(f)
    assert f.local_size == (8, 1, 1)
    (loop,) = f.work_item_loops
    assert loop.header.name == "header" and {b.name for b in loop.blocks} == {"header", "latch"}
    assert loop.dim == 0 and loop.counter.name == "x" and loop.upper.value == 8
    assert ir.print_function(f) == text


def test_struct_types_are_passed_in():
    s = ty.StructType("pair", (ty.i32, ty.f32))
    text = """kernel @f(ptr.global %p) {
entry:
  %q = fieldptr %pair, %p, 1
  %v = load f32, %q
  ret
}"""
    assert ir.print_function(read_function(text, {"pair": s})) == text
    with pytest.raises(ReadError):
        read_function(text)


def test_errors_name_the_problem():
    with pytest.raises(ReadError, match="unknown value"):
        read_function("kernel @f() {\nentry:\n  %x = add %y, i32 1\n  ret\n}")
