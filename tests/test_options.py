"""The one options object: parsed once from a build-options string, read by the pipeline and codegen."""
import dataclasses

import pytest

from loomcl.driver import compiler
from loomcl.frontend import OptionError
from loomcl.options import CompilerOptions


def test_switches_are_taken_out_and_the_rest_goes_to_the_front_end():
    options, rest = CompilerOptions.split("-DN=4 -loomcl-no-structured -cl-fast-relaxed-math -loomcl-verify-each "
                                          "-loomcl-print-after=mem2reg -loomcl-print-after=all")
    assert rest == "-DN=4 -cl-fast-relaxed-math"
    assert options == CompilerOptions(structured=False, verify_each=True, print_after=("mem2reg", "all"))


def test_every_switch_names_a_field():
    fields = {f.name for f in dataclasses.fields(CompilerOptions)}
    assert all(name in fields for name, _ in CompilerOptions.SWITCHES.values())


def test_options_are_frozen():
    with pytest.raises(dataclasses.FrozenInstanceError):
        CompilerOptions().structured = False


def test_context_all_implies_the_plain_cbs_form():
    assert CompilerOptions().uses_structured_form and CompilerOptions().uses_horizontal_loops
    assert not CompilerOptions(context_all=True).uses_structured_form
    assert not CompilerOptions(structured=False).uses_horizontal_loops


def test_only_code_changing_fields_are_in_the_codegen_key():
    base = CompilerOptions().codegen_key()
    assert base == "pm=1 vec=1 il=1 unroll=1 O3"  # unchanged: existing cache entries stay valid
    assert CompilerOptions(vectorize=False).codegen_key() != base
    assert CompilerOptions(checked=True).codegen_key() == base + " checked"
    same = CompilerOptions(use_cache=False, verify_each=True, print_after=("all",), structured=False, ids_fit_int=True)
    assert same.codegen_key() == base  # the pipeline's options change the LLVM IR text, which is keyed itself


def test_checked_mode_from_the_build_option_or_the_environment(monkeypatch):
    monkeypatch.delenv("LOOMCL_CHECK", raising=False)
    assert CompilerOptions.split("-loomcl-check -DN=1") == (CompilerOptions(checked=True), "-DN=1")
    assert not CompilerOptions.split("")[0].checked
    monkeypatch.setenv("LOOMCL_CHECK", "1")
    assert CompilerOptions.split("")[0].checked
    monkeypatch.setenv("LOOMCL_CHECK", "0")
    assert not CompilerOptions.split("")[0].checked


def test_a_built_program_carries_the_options():
    program = compiler.build("kernel void k(global int *a) { a[0] = 1; }", "-loomcl-no-vectorize")
    assert program.options == CompilerOptions(vectorize=False)


def test_an_unknown_pass_for_print_after_is_an_option_error():
    message = r"unknown pass \(the passes are inline, mem2reg, .*\): '-loomcl-print-after=nope'"
    with pytest.raises(OptionError, match=message):
        compiler.build("kernel void k(global int *a) { a[0] = 1; }", "-loomcl-print-after=nope")
