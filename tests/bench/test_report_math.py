"""The math throughput table: Gelem/s per function, float and double side by side."""
import dataclasses

from loomcl.bench import report_math
from loomcl.bench.suite import math as math_suite
from loomcl.bench.suite import select

from .helpers import make_row


def math_row(name, times, elements=2e6, numpy_ms=4.0):
    row = make_row(name, times, flops=elements)
    row.case = dataclasses.replace(row.case, family="math")
    row.numpy_ms = numpy_ms
    return row


def test_table_gives_elements_per_second_per_type_and_implementation():
    rows = [math_row("sin_float", {"loomcl": [2.0, 1.0], "PoCL": [4.0]}),
            math_row("sin_double", {"loomcl": "mismatch", "PoCL": [8.0]}, numpy_ms=None),
            make_row("saxpy", {"loomcl": [1.0], "PoCL": [1.0]})]
    lines = report_math.math_table(rows, ["loomcl", "PoCL"]).splitlines()
    assert lines[0].startswith("math throughput, Gelem/s") and "1M elements" in lines[0]
    assert lines[1].split() == ["function", "float", "loomcl", "float", "PoCL", "float", "numpy", "double",
                                "loomcl", "double", "PoCL", "double", "numpy"]
    # 2e6 elements in 1 ms = 2 Gelem/s, in 4 ms = 0.5, in 8 ms = 0.25; a mismatch is never a rate
    assert lines[3].split() == ["sin", "2.00", "0.50", "0.50", "MISMATCH", "0.25"]
    assert len(lines) == 4


def test_table_is_empty_without_math_rows():
    assert report_math.math_table([make_row("saxpy", {"loomcl": [1.0]})], ["loomcl"]) == ""


def test_suite_has_every_function_in_both_types_selectable_by_family():
    names = {case.name for case in select("math")}
    assert names == {f"{f}_{t}" for f in math_suite.FUNCTIONS for t in ("float", "double")}
    assert set(math_suite.FUNCTIONS) == {"sin", "cos", "exp", "log", "sqrt", "pow", "erf", "atan2"}
