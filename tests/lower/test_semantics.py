"""C semantics of the lowering checked by running kernels through the whole compiler (lower ->
transforms -> codegen) on values chosen to tell the right opcode from the wrong one: signed versus
unsigned division, remainder, shift and compare; shift counts modulo the width; conversions;
short-circuit side effects; switch fall-through; NaN comparisons; helper calls; atomics."""
import numpy as np
import pytest

pytest.importorskip("loomcl.transforms.pipeline")
cl = pytest.importorskip("loomcl")

SOURCE = r"""
int twice(int x) { return 2 * x; }
int bump(__global int *counter) { *counter += 1; return 1; }

__kernel void ints(__global const int *in, __global int *out, __global int *counter) {
    int m7 = in[0], three = in[1], big = in[2];        /* -7, 3, 0x7fffffff */
    uint um7 = (uint)m7, u3 = (uint)three;
    int k = 0;
    out[k++] = m7 / three;                     /* -2 */
    out[k++] = m7 % three;                     /* -1 */
    out[k++] = (int)(um7 / u3);                /* 1431655763 */
    out[k++] = (int)(um7 % u3);                /* 0 (4294967289 % 3) */
    out[k++] = m7 >> 1;                        /* -4 */
    out[k++] = (int)(um7 >> 1);                /* 2147483644 */
    out[k++] = three << (32 + 1);              /* 6: the count is taken modulo 32 */
    out[k++] = m7 < three;                     /* 1 */
    out[k++] = um7 < u3;                       /* 0 */
    out[k++] = (char)big;                      /* -1 */
    out[k++] = (uchar)big;                     /* 255 */
    out[k++] = (int)(long)m7;                  /* -7 via sext */
    out[k++] = (int)((ulong)um7 >> 32);        /* 0 via zext */
    out[k++] = three > 0 || bump(counter);     /* 1, bump not called */
    out[k++] = three < 0 && bump(counter);     /* 0, bump not called */
    out[k++] = three > 0 && bump(counter);     /* 1, bump called once */
    out[k++] = twice(three) + (three ? 10 : 20);   /* 16 */
    int r = 0;
    switch (three) { case 1: r = 1; case 3: r += 30; case 4: r += 400; break; default: r = -1; }
    out[k++] = r;                              /* 430 */
    int s = 0;
    for (int i = 0; i < 10; i++) { if (i == 2) continue; if (i == 5) break; s += i; }
    out[k++] = s;                              /* 0+1+3+4 = 8 */
    int t[4] = {5, 6};
    out[k++] = t[0] + t[1] + t[2] + t[3];      /* 11 */
    __global const int *p = in + 2;
    out[k++] = p - in;                         /* 2 */
    out[k++] = abs(m7) + min(m7, three) + max(um7, u3) % 10;  /* 7 - 7 + 9 */
    out[k++] = atomic_add(counter, 5);         /* 1: the old value */
    out[k++] = clamp(m7, -3, 3);               /* -3 */
}

__kernel void floats(__global const float *in, __global int *out) {
    float nan = in[0], x = in[1];              /* NaN, -2.5 */
    int k = 0;
    out[k++] = nan != nan;                     /* 1: != is unordered */
    out[k++] = nan == nan;                     /* 0 */
    out[k++] = nan < x;                        /* 0 */
    out[k++] = (int)x;                         /* -2 */
    out[k++] = (uint)(-x);                     /* 2 */
    out[k++] = (int)(x * 2);                   /* -5 */
    out[k++] = nan ? 1 : 0;                    /* 1: NaN is true */
    out[k++] = (int)fmax(x, 1.5f) + (int)sqrt(16.0f) + (int)mad(x, 2.0f, 10.0f); /* 1+4+5 */
}
"""

INT_EXPECTED = [-2, -1, 1431655763, 0, -4, 2147483644, 6, 1, 0, -1, 255, -7, 0, 1, 0, 1, 16, 430,
                8, 11, 2, 9, 1, -3]
FLOAT_EXPECTED = [1, 0, 0, -2, 2, -5, 1, 10]


@pytest.fixture(scope="module")
def program():
    ctx = cl.create_some_context()
    return ctx, cl.CommandQueue(ctx), cl.Program(ctx, SOURCE).build()


def run(program, name, inputs, n_out, extra=()):
    ctx, queue, prg = program
    mf = cl.mem_flags
    in_buf = cl.Buffer(ctx, mf.READ_ONLY | mf.COPY_HOST_PTR, hostbuf=inputs)
    out = np.zeros(n_out, np.int32)
    out_buf = cl.Buffer(ctx, mf.READ_WRITE | mf.COPY_HOST_PTR, hostbuf=out)
    bufs = [cl.Buffer(ctx, mf.READ_WRITE | mf.COPY_HOST_PTR, hostbuf=e) for e in extra]
    getattr(prg, name)(queue, (1,), (1,), in_buf, out_buf, *bufs)
    cl.enqueue_copy(queue, out, out_buf)
    for host, buf in zip(extra, bufs):
        cl.enqueue_copy(queue, host, buf)
    queue.finish()
    return out


def test_integer_semantics(program):
    counter = np.zeros(1, np.int32)
    out = run(program, "ints", np.array([-7, 3, 0x7FFFFFFF], np.int32), len(INT_EXPECTED), [counter])
    assert out.tolist() == INT_EXPECTED
    assert counter[0] == 6  # one bump, then atomic_add(5)


def test_float_semantics(program):
    out = run(program, "floats", np.array([np.nan, -2.5], np.float32), len(FLOAT_EXPECTED))
    assert out.tolist() == FLOAT_EXPECTED
