"""`nsw` on signed int arithmetic (C leaves its overflow undefined): on by default, off with
-loomcl-no-nsw (a micro-profiling variant) and in checked mode, which checks the address the machine
computes."""
import re

from loomcl.driver import backend
from loomcl.driver.compiler import build
from loomcl.options import CompilerOptions
from loomcl.transforms.pipeline import work_group_function

SOURCE = """__kernel void k(__global float *a, int width) {
  int x = get_global_id(0), y = get_global_id(1);
  a[y * width + x] = 1.0f;
}"""


def _adds_with_nsw(options: CompilerOptions) -> int:
    function = work_group_function(build(SOURCE).module, "k", (16, 4, 1), options)
    text = backend.llvm_ir(function, options=options, optimized=False)
    return len(re.findall(r"= (?:add|mul) nsw i32", text))


def test_signed_int_arithmetic_carries_nsw_by_default():
    assert _adds_with_nsw(CompilerOptions()) >= 2          # y * width, + x


def test_no_nsw_switch_and_checked_mode_wrap():
    assert CompilerOptions.split("-loomcl-no-nsw")[0].nsw is False
    assert _adds_with_nsw(CompilerOptions(nsw=False)) == 0
    assert _adds_with_nsw(CompilerOptions(checked=True)) == 0
