from loomcl import ir
from loomcl.ir.reader import read_module
from loomcl.transforms import canonicalize_barriers, mem2reg, simplify
from loomcl.transforms.canonicalize_barriers import is_barrier_block
from loomcl.transforms.passes import PassContext, run_pass

from . import kernels as K


def canonical(text, name):
    f = read_module(text).functions[name]
    analyses = PassContext(f)
    for pass_ in (mem2reg, simplify, canonicalize_barriers):
        run_pass(pass_, f, analyses)
    ir.verify_function(f)
    return f


def test_shape_after_canonicalization():
    for text, name in [(K.REDUCE, "reduce"), (K.VARYING_TRIP, "varying_trip"), (K.EARLY_RETURN, "early_return"),
                       (K.SCALE, "scale"), (K.LOOP_IN_IF, "loop_in_if")]:
        f = canonical(text, name)
        prologue = f.entry
        assert all(isinstance(i, (ir.Alloca, ir.WorkItemQuery)) for i in prologue.instructions[:-1])
        assert is_barrier_block(prologue.successors[0])
        returns = [b for b in f.blocks if isinstance(b.terminator, ir.Return)]
        assert len(returns) == 1 and is_barrier_block(returns[0]) and len(returns[0].instructions) == 2
        preds = f.predecessors()
        for block in f.blocks:
            barriers = [i for i in block.instructions if isinstance(i, ir.Barrier)]
            if barriers:
                assert block.instructions[0] is barriers[0] and len(block.instructions) == 2
                if block is not returns[0]:
                    (succ,) = block.successors
                    assert preds[succ] == [block] and not succ.phis
        assert not any(isinstance(i, ir.WorkItemQuery) for b in f.blocks[1:] for i in b.instructions)


def test_barrier_count():
    f = canonical(K.REDUCE, "reduce")
    assert sum(is_barrier_block(b) for b in f.blocks) == 4  # entry, two in the kernel, exit
