"""The interpreter's integer math functions (clz, ctz, popcount, rotate, saturating add and
subtract) agree with native code on the same kernel, so that generated programs may use them."""
import numpy as np

import loomcl as cl
from loomcl.driver import compiler

from . import interp

SOURCE = """
__kernel void k(__global const int *x, __global const int *y, __global int *out) {
    int i = get_global_id(0);
    int a = x[i], b = y[i];
    uint ua = a, ub = b;
    __global int *o = out + 8 * i;
    o[0] = clz(a);
    o[1] = ctz(a);
    o[2] = popcount(a);
    o[3] = rotate(a, b);
    o[4] = add_sat(a, b);
    o[5] = sub_sat(a, b);
    o[6] = add_sat(ua, ub);
    o[7] = sub_sat(ua, ub);
}
"""
N = 64


def inputs():
    rng = np.random.default_rng(3)
    x, y = (rng.integers(-2**31, 2**31, N, dtype=np.int64).astype(np.int32) for _ in range(2))
    x[:8] = [0, -1, 1, -2**31, 2**31 - 1, 16, 0, -2**31]
    y[:8] = [0, 33, -1, -1, 1, 64, -2**31, 2**31 - 1]
    return x, y


def test_interpreter_agrees_with_native_code():
    x, y = inputs()
    reference = [x.copy(), y.copy(), np.zeros(8 * N, np.int32)]
    interp.run_work_items(compiler.build(SOURCE).module.functions["k"], reference, (1,), (N,), checked=True)
    ctx = cl.create_some_context(interactive=False)
    queue = cl.CommandQueue(ctx)
    mf = cl.mem_flags
    buffers = [cl.Buffer(ctx, mf.READ_ONLY | mf.COPY_HOST_PTR, hostbuf=a) for a in (x, y)]
    out = cl.Buffer(ctx, mf.WRITE_ONLY, 32 * N)
    cl.Program(ctx, SOURCE).build().k(queue, (N,), (N,), *buffers, out)
    native = np.empty(8 * N, np.int32)
    cl.enqueue_copy(queue, native, out)
    queue.finish()
    np.testing.assert_array_equal(reference[2], native)
