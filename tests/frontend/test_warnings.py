"""Warnings in clang's words, with its flag names, location and caret; -w and -Werror."""
import pytest

from loomcl.frontend import parse_options, parse_program

from .util import compile_log


def warnings_of(source: str, options: str = "") -> str:
    """The build log of a program that builds."""
    return parse_program(source, parse_options(options), filename="t.cl").warnings


def in_kernel(body: str) -> str:
    return "kernel void k(global float *a, int n) {\n" + body + "\n}"


def test_unused_variable_is_a_wall_warning_as_in_clang():
    assert warnings_of(in_kernel("    int x;")) == ""
    assert warnings_of(in_kernel("    int x;"), "-Wall") == (
        "t.cl:2:9: warning: unused variable 'x' [-Wunused-variable]\n"
        "    int x;\n"
        "        ^")


@pytest.mark.parametrize("body", [
    "int x = 1; a[0] = x;",           # read
    "int x; x = 2;",                  # assigned: clang counts that as a use
    "int x[4]; x[0] = 1;",
    "float4 v = 1; a[0] = v.x;",
    "int x = n; (void)x;",
])
def test_used_variables_and_parameters_get_no_warning(body):
    assert warnings_of(in_kernel(body)) == ""  # n, the unused parameter, is not warned about (as clang)


def test_unused_variables_in_nested_scopes_and_for_loops():
    log = warnings_of(in_kernel("for (int i = 0; i < 2; i++) { int inner = i; }\n"
                                "{ local float tile[8]; }"), "-Wall")
    assert log.splitlines()[0] == "t.cl:2:35: warning: unused variable 'inner' [-Wunused-variable]"
    assert log.splitlines()[3] == "t.cl:3:15: warning: unused variable 'tile' [-Wunused-variable]"
    assert "'i'" not in log


def test_a_declaration_with_an_error_gets_no_unused_warning():
    log = compile_log(in_kernel("int x = nope;"))
    assert "unused variable" not in log and "use of undeclared identifier 'nope'" in log


@pytest.mark.parametrize("statement, column, message", [
    ("a[0] + 1;", 10, "expression result unused [-Wunused-value]"),
    ("n;", 5, "expression result unused [-Wunused-value]"),
    ("-n;", 5, "expression result unused [-Wunused-value]"),
    ("(float2)(a[0], 1.0f);", 5, "expression result unused [-Wunused-value]"),
    ("n == 2;", 7, "equality comparison result unused [-Wunused-comparison]"),
    ("n != 2;", 7, "equality comparison result unused [-Wunused-comparison]"),
    ("n <= 2;", 7, "relational comparison result unused [-Wunused-comparison]"),
])
def test_unused_results(statement, column, message):
    assert warnings_of(in_kernel("    " + statement)).splitlines() == [
        f"t.cl:2:{column}: warning: {message}", "    " + statement, " " * (column - 1) + "^"]


@pytest.mark.parametrize("statement", [
    "n++;", "a[0] = 1;", "a[0] += n;", "(void)(n + 1);", "sqrt(a[0]);", "barrier(CLK_LOCAL_MEM_FENCE);",
    "n ? a[0]++ : 0;", "a[0]++, n;", ";",
])
def test_statements_with_an_effect_get_no_warning(statement):
    assert warnings_of(in_kernel(statement)) == ""


def test_minus_w_silences_every_warning():
    source = in_kernel("int x; n == 1;\n#warning careful")
    assert warnings_of(source, "-Wall").count("warning:") == 3
    assert warnings_of(source, "-Wall -w") == ""


def test_werror_turns_warnings_into_errors_that_fail_the_build():
    log = compile_log(in_kernel("int x;"), "-Wall -Werror")
    assert log.splitlines()[0] == "t.cl:2:5: error: unused variable 'x' [-Werror,-Wunused-variable]"
    assert compile_log("#warning careful\nvoid f() {}", "-Werror").splitlines()[0] == \
        "t.cl:1:2: error: #warning careful [-Werror,-W#warnings]"


def test_w_wins_over_werror():
    assert warnings_of(in_kernel("int x;"), "-Wall -Werror -w") == ""


def test_warnings_sit_in_source_order_among_errors():
    log = compile_log(in_kernel("int x;\n    n = nope;"), "-Wall")
    lines = [line for line in log.splitlines() if ": warning: " in line or ": error: " in line]
    assert lines == ["t.cl:2:5: warning: unused variable 'x' [-Wunused-variable]",
                     "t.cl:3:9: error: use of undeclared identifier 'nope'"]
