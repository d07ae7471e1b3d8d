"""Realistic kernels lower to verified IR with the expected shapes; so do the benchmark kernels."""
import pathlib

import pytest

from loomcl.frontend import CompileError
from loomcl.ir import Barrier, Call, Function, WorkItemQuery, print_module
from loomcl.ir.reader import read_module

from . import kernels
from .util import lower

BENCH_KERNELS = sorted((pathlib.Path(__file__).parents[2] / "loomcl" / "bench" / "kernels").glob("*.cl"))


def instructions_of(function: Function, kind) -> list:
    return [i for i in function.instructions() if isinstance(i, kind)]


@pytest.mark.parametrize("name", sorted(kernels.ALL))
def test_realistic_kernel_lowers_and_verifies(name):
    module = lower(kernels.ALL[name])
    assert module.kernels


@pytest.mark.parametrize("name", sorted(kernels.ALL))
def test_printed_ir_reads_back_unchanged(name):
    text = print_module(lower(kernels.ALL[name]))
    assert print_module(read_module(text)) == text


def test_tiled_matmul_has_two_local_tiles_and_barriers_in_a_loop():
    k = lower(kernels.MATMUL_TILED).functions["matmul_tiled"]
    assert [v.name for v in k.local_variables] == ["As", "Bs"]
    barriers = instructions_of(k, Barrier)
    assert len(barriers) == 2 and all(b.block.name == "for.body" for b in barriers[:1])
    assert k.attributes.reqd_work_group_size == (16, 16, 1)


def test_reduction_barrier_inside_the_loop():
    k = lower(kernels.REDUCTION).functions["reduce"]
    loop_barrier = instructions_of(k, Barrier)[1]
    assert loop_barrier.block.name == "if.end"


def test_three_dimensional_kernel_queries_all_dimensions():
    k = lower(kernels.STENCIL_3D).functions["stencil3d"]
    dims = {q.dim for q in instructions_of(k, WorkItemQuery)}
    assert dims == {0, 1, 2}


def test_helpers_are_functions_called_by_the_kernel():
    module = lower(kernels.HELPERS)
    assert not module.functions["square"].is_kernel
    assert [f.name for f in module.kernels] == ["helpers"]
    callees = {c.callee.name for c in instructions_of(module.functions["helpers"], Call)}
    assert callees == {"distance2", "store_pair", "classify"}


@pytest.mark.parametrize("path", BENCH_KERNELS, ids=lambda p: p.name)
def test_benchmark_kernels_lower(path):
    try:
        lower(path.read_text())
    except CompileError as error:
        if "not supported yet" in str(error) and "vector" in str(error):
            pytest.skip("vector types are not in the frontend yet")
        raise
