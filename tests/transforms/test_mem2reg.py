from loomcl import ir
from loomcl.ir.reader import read_function
from loomcl.transforms import mem2reg
from loomcl.transforms.passes import PassContext

LOOP = """kernel @k(ptr.global %p, i32 %n) {
entry:
  %i = alloca i32
  %acc = alloca f32
  %arr = alloca [4 x f32]
  %taken = alloca i32
  store i32 0, %i
  store f32 0.0, %acc
  %q = elementptr i32, %taken, i64 0
  store i32 1, %q
  jump cond
cond:
  %iv = load i32, %i
  %more = cmp slt %iv, %n
  branch %more, body, done
body:
  %a = load f32, %acc
  %a2 = fadd %a, f32 1.0
  store %a2, %acc
  %i2 = add %iv, i32 1
  store %i2, %i
  jump cond
done:
  %r = load f32, %acc
  store %r, %p
  %e = elementptr f32, %arr, i64 1
  store %r, %e
  ret
}"""


def test_scalars_become_phis_and_memory_stays():
    f = read_function(LOOP)
    mem2reg.run(f, PassContext(f))
    ir.verify_function(f)
    allocas = [i.name for i in f.instructions() if isinstance(i, ir.Alloca)]
    assert allocas == ["arr", "taken"]
    phis = [i for i in f.instructions() if isinstance(i, ir.Phi)]
    assert {p.block.name for p in phis} == {"cond"} and len(phis) == 2
    text = ir.print_function(f)
    assert "phi i32 [i32 0, entry], [%i2, body]" in text
    assert "store %acc, %p" in text  # the loop-exit value: the header phi


def test_load_before_store_reads_undef_and_dead_phis_are_pruned():
    f = read_function("""kernel @k(ptr.global %p, i1 %c) {
entry:
  %x = alloca i32
  branch %c, a, b
a:
  store i32 1, %x
  jump join
b:
  jump join
join:
  %v = load i32, %x
  store %v, %p
  %w = alloca i32
  store i32 5, %w
  ret
}""")
    mem2reg.run(f, PassContext(f))
    ir.verify_function(f)
    text = ir.print_function(f)
    assert "phi i32 [i32 1, a], [undef i32, b]" in text
    assert "alloca" not in text


def test_only_the_given_allocas():
    f = read_function(LOOP)
    acc = next(i for i in f.instructions() if isinstance(i, ir.Alloca) and i.name == "acc")
    mem2reg.promote(f, [acc])
    ir.verify_function(f)
    assert [i.name for i in f.instructions() if isinstance(i, ir.Alloca)] == ["i", "arr", "taken"]
