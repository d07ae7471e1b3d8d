"""A whole program lowers only its kernels' call trees (compiler.build); a unit to be linked lowers
every function, since other units may call any of them."""
from loomcl.frontend import parse_program
from loomcl.ir import verify_module
from loomcl.lower import lower_program

SOURCE = """
int leaf(int x) { return x + 1; }
int middle(int x) { return leaf(x) * 2; }
int unused(int x) { return leaf(x) - 1; }
int also_unused(int x) { return unused(x); }
__kernel void k(__global int *out) { out[0] = middle(out[0]); }
__kernel void j(__global int *out) { out[1] = leaf(out[1]); }
"""


def test_whole_program_lowers_the_kernels_call_trees_in_source_order():
    module = lower_program(parse_program(SOURCE, filename="t.cl"), reachable_only=True)
    verify_module(module)
    assert list(module.functions) == ["leaf", "middle", "k", "j"]


def test_every_function_is_lowered_by_default():
    module = lower_program(parse_program(SOURCE, filename="t.cl"))
    assert list(module.functions) == ["leaf", "middle", "unused", "also_unused", "k", "j"]
