"""A one-function math kernel: out[gid] = f(in0[gid], in1[gid], ...) in a work-item loop."""
from loomcl import ir
from loomcl.ir import instructions as ins
from loomcl.ir import types as ty

from codegen_helpers import GLOBAL, global_id, kernel, work_item_loop


def build_math(function: ir.MathFunction, arity: int, t=ty.f32, local: int = 64):
    f, b = kernel(f"math_{function.value}", [GLOBAL] * (arity + 1), [f"in{k}" for k in range(arity)] + ["out"],
                  (local, 1, 1))

    def body(b, lid):
        gid = global_id(b, lid, local)
        args = [b.load(t, b.element_ptr(t, f.params[k], gid)) for k in range(arity)]
        b.store(math_call(b, function, args), b.element_ptr(t, f.params[arity], gid))

    work_item_loop(b, local, body)
    b.ret()
    return f


def math_call(b: ir.Builder, function: ir.MathFunction, args):
    return b.math(function, args)
