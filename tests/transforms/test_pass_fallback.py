"""The fallback policy (transforms/pipeline.py, compiler.py): an internal error inside an optional pass
leaves that pass out, with a warning naming it; in strict mode (the test suite's) it is raised; an
internal error in a pass of the contract is an InternalCompilerError out of the compiler, naming the
pass. Each case breaks a pass on purpose (monkeypatch)."""
import pytest

from loomcl.driver import compiler
from loomcl.driver.compiler import InternalCompilerError
from loomcl.ir.printer import print_function
from loomcl.options import CompilerOptions
from loomcl.transforms import subcfg_formation, vectorize_work_items
from loomcl.transforms.pipeline import PIPELINE, FallbackWarning, work_group_function

LOOPS = r"""
__kernel void loops(__global int *out, __global const int *in) {
  int g = get_global_id(0), acc = 0;
  for (int k = 0; k < g % 7; k++) acc += in[(g + k) % 64];
  out[g] = acc;
}"""


def _broken(function, analyses):
    raise AttributeError("'Widened' object has no attribute 'tracks_users'")


def test_every_switched_pass_but_the_checks_can_be_left_out():
    options = CompilerOptions()
    for step in PIPELINE:
        if step.switch is None or step.switch == "checked":
            assert step.fallback_option is None, step.pass_name
            continue
        off = options.replace(**{step.fallback_option: False})
        assert not step.enabled(off), step.pass_name


def test_an_optional_pass_that_fails_is_left_out_with_a_warning(monkeypatch):
    module = compiler.build(LOOPS).module
    without = print_function(work_group_function(module, "loops", (16,), CompilerOptions(wfv=False, strict=False)))
    monkeypatch.setattr(vectorize_work_items, "run", _broken)
    warnings = []
    function = work_group_function(module, "loops", (16,), CompilerOptions(strict=False), warnings.append)
    assert print_function(function) == without
    assert warnings == [
        "warning: loomcl's optional pass vectorize-work-items failed on kernel 'loops' (local size (16,)) and "
        "was left out; the kernel runs without it. This is a bug in loomcl: please report it with the kernel "
        "and its build options. The error: AttributeError: 'Widened' object has no attribute 'tracks_users'"]


def test_without_a_listener_the_fallback_is_a_python_warning(monkeypatch):
    monkeypatch.setattr(vectorize_work_items, "run", _broken)
    with pytest.warns(FallbackWarning, match="optional pass vectorize-work-items failed on kernel 'loops'"):
        work_group_function(compiler.build(LOOPS).module, "loops", (16,), CompilerOptions(strict=False))


def test_strict_mode_raises_the_error_of_an_optional_pass(monkeypatch):
    monkeypatch.setattr(vectorize_work_items, "run", _broken)
    with pytest.raises(AttributeError, match="tracks_users") as error:
        work_group_function(compiler.build(LOOPS).module, "loops", (16,), CompilerOptions(strict=True))
    assert error.value.__notes__ == ["in pass vectorize-work-items on @loops"]


def test_the_test_suite_runs_in_strict_mode():
    assert CompilerOptions().strict and CompilerOptions.split("-loomcl-no-wfv")[0].strict


def test_a_failing_pass_of_the_contract_is_an_internal_compiler_error(monkeypatch):
    def broken(function, analyses):
        raise KeyError("a block")

    monkeypatch.setattr(subcfg_formation, "run", broken)
    program = compiler.build(LOOPS, "-loomcl-no-microprofile")
    with pytest.raises(InternalCompilerError) as error:
        program.work_group_ir("loops", (16, 1, 1))
    assert error.value.log == (
        "internal compiler error in the work-group pipeline of kernel 'loops' (in pass subcfg-formation on "
        "@loops): KeyError: 'a block'\nThis is a bug in loomcl, not in the kernel: please report it with "
        "the kernel and its build options.")
    assert isinstance(error.value.__cause__, KeyError)


def test_an_internal_error_of_the_front_half_is_an_internal_compiler_error(monkeypatch):
    from loomcl import lower

    def broken(*args, **kwargs):
        raise TypeError("no rule for this node")

    monkeypatch.setattr(lower, "lower_program", broken)
    with pytest.raises(InternalCompilerError, match="internal compiler error building: TypeError: no rule"):
        compiler.build(LOOPS + "// a source of its own: the front-half cache must not hold it\n")
