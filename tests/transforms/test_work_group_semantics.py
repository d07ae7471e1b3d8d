"""Whole-pipeline tests on semantics: each kernel, in every pipeline variant and at several local
sizes, must compute what its numpy reference says, and what the work-item interpreter (OpenCL
semantics, one generator per work-item) computes."""
import numpy as np
import pytest

from loomcl.ir.reader import read_module
from loomcl.options import CompilerOptions
from loomcl.transforms.pipeline import work_group_function

from . import interp
from . import kernels as K

VARIANTS = {
    "cbs": CompilerOptions(structured=False, fold_guards=False, verify_each=True),
    "context_all": CompilerOptions(context_all=True, structured=False, fold_guards=False, verify_each=True),
    "structured": CompilerOptions(structured=True, fold_guards=False, verify_each=True),
    "structured_folded": CompilerOptions(structured=True, fold_guards=True, verify_each=True),
}
SIZES = [1, 2, 8, 16]


def run_both(text, name, args_for, num_groups, local_size, options):
    """Run the work-group form and the work-item reference on fresh copies of the arguments."""
    module = read_module(text)
    function = work_group_function(module, name, local_size, options)
    args_wg, args_wi = args_for(), args_for()
    interp.run_work_groups(function, args_wg, num_groups)
    interp.run_work_items(module.functions[name], args_wi, num_groups, local_size)
    return args_wg, args_wi


def check(text, name, args_for, outputs, num_groups, local_size, options, expected):
    got, reference = run_both(text, name, args_for, num_groups, local_size, options)
    for i in outputs:
        np.testing.assert_array_equal(got[i], reference[i])
        np.testing.assert_array_equal(got[i], expected)


@pytest.fixture(params=list(VARIANTS))
def options(request):
    return VARIANTS[request.param]


@pytest.mark.parametrize("L", SIZES)
def test_barrier_free_kernel(options, L):
    inp = np.arange(3 * L, dtype=np.float32)
    check(K.SCALE, "scale", lambda: [inp.copy(), np.zeros_like(inp), np.float32(2.5).item()], [1], (3,), (L,),
          options, K.ref_scale(inp, np.float32(2.5)))


@pytest.mark.parametrize("L", SIZES)
def test_reduction_with_barrier_in_loop(options, L):
    inp = np.arange(3 * L, dtype=np.float32)
    check(K.REDUCE, "reduce", lambda: [inp.copy(), np.zeros(3, np.float32)], [1], (3,), (L,), options,
          K.ref_reduce(inp, L))


@pytest.mark.parametrize("n", [0, 3])
@pytest.mark.parametrize("L", SIZES)
def test_barrier_under_uniform_if(options, L, n):
    inp = np.arange(2 * L, dtype=np.float32) + 1
    check(K.UNIFORM_IF, "uniform_if", lambda: [inp.copy(), np.full_like(inp, 7), n], [1], (2,), (L,), options,
          K.ref_uniform_if(inp, n, L))


@pytest.mark.parametrize("L", SIZES)
def test_barrier_loop_with_varying_trip_count(options, L):
    inp = np.arange(2 * L, dtype=np.int32) * 10
    check(K.VARYING_TRIP, "varying_trip", lambda: [inp.copy(), np.zeros_like(inp)], [1], (2,), (L,), options,
          K.ref_varying_trip(inp, L))


@pytest.mark.parametrize("L", SIZES)
def test_local_written_by_one_work_item(options, L):
    inp = np.arange(3 * L, dtype=np.int32) * 3 + 1
    check(K.BROADCAST, "broadcast", lambda: [inp.copy(), np.zeros_like(inp)], [1], (3,), (L,), options,
          K.ref_broadcast(inp, L))


@pytest.mark.parametrize("n", [-1, 0, 1, 3])
@pytest.mark.parametrize("L", SIZES)
def test_barrier_loop_inside_if_with_else(options, L, n):
    inp = np.arange(2 * L, dtype=np.float32)
    check(K.LOOP_IN_IF, "loop_in_if", lambda: [inp.copy(), np.zeros_like(inp), n], [1], (2,), (L,), options,
          K.ref_loop_in_if(inp, n, L))


@pytest.mark.parametrize("n", [0, 1, 5, 100])
@pytest.mark.parametrize("L", SIZES)
def test_early_return_after_barrier(options, L, n):
    inp = np.arange(2 * L, dtype=np.int32) * 2
    before = np.full_like(inp, -5)
    check(K.EARLY_RETURN, "early_return", lambda: [inp.copy(), before.copy(), n], [1], (2,), (L,), options,
          K.ref_early_return(inp, before, n, L))


@pytest.mark.parametrize("L", SIZES)
def test_private_array_across_barrier(options, L):
    inp = np.arange(2 * L, dtype=np.int32) + 3
    check(K.PRIVATE_ARRAY, "private_array", lambda: [inp.copy(), np.zeros_like(inp)], [1], (2,), (L,), options,
          K.ref_private_array(inp, L))


@pytest.mark.parametrize("local", [(4, 2), (2, 4), (1, 4), (4, 1), (2, 2)])
def test_two_dimensional_groups(options, local):
    Lx, Ly = local
    H, W = 2 * Ly, 3 * Lx
    inp = np.arange(H * W, dtype=np.float32).reshape(H, W)
    check(K.TRANSPOSE_2D, "reverse_2d", lambda: [inp.copy(), np.zeros_like(inp)], [1], (3, 2), (Lx, Ly), options,
          K.ref_reverse_2d(inp, Lx, Ly))


PRINTF = """
kernel @k(i32 %n) {
entry:
  %lid = local_id 0
  %lid32 = trunc %lid to i32
  jump loop
loop:
  %i = phi i32 [i32 0, entry], [%i.next, latch]
  %more = cmp slt %i, %n
  branch %more, body, done
body:
  %r = printf 1 "%d %d\\0A", %lid32, %i
  printf 2 "same"
  barrier 1
  jump latch
latch:
  %i.next = add %i, i32 1
  jump loop
done:
  ret
}
"""


@pytest.mark.parametrize("L", [1, 4])
def test_printf_runs_once_per_work_item_and_iteration(options, L):
    """printf has an effect: never hoisted out of the loop, merged or dropped by the pipeline."""
    module = read_module(PRINTF.replace("printf 2", "%s = printf 2"))
    function = work_group_function(module, "k", (L,), options)
    got, reference = [], []
    interp.run_work_groups(function, [3], (2,), printed=got)
    interp.run_work_items(module.functions["k"], [3], (2,), (L,), printed=reference)
    calls = [(b"%d %d\n", [lid, i]) for lid in range(L) for i in range(3)] * 2 + [(b"same", [])] * (6 * L)
    key = lambda call: (call[0], call[1])  # noqa: E731
    assert sorted(got, key=key) == sorted(reference, key=key) == sorted(calls, key=key)
