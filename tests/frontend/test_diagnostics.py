"""Exact build-log text: clang's layout, `file:line:col: error: message`, source line, caret."""
from loomcl.frontend import CompileError, parse_program
from loomcl.frontend.diagnostics import Diagnostic, Severity
from loomcl.frontend.source import Location, SourceFile

from .util import compile_log


def test_undeclared_identifier():
    assert compile_log("kernel void k(global float *a) {\n    a[0] = y;\n}") == (
        "t.cl:2:12: error: use of undeclared identifier 'y'\n"
        "    a[0] = y;\n"
        "           ^")


def test_undeclared_function_suggests_the_closest_builtin():
    assert compile_log("kernel void k(global int *a) {\n    a[0] = popcnt(a[1]);\n}") == (
        "t.cl:2:12: error: use of undeclared function 'popcnt'; did you mean 'popcount'?\n"
        "    a[0] = popcnt(a[1]);\n"
        "           ^")


def test_undeclared_function_suggests_a_user_function():
    log = compile_log("int square(int x) { return x * x; }\n"
                      "kernel void k(global int *a) { a[0] = sqaure(a[1]); }")
    assert log.splitlines()[0] == ("t.cl:2:39: error: use of undeclared function 'sqaure'; "
                                   "did you mean 'square'?")


def test_undeclared_function_far_from_every_name_gets_no_suggestion():
    assert compile_log("kernel void k(global int *a) { a[0] = frobnicate(a[1]); }") == (
        "t.cl:1:39: error: use of undeclared function 'frobnicate'\n"
        "kernel void k(global int *a) { a[0] = frobnicate(a[1]); }\n"
        "                                      ^")


def test_missing_semicolon_points_after_the_previous_token():
    assert compile_log("kernel void k(global float *a) {\n    a[0] = 1.0f\n    a[1] = 2.0f;\n}") == (
        "t.cl:2:16: error: expected ';' after expression\n"
        "    a[0] = 1.0f\n"
        "               ^")


def test_type_mismatch():
    assert compile_log("kernel void k(global float *a) {\n    float x;\n    x = a;\n}") == (
        "t.cl:3:9: error: assigning to 'float' from incompatible type '__global float *'\n"
        "    x = a;\n"
        "        ^")


def test_caret_keeps_tabs_aligned():
    assert compile_log("kernel void k(global float *a) {\n\tint n = get_global_id(0) + ;\n}") == (
        "t.cl:2:29: error: expected expression\n"
        "\tint n = get_global_id(0) + ;\n"
        "\t                           ^")


def test_range_is_underlined():
    assert compile_log("kernel void k(global int *a) { a[0] = 0x; }") == (
        "t.cl:1:39: error: invalid integer literal '0x'\n"
        "kernel void k(global int *a) { a[0] = 0x; }\n"
        "                                      ^~")


def test_all_errors_are_collected_in_source_order():
    log = compile_log("void f() {\n  int a = b;\n  int c = 1\n  c = d;\n}")
    heads = [line for line in log.splitlines() if ": error:" in line]
    assert heads == ["t.cl:2:11: error: use of undeclared identifier 'b'",
                     "t.cl:3:12: error: expected ';' at end of declaration",
                     "t.cl:4:7: error: use of undeclared identifier 'd'"]


def test_compile_error_carries_diagnostics_and_log():
    try:
        parse_program("void f() { x; }", filename="prog.cl")
    except CompileError as e:
        assert len(e.diagnostics) == 1
        assert e.diagnostics[0].severity is Severity.ERROR
        assert e.diagnostics[0].location.line == 1 and e.diagnostics[0].location.column == 12
        assert str(e) == e.log and e.log.startswith("prog.cl:1:12: error:")
    else:
        raise AssertionError("expected CompileError")


def test_unclosed_brace_has_a_note_at_the_opening_brace():
    log = compile_log("void f() {\n  int x = 1;\n")
    assert "error: expected '}'" in log
    assert "t.cl:1:10: note: to match this '{'\nvoid f() {\n         ^" in log


def test_warning_severity_and_werror():
    source = "#warning careful\nvoid f() {}"
    parse_program(source)  # a warning alone does not fail the build
    assert "error: #warning careful" in compile_log(source, "-Werror")


def test_render_without_a_file():
    d = Diagnostic(Severity.NOTE, Location(None, 0, 0), "candidate")
    assert d.render() == "note: candidate"
    d = Diagnostic(Severity.ERROR, Location(SourceFile("x.cl", "ab\ncd"), 2, 2), "bad", 1)
    assert d.render() == "x.cl:2:2: error: bad\ncd\n ^"
