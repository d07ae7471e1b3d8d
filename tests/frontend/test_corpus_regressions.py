"""Front-end behaviour that public kernels (tests/corpus) showed missing, pinned by our own kernels."""
import numpy as np
import pytest

from loomcl.frontend import parse_options
from loomcl.frontend.diagnostics import Diagnostics
from loomcl.frontend.lexer import finish_tokens
from loomcl.frontend.preprocessor import preprocess
from loomcl.frontend.source import SourceFile
from loomcl.frontend import types as T

from .util import compile_log


def literal_tokens(text: str):
    diags = Diagnostics()
    tokens = preprocess(SourceFile("t.cl", text), parse_options(""), diags)
    finish_tokens(tokens, diags, False)
    return tokens[:-1], diags


def test_decimal_literal_past_long_is_ulong_with_clangs_warning():
    """pyopencl writes the neutral element of a long max-reduction as -9223372036854775808."""
    (minus, literal), diags = literal_tokens("-9223372036854775808")
    assert literal.value == 2**63 and literal.type is T.ULONG
    [warning] = diags.messages
    assert warning.severity.value == "warning"
    assert "1:2: warning: integer literal is too large to be represented in a signed integer type, " \
           "interpreting as unsigned" in warning.render()


def test_literals_that_fit_or_say_unsigned_get_no_warning():
    for text in ("9223372036854775807", "18446744073709551615u", "0xFFFFFFFFFFFFFFFF"):
        _, diags = literal_tokens(text)
        assert not diags.messages, text


def test_literal_past_ulong_is_still_an_error():
    log = compile_log("kernel void k(global long *o) { o[0] = 18446744073709551616; }")
    assert "error: integer literal '18446744073709551616' is too large for any integer type" in log


def test_long_min_from_an_unsigned_literal_runs():
    import loomcl as cl

    ctx = cl.create_some_context(interactive=False)
    queue = cl.CommandQueue(ctx)
    out = np.zeros(2, np.int64)
    buf = cl.Buffer(ctx, cl.mem_flags.READ_WRITE | cl.mem_flags.COPY_HOST_PTR, hostbuf=out)
    source = ("kernel void k(global long *o) {\n"
              "    long acc = -9223372036854775808;\n"
              "    o[0] = acc; o[1] = max(acc, (long)get_global_id(0) - 5);\n}")
    with pytest.warns(UserWarning, match="compiler output"):   # the literal's warning, in the log
        prg = cl.Program(ctx, source).build()
    assert "interpreting as unsigned" in prg.get_build_info(ctx.devices[0], cl.program_build_info.LOG)
    prg.k(queue, (1,), None, buf)
    cl.enqueue_copy(queue, out, buf)
    queue.finish()
    assert list(out) == [np.iinfo(np.int64).min, -5]


VECTOR_BRACES = """
kernel void k(global float4 *o, global double4 *d, global int4 *n) {
    float4 a = {1.0f, 2.0f, 3.0f, 4.0f};
    float2 h = (float2)(7.0f, 8.0f);
    float4 b = {h, 9};
    float4 c = {5};
    double4 e = {0.5f, 1, 2.0, 3};
    int4 m = {-1, 2};
    o[0] = a; o[1] = b; o[2] = c; d[0] = e; n[0] = m;
}
"""


def test_vector_brace_initializer_fills_lanes_in_order_and_zeros_the_rest():
    """SHOC's md.cl writes `double4 f = {0.0f, 0.0f, 0.0f, 0.0f};`."""
    import loomcl as cl

    ctx = cl.create_some_context(interactive=False)
    queue = cl.CommandQueue(ctx)
    mf = cl.mem_flags
    hosts = [np.full((3, 4), -7, np.float32), np.zeros(4), np.full(4, -7, np.int32)]
    bufs = [cl.Buffer(ctx, mf.READ_WRITE | mf.COPY_HOST_PTR, hostbuf=h) for h in hosts]
    cl.Program(ctx, VECTOR_BRACES).build().k(queue, (1,), None, *bufs)
    for host, buf in zip(hosts, bufs):
        cl.enqueue_copy(queue, host, buf)
    queue.finish()
    np.testing.assert_array_equal(hosts[0], [[1, 2, 3, 4], [7, 8, 9, 0], [5, 0, 0, 0]])
    np.testing.assert_array_equal(hosts[1], [0.5, 1, 2, 3])
    np.testing.assert_array_equal(hosts[2], [-1, 2, 0, 0])


def test_vector_brace_initializer_misuse():
    log = compile_log("kernel void k(global float *o) { float2 v = {1, 2, 3}; float4 *p = 0; "
                      "float2 w = {p}; }")
    assert "1:45: error: excess elements in vector initializer ('float2' has 2)" in log
    assert "initializing a 'float2' lane with an expression of incompatible type" in log
