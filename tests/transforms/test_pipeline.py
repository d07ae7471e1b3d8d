import pytest

from loomcl import ir
from loomcl.ir.reader import read_module
from loomcl.ir.verifier import VerificationError
from loomcl.options import CompilerOptions
from loomcl.transforms import hoist_invariants, mem2reg
from loomcl.transforms.pipeline import PASS_NAMES, PIPELINE, work_group_function, work_group_module

from . import kernels as K


def test_input_module_is_not_changed_and_each_call_gets_a_fresh_copy():
    module = read_module(K.REDUCE)
    before = ir.print_module(module)
    a = work_group_function(module, "reduce", (8,))
    b = work_group_function(module, "reduce", (16,))
    assert ir.print_module(module) == before
    assert a is not b and a.local_size == (8, 1, 1) and b.local_size == (16, 1, 1)


def printed_passes(text):
    return [line.split("after ", 1)[1] for line in text.splitlines() if line.startswith("; IR after")]


def test_print_after_prints_named_passes_to_stderr(capsys):
    options = CompilerOptions(print_after=("mem2reg", "subcfg-formation"))
    work_group_function(read_module(K.REDUCE), "reduce", (8,), options)
    text = capsys.readouterr().err
    assert text.count("; IR after") == 2 and "; IR after mem2reg" in text and "local_size(8, 1, 1)" in text


def test_print_after_all_names_every_pass_that_ran(capsys):
    options = CompilerOptions(ids_fit_int=True, checked=True, print_after=("all",), verify_each=True)
    work_group_function(read_module(K.REDUCE), "reduce", (8,), options)
    names = printed_passes(capsys.readouterr().err)
    assert names == list(PASS_NAMES)


def test_switched_off_passes_do_not_run(capsys):
    options = CompilerOptions(structured=False, fold_guards=False, scalarize=False, tiled_group_order=False,
                              transpose_private=False, wfv=False, print_after=("all",))
    work_group_function(read_module(K.REDUCE), "reduce", (8,), options)
    names = printed_passes(capsys.readouterr().err)
    assert names == ["inline", "mem2reg", "simplify", "canonicalize-barriers", "subcfg-formation",
                     "simplify-final", "hoist-invariants"]


def test_unknown_pass_name_lists_the_passes():
    message = "unknown pass 'fold-guards'; the passes are inline, mem2reg, .*, hoist-invariants"
    with pytest.raises(ValueError, match=message):
        work_group_function(read_module(K.REDUCE), "reduce", (8,), CompilerOptions(print_after=("fold-guards",)))


def test_the_table_names_each_pass_once_and_its_switches_are_options():
    assert len(set(PASS_NAMES)) == len(PASS_NAMES)
    for step in PIPELINE:
        assert callable(step.pass_.run) and step.why
        assert step.switch is None or isinstance(getattr(CompilerOptions(), step.switch), bool)
    contract = [step.pass_name for step in PIPELINE if step.switch is None]
    assert {"canonicalize-barriers", "subcfg-formation", "hoist-invariants"} <= set(contract)


def test_verify_each_names_the_pass_that_broke_the_ir(monkeypatch):
    def breaks(function, analyses):
        function.blocks[-1].instructions[-1].detach()  # a block without a terminator
        return True

    monkeypatch.setattr(mem2reg, "run", breaks)
    with pytest.raises(VerificationError, match="after mem2reg"):
        work_group_function(read_module(K.REDUCE), "reduce", (8,), CompilerOptions(verify_each=True))


def test_verify_each_catches_an_unreported_change(monkeypatch):
    """A pass that changes the IR but says it did not would leave stale analyses behind."""
    def quietly(function, analyses):
        function.blocks[0].name = "renamed"
        return False

    monkeypatch.setattr(hoist_invariants, "run", quietly)
    with pytest.raises(VerificationError, match="hoist-invariants reported no change but changed @reduce"):
        work_group_function(read_module(K.REDUCE), "reduce", (8,), CompilerOptions(verify_each=True))


def test_module_result_holds_only_the_kernel_and_globals():
    text = "constant @c : [2 x i32] = [3, 4]\n\n" + K.SCALE
    module = work_group_module(read_module(text), "scale", (4, 1, 1))
    assert list(module.functions) == ["scale"] and [g.name for g in module.globals] == ["c"]


def test_unknown_kernel():
    with pytest.raises(KeyError, match="nope"):
        work_group_function(read_module(K.SCALE), "nope", (4,))
