from loomcl import ir
from loomcl.ir.reader import read_module
from loomcl.transforms import inline
from loomcl.transforms.clone import clone_module

MODULE = """func f32 @clamp01(f32 %x) {
entry:
  %t = alloca f32
  store %x, %t
  %neg = cmp olt %x, f32 0.0
  branch %neg, low, high
low:
  ret f32 0.0
high:
  %v = load f32, %t
  %y = call @twice(%v)
  ret %y
}

func f32 @twice(f32 %x) {
entry:
  %y = fadd %x, %x
  ret %y
}

kernel @k(ptr.global %p) {
entry:
  %lid = local_id 0
  %q = elementptr f32, %p, %lid
  %v = load f32, %q
  %r = call @clamp01(%v)
  %s = call @twice(%r)
  store %s, %q
  ret
}
"""


def test_inline_everything_and_drop_helpers():
    module = read_module(MODULE)
    original = ir.print_module(module)
    copy = clone_module(module)
    inline.inline_kernels(copy)
    assert list(copy.functions) == ["k"]
    k = copy.functions["k"]
    ir.verify_function(k)
    assert not any(isinstance(i, ir.Call) for i in k.instructions())
    assert all(isinstance(i, ir.Alloca) for i in k.entry.instructions[:1])  # callee alloca hoisted
    text = ir.print_function(k)
    assert "phi f32 [f32 0.0, low.clamp01]" in text
    assert ir.print_module(module) == original  # the original module is untouched


def test_return_value_of_single_return_needs_no_phi():
    copy = read_module(MODULE)
    inline.inline_kernels(copy)
    text = ir.print_function(copy.functions["k"])
    assert text.count("phi") == 1


def test_clone_of_a_call_tree_copies_only_what_the_kernel_reaches():
    module = read_module(MODULE.replace("kernel @k(", "func void @unused() {\nentry:\n  ret\n}\n\nkernel @k("))
    assert set(module.functions) == {"clamp01", "twice", "unused", "k"}
    copy = clone_module(module, roots=["k"])
    assert list(copy.functions) == ["clamp01", "twice", "k"]  # module order kept
    calls = [i for f in copy.functions.values() for i in f.instructions() if isinstance(i, ir.Call)]
    assert calls and all(c.callee is copy.functions[c.callee.name] for c in calls)
    assert list(clone_module(module, roots=["twice"]).functions) == ["twice"]
