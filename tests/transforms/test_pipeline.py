import io

import pytest

from loomcl import ir
from loomcl.ir.reader import read_module
from loomcl.transforms.pipeline import PASS_NAMES, PipelineOptions, work_group_function, work_group_module

from . import kernels as K


def test_input_module_is_not_changed_and_each_call_gets_a_fresh_copy():
    module = read_module(K.REDUCE)
    before = ir.print_module(module)
    a = work_group_function(module, "reduce", (8,))
    b = work_group_function(module, "reduce", (16,))
    assert ir.print_module(module) == before
    assert a is not b and a.local_size == (8, 1, 1) and b.local_size == (16, 1, 1)


def test_print_after_dumps_named_passes():
    out = io.StringIO()
    work_group_function(read_module(K.REDUCE), "reduce", (8,), PipelineOptions(print_after=("mem2reg", "subcfg-formation"), dump=out))
    text = out.getvalue()
    assert text.count("; IR after") == 2 and "; IR after mem2reg" in text and "local_size(8, 1, 1)" in text


def test_print_after_all_names_every_pass_that_ran():
    out = io.StringIO()
    work_group_function(read_module(K.REDUCE), "reduce", (8,), PipelineOptions(ids_fit_int=True, print_after=("all",), dump=out, verify=True))
    names = [line.split("after ", 1)[1] for line in out.getvalue().splitlines() if line.startswith("; IR after")]
    assert names == list(PASS_NAMES)


def test_module_result_holds_only_the_kernel_and_globals():
    text = "constant @c : [2 x i32] = [3, 4]\n\n" + K.SCALE
    module = work_group_module(read_module(text), "scale", (4, 1, 1))
    assert list(module.functions) == ["scale"] and [g.name for g in module.globals] == ["c"]


def test_unknown_kernel():
    with pytest.raises(KeyError, match="nope"):
        work_group_function(read_module(K.SCALE), "nope", (4,))
