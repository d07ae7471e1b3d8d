"""The verifier of the work-group form: each rule rejects the mistake it exists for, with a message
that names it, and the pipeline's own output passes."""
import pytest

from loomcl import ir
from loomcl.ir.reader import read_function

GOOD = """kernel @f(ptr.global %out, i32 %n) local_size(4, 1, 1) {
prologue:
  %ctx = alloca [4 x [2 x i32]]
  %slot = alloca i32
  jump header
header:  work_item_loop x, counter %x, latch latch
  %x = phi i64 [i64 0, prologue], [%x.next, latch]
  %mine = elementptr [2 x i32], %ctx, %x
  %p = elementptr i32, %out, %x
  %v = load i32, %p
  store %v, %slot
  jump latch
latch:
  %x.next = add %x, i64 1
  %more = cmp ult %x.next, i64 4
  branch %more, header, exit
exit:
  %u = load i32, %slot
  ret
}"""


def verify(text):
    ir.verify_function(read_function(text))


def rejects(text, message):
    with pytest.raises(ir.VerificationError, match=message):
        verify(text)


def test_a_well_formed_work_group_function_passes():
    verify(GOOD)


def test_code_in_the_latch_is_rejected():
    # a guard folded into the loop bounds would skip this store for the work-items it excludes
    rejects(GOOD.replace("  %x.next = add", "  store i32 1, %p\n  %x.next = add"),
            "latch latch holds more than the counting")


def test_a_value_used_outside_its_loop_is_rejected():
    rejects(GOOD.replace("  %u = load i32, %slot", "  %u = add %v, i32 1"),
            "%v is defined in work-item loop x at header but used outside it, in exit")


def test_a_shared_private_array_is_rejected():
    text = GOOD.replace("%ctx = alloca [4 x [2 x i32]]", "%ctx = alloca [2 x i32]").replace(
        "%mine = elementptr [2 x i32], %ctx, %x", "%mine = elementptr i32, %ctx, %x\n  store i32 0, %mine")
    rejects(text, r"private \[2 x i32\] %ctx is used by the work-items of a loop but is not a context array")


def test_a_bound_computed_inside_the_loop_is_rejected():
    text = GOOD.replace("%more = cmp ult %x.next, i64 4", "%more = cmp ult %x.next, %w").replace(
        "  jump latch", "  %w = zext %v to i64\n  jump latch")
    rejects(text, "upper bound is computed inside the loop")


def test_a_second_way_into_the_loop_is_rejected():
    text = GOOD.replace("  %u = load i32, %slot\n  ret", "  %u = load i32, %slot\n  jump header").replace(
        "[i64 0, prologue], [%x.next, latch]", "[i64 0, prologue], [%x.next, latch], [i64 0, exit]")
    rejects(text, "not entered from exactly one preheader")


def test_a_counter_stepping_by_two_is_rejected():
    rejects(GOOD.replace("%x.next = add %x, i64 1", "%x.next = add %x, i64 2"),
            "does not step the counter by one")


def test_a_barrier_left_in_the_form_is_rejected():
    rejects(GOOD.replace("  %u = load i32, %slot", "  barrier 1\n  %u = load i32, %slot"),
            "Barrier left in a work-group function")
