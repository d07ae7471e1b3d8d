"""Front-end behaviour that public kernels (tests/corpus) showed missing, pinned by our own kernels."""
import numpy as np

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
    prg = cl.Program(ctx, "kernel void k(global long *o) {\n"
                          "    long acc = -9223372036854775808;\n"
                          "    o[0] = acc; o[1] = max(acc, (long)get_global_id(0) - 5);\n}").build()
    prg.k(queue, (1,), None, buf)
    cl.enqueue_copy(queue, out, buf)
    queue.finish()
    assert list(out) == [np.iinfo(np.int64).min, -5]
