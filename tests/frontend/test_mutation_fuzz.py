"""The front half never breaks: seeded mutants of our own kernels build or get located diagnostics
(fuzz_mutations.py), and each internal error a campaign found is pinned by a minimal kernel."""
import ast
import os
import re
import subprocess
import sys

import pytest

from loomcl.driver import compiler
from loomcl.frontend import CompileError

from . import fuzz_mutations as fuzz
from .util import compile_log

MUTANTS_PER_SEED_VALUE = 150


@pytest.fixture(scope="module")
def seeds():
    found = fuzz.seed_kernels()
    assert len(found) >= 40, "the seed corpus lost its kernels"
    return found


@pytest.mark.parametrize("seed", [11, pytest.param(12, marks=pytest.mark.slow)])  # (one campaign in the quick tier)
def test_mutants_build_or_get_located_diagnostics(seed):
    """A campaign in a child process: a hung build holds the compiler's lock, so it must not hang
    the test session; the child prints each failing mutant with its source."""
    command = [sys.executable, "-m", "tests.frontend.fuzz_mutations", "--count",
               str(MUTANTS_PER_SEED_VALUE), "--seed", str(seed), "--work-group", "--hang-seconds", "60"]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(fuzz.ROOT), os.environ.get("PYTHONPATH", "")])}
    try:
        done = subprocess.run(command, cwd=fuzz.ROOT, env=env, capture_output=True, text=True, timeout=900)
    except subprocess.TimeoutExpired as timeout:
        pytest.fail(f"the campaign hung:\n{timeout.stdout}")
    assert done.returncode == 0, done.stdout + done.stderr
    summary = re.search(r"(\d+) mutants in .*: (\{.*\})", done.stdout)
    tally = ast.literal_eval(summary.group(2))
    assert int(summary.group(1)) == MUTANTS_PER_SEED_VALUE
    assert set(tally) == {"built", "diagnostic"}, tally


def test_the_fuzzer_reports_an_internal_error_as_such(monkeypatch):
    def broken(*args, **kwargs):
        raise AttributeError("'NoneType' object has no attribute 'name'")

    monkeypatch.setattr(compiler, "build", broken)
    outcome = fuzz.check("kernel void k() {}")
    assert outcome.kind == "internal" and "AttributeError" in outcome.detail


def test_the_fuzzer_rejects_a_diagnostic_without_a_location(monkeypatch):
    from loomcl.lower.errors import LoweringError

    def unplaced(*args, **kwargs):
        raise LoweringError("something went wrong")

    monkeypatch.setattr(compiler, "build", unplaced)
    assert fuzz.check("kernel void k() {}").kind == "no-location"


def test_mutations_are_reproducible_and_change_the_source(seeds):
    first = [m.source for m in fuzz.mutants(30, 5, seeds)]
    assert first == [m.source for m in fuzz.mutants(30, 5, seeds)]
    originals = set(seeds.values())
    assert sum(source not in originals for source in first) >= 25


# ---- regressions: internal errors the campaigns found, each as the smallest kernel that showed it


def test_call_in_a_program_scope_initializer_is_a_diagnostic_not_an_attribute_error():
    log = compile_log("float f(float x) { return x; }\n"
                      "__constant float c = f(1.0f);\n"
                      "kernel void k(global float *o) { o[0] = c; }")
    assert "2:22: error: initializer element is not a compile-time constant" in log


@pytest.mark.parametrize("declaration", ["__constant float c[2][] = {{1.0f}, {2.0f}};",
                                         "void f() { float c[2][] = {{1.0f}, {2.0f}}; }"])
def test_array_of_arrays_of_unknown_size(declaration):
    log = compile_log(declaration + "\nkernel void k(global float *o) { o[0] = 1; }")
    assert "error: array has incomplete element type" in log


def test_subscript_of_pointer_to_array_of_unknown_size():
    log = compile_log("void g(global float a[][]) { a[1][0] = 1; }\n"
                      "kernel void k(global float *o) { g(0); }")
    assert "1:31: error: subscript of pointer to incomplete type '__global float[]'" in log


def test_arithmetic_on_pointer_to_incomplete_struct():
    log = compile_log("struct s;\nvoid g(global struct s *p) { p + 1; }\n"
                      "kernel void k(global float *o) { g(0); }")
    assert "2:32: error: arithmetic on a pointer to incomplete type '__global struct s'" in log


@pytest.mark.parametrize("params, column", [("const void int n, global int *o", 30),
                                             ("void x, global int *o", 20)])
def test_void_parameter_is_a_diagnostic(params, column):
    log = compile_log(f"kernel void k({params}) {{ }}")
    assert f"1:{column}: error: argument may not have 'void' type" in log


def test_parameter_of_incomplete_struct_type_in_a_definition():
    log = compile_log("struct s;\nvoid f(struct s v) { }\nkernel void k(struct s v) { }")
    assert log.count("error: variable has incomplete type 'struct s'") == 2


ENDLESS = """
kernel void k(global int *o) {
    for (int i = 0; i < 4; i) { if (i == 1) continue; o[i] = i; }
}
"""


@pytest.mark.parametrize("options", ["", "-loomcl-no-structured"])
def test_kernel_that_never_leaves_a_loop_gets_a_work_group_function(options):
    """An endless loop is the user's bug, not the compiler's: its sub-CFG has no exit, and the
    dispatch after it used to fail for want of a target."""
    function = compiler.build(ENDLESS, options).work_group_ir("k", (4, 1, 1))
    assert function.name == "k"


def test_located_diagnostics_only():
    with pytest.raises(CompileError) as info:
        compiler.build("kernel void k(global int *o) { o[0] = ; }")
    assert all(d.location.file is not None for d in info.value.diagnostics)


def test_constant_folding_skips_an_operand_already_in_error():
    log = compile_log("kernel void k(global int *o) {\n"
                      "    switch (o[0]) { case (1 << 0.5) | 1: break; }\n}")
    assert "2:29: error: invalid operands" in log


def test_huge_constant_table_is_a_diagnostic_not_a_hang():
    """A mistyped size made the lowering list 2^33 initial values (a hang that ate gigabytes)."""
    with pytest.raises(CompileError) as info:
        compiler.build("__constant float c[2][4294967295u] = {{1.0f}};\n"
                       "kernel void k(global float *o) { o[0] = c[0][0]; }", filename="t.cl")
    assert "t.cl:1:18: error: __constant variable 'c' takes 34359738360 bytes" in info.value.log


@pytest.mark.parametrize("index", ["9223372036854775807L", "-1", "4"])
def test_constant_vector_index_out_of_range_is_a_diagnostic(index):
    """scalarize-vectors indexed its lane list with the constant and raised IndexError."""
    log = compile_log(f"kernel void k(global float4 *g) {{ g[1].x = (g[0] + 1.0f)[{index}]; }}")
    assert "error: vector index" in log and "is out of range for 'float4'" in log
