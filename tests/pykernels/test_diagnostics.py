"""Build errors of Python kernels: the Python file, line and column, the source line and a caret,
as the OpenCL C front-end reports them; every error of a kernel in one build."""
import numpy as np
import pytest

import loomcl as cl

f32, i32 = np.float32, np.int32
SOURCE = open(__file__).read().split("\n")


def at(fragment: str, occurrence: int = 0) -> tuple[int, int]:
    """(line, column) of a fragment in this file, 1-based."""
    hits = [(n + 1, line.index(fragment) + 1) for n, line in enumerate(SOURCE) if fragment in line
            and not line.lstrip().startswith(("assert", "expect", "f\"", "\""))]
    return hits[occurrence]


def message(fragment: str, text: str, underline: int = 1, skip: int = 0) -> str:
    """The rendered diagnostic at `fragment` (moved `skip` columns right)."""
    line, column = at(fragment)
    column += skip
    return (f"{__file__}:{line}:{column}: error: {text}\n{SOURCE[line - 1]}\n"
            f"{' ' * (column - 1)}^{'~' * (underline - 1)}")


def build_log(kernel) -> str:
    with pytest.raises(cl.CompileError) as caught:
        kernel.compiled_program()
    return caught.value.log


@cl.kernel
def unsupported(out: cl.global_ptr(i32), x: cl.global_ptr(f32)):
    i = cl.global_id(0)
    total = 0
    total += x[i]
    items = [1, 2]
    out[i] = undefined_name
    try:
        pass
    except ValueError:
        pass
    for k in x:
        pass
    out[i] = x[-1]


def test_every_error_of_a_kernel_with_its_python_line_and_caret():
    assert build_log(unsupported) == "\n".join([
        message("total += x[i]", "'total' is int32 (from its first assignment, line "
                f"{at('total = 0')[0]}); this value is float32. Make the first assignment a float (e.g. "
                "total = 0.0) or convert the value with int(...)", 13),
        message("[1, 2]", "a list is not supported in a kernel", 6),
        message("undefined_name", "name 'undefined_name' is not defined", 14),
        message("try:", "try/except is not supported in a kernel"),
        message("for k in x", "a kernel's for loop runs over range(...) (no other iterables)", skip=9),
        message("-1]", "a negative index does not count from the end in a kernel (a pointer has no length); "
                       "index from the start", 2),
    ])


@cl.kernel
def type_errors(out: cl.global_ptr(f32), n: i32):
    i = cl.global_id(0)
    out[i] = out + 1.5
    out[i] = math_is_not_imported.sqrt(2.0)
    return 5


def test_sema_errors_come_from_the_opencl_c_checker_at_python_positions():
    log = build_log(type_errors)
    assert build_log(type_errors) == "\n".join([
        message("out + 1.5", "invalid operands to binary expression ('__global float *' and 'float')"),
        message("math_is_not_imported", "name 'math_is_not_imported' is not defined", 20),
        message("return 5", "a kernel returns nothing (write results to a buffer)", skip=7),
    ])


@cl.func
def recursive(n):
    return recursive(n - 1)


@cl.kernel
def calls_recursive(out: cl.global_ptr(i32)):
    out[0] = recursive(3)


def test_recursion_is_refused():
    assert message("recursive(n - 1)", "recursive call of 'recursive': kernels cannot recurse (every call is "
                                       "inlined)", 16) in build_log(calls_recursive)


@cl.kernel
def mixed_signs(out: cl.global_ptr(i32), u: cl.global_ptr(np.uint32)):
    out[0] = out[1] // u[0]


def test_floor_division_of_mixed_signedness_is_refused():
    assert build_log(mixed_signs) == message(
        "out[1] // u[0]", "'//' of a signed and an unsigned integer ('int' and 'uint'): convert one of them, "
                          "e.g. with np.int32(...) or np.uint32(...)", 14)


@cl.kernel
def helper_in_host_code(out: cl.global_ptr(i32)):
    out[0] = len(out)


def test_unknown_functions_name_what_they_are():
    assert build_log(helper_in_host_code) == message(
        "len(out)", "'len' is a built-in function 'len', which a kernel cannot call (kernels call @cl.func "
                    "helpers, loomcl's device functions and math functions)", 3)


def plain_python(x):
    return x


@cl.kernel
def calls_plain_python(out: cl.global_ptr(i32)):
    out[0] = plain_python(1)


def test_a_plain_python_function_gets_a_hint():
    assert build_log(calls_plain_python) == message(
        "plain_python(1)", "'plain_python' is a Python function 'plain_python' (decorate it with @cl.func to call "
                           "it in kernels), which a kernel cannot call (kernels call @cl.func helpers, loomcl's "
                           "device functions and math functions)", 12)


REFUSED = [
    ("x = lambda: 1", "2:9: error: a lambda is not supported in a kernel"),
    ("a[0] = cl.global_id", "2:12: error: 'cl.global_id' is a device function 'cl.global_id', not a value a "
                            "kernel can use"),
    ("a[0:2] = 1", "2:7: error: slices are not supported in a kernel (index one element)"),
    ("t = cl.local_array(f32, 0)", "2:29: error: an array's shape is a positive integer constant or a tuple of them"),
    ("t = cl.local_array('x', 4)", "2:24: error: ''x'' is not a type"),
    ("a[0] = cl.atomic_add(a, 0)", "2:12: error: cl.atomic_add(array, index, value) takes 3 arguments, not 2"),
    ("for i in range(0, 10, 0):\n        pass", "2:27: error: range() step must not be zero"),
    ("for i, j in range(3):\n        pass", "2:9: error: a kernel's for loop has one loop variable"),
    ("a[0] = None", "2:12: error: a NoneType constant cannot be used in a kernel (numbers only)"),
    ("a[0] = a[0] is None", "2:12: error: 'is' is not supported in a kernel (compare numbers with <, <=, >, >=, ==, !=)"),
    ("x = cl.barrier()", "2:9: error: this call returns no value"),
    ("while True:\n        pass\n    else:\n        pass", "5:9: error: while ... else is not supported in a kernel"),
    ("i = 2\n    a[0] = i ** i", "3:12: error: an integer power needs a constant exponent from 0 to 8; for others "
                                 "convert the base to a float"),
]


@pytest.mark.parametrize("body, expected", REFUSED, ids=[r[0].split("\n")[0] for r in REFUSED])
def test_refused_constructs_name_the_reason(tmp_path, body, expected):
    import importlib.util

    path = tmp_path / "refused.py"
    path.write_text(f"import numpy as np\nimport loomcl as cl\nf32 = np.float32\n\n\n"
                    f"@cl.kernel\ndef k(a: cl.global_ptr(f32)):\n    {body}\n")
    spec = importlib.util.spec_from_file_location("refused_kernel", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    line, rest = expected.split(":", 1)
    log = build_log(module.k)
    assert log.split("\n")[0] == f"{path}:{int(line) + 6}:{rest}"
