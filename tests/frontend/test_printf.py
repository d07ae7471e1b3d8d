"""printf calls in sema: the checked call's format and argument types (the runtime reads records by
the format alone), and the warnings of a successful build."""
from loomcl.frontend import ast as A
from loomcl.frontend import types as T

from .util import compile_log, compile_ok, kernel_body


def printf_call(call: str, decls: str = "") -> A.PrintfCall:
    stmt, = kernel_body(f"kernel void k(global int *p) {{ {decls} {call}; }}")[-1:]
    assert isinstance(stmt.expr, A.PrintfCall)
    return stmt.expr


def test_string_arguments_are_written_into_the_format_as_c_pads_them():
    call = printf_call('printf("[%s][%5s][%-4.2s][%s]\\n", "a%b", "xy", "hello", "")')
    assert call.format == b"[a%%b][   xy][he  ][]\n"
    assert call.args == [] and call.type == T.INT


def test_arguments_travel_in_the_storage_types_of_their_conversions():
    call = printf_call('printf("%d %u %hhd %ld %f %c %p %v2hhx", c, s, i, i, f, c, p, v)',
                       "char c = 1; short s = 2; int i = 3; float f = 4; char2 v = 5;")
    assert [a.type for a in call.args] == [T.INT, T.UINT, T.INT, T.LONG, T.DOUBLE, T.INT, T.ULONG,
                                           T.vector_of(T.CHAR, 2)]


def test_a_vector_conversion_without_length_gets_its_argument_s_lane_type():
    call = printf_call('printf("%v4f %v2f %v3x", f, d, u)', "float4 f = 0; double2 d = 0; ushort3 u = 0;")
    assert call.format == b"%v4hlf %v2lf %v3hx"


def test_a_vector_without_length_of_the_wrong_kind_is_an_error():
    log = compile_log('kernel void k(void) { double2 d = 0; printf("%v2d", d); }')
    assert "t.cl:1:46: error: format '%v2d' specifies type 'integer vector of 2 lanes' but the argument " \
           "has type 'double2'" in log


def test_unused_arguments_are_kept_for_their_effects_and_warned_about():
    tu = compile_ok('kernel void k(global int *p) { int n = 0; printf("x\\n", n); }')
    call = tu.functions[0].body.items[-1].expr
    assert len(call.unused) == 1
    assert "t.cl:1:57: warning: data argument not used by format string" in tu.warnings


def test_a_nul_ends_the_format_as_in_c():
    assert printf_call('printf("a\\0%d")').format == b"a"
