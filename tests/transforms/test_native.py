"""End to end: work-item IR text -> pipeline -> codegen -> native code run on numpy arrays, in
every pipeline variant and at several local sizes, against numpy references."""
import ctypes

import numpy as np
import pytest

from loomcl.abi import kernel as abi
from loomcl.driver.backend import compile_work_group
from loomcl.ir.reader import read_module
from loomcl.options import CompilerOptions
from loomcl.transforms.pipeline import work_group_function

from . import kernels as K

VARIANTS = {
    "cbs": CompilerOptions(structured=False, fold_guards=False),
    "context_all": CompilerOptions(context_all=True, structured=False, fold_guards=False),
    "structured": CompilerOptions(structured=True, fold_guards=True),
}


@pytest.fixture(autouse=True)
def private_cache_dir(tmp_path_factory, monkeypatch):
    monkeypatch.setenv("LOOMCL_CACHE_DIR", str(tmp_path_factory.getbasetemp() / "loomcl-cache"))


@pytest.fixture(params=list(VARIANTS))
def options(request):
    return VARIANTS[request.param]


def launch(text, name, local_size, num_groups, args, options):
    local_size = tuple(local_size) + (1,) * (3 - len(local_size))
    num_groups = tuple(num_groups) + (1,) * (3 - len(num_groups))
    function = work_group_function(read_module(text), name, local_size, options)
    compiled = compile_work_group(function, None, options.replace(use_cache=False))
    info = abi.LaunchInfo()
    info.work_dim = 3 if num_groups[2] * local_size[2] > 1 else 2 if num_groups[1] * local_size[1] > 1 else 1
    for d in range(3):
        info.global_size[d] = num_groups[d] * local_size[d]
        info.enqueued_local_size[d] = local_size[d]
        info.num_groups[d] = info.region_groups[d] = num_groups[d]
    slots = np.array([_slot(a) for a in args] or [0], dtype=np.uint64)
    arena = np.zeros(compiled.static_local_bytes + 2 * abi.LOCAL_ALIGN, np.uint8)
    arena_address = -(-arena.ctypes.data // abi.LOCAL_ALIGN) * abi.LOCAL_ALIGN
    entry = abi.ENTRY_CTYPE(compiled.address)
    entry(slots.ctypes.data, ctypes.addressof(info), 0, int(np.prod(num_groups)), arena_address)


def _slot(value) -> int:
    if isinstance(value, np.ndarray):
        return value.ctypes.data
    raw = value.tobytes()
    return int.from_bytes(raw + bytes(8 - len(raw)), "little")


@pytest.mark.parametrize("L", [1, 8, 64])
def test_scale(options, L):
    inp = np.arange(5 * L, dtype=np.float32)
    out = np.zeros_like(inp)
    launch(K.SCALE, "scale", (L,), (5,), [inp, out, np.float32(1.5)], options)
    np.testing.assert_array_equal(out, inp * np.float32(1.5))


@pytest.mark.parametrize("L", [1, 4, 32, 64])
def test_reduce(options, L):
    inp = (np.arange(7 * L) % 13).astype(np.float32)
    out = np.zeros(7, np.float32)
    launch(K.REDUCE, "reduce", (L,), (7,), [inp, out], options)
    np.testing.assert_array_equal(out, K.ref_reduce(inp, L))


@pytest.mark.parametrize("n", [0, 2])
@pytest.mark.parametrize("L", [2, 16, 64])
def test_uniform_if(options, L, n):
    inp = np.arange(3 * L, dtype=np.float32)
    out = np.full_like(inp, 9)
    launch(K.UNIFORM_IF, "uniform_if", (L,), (3,), [inp, out, np.int32(n)], options)
    np.testing.assert_array_equal(out, K.ref_uniform_if(inp, n, L))


@pytest.mark.parametrize("L", [1, 5, 16, 64])
def test_varying_trip(options, L):
    inp = np.arange(3 * L, dtype=np.int32)
    out = np.zeros_like(inp)
    launch(K.VARYING_TRIP, "varying_trip", (L,), (3,), [inp, out], options)
    np.testing.assert_array_equal(out, K.ref_varying_trip(inp, L))


@pytest.mark.parametrize("L", [1, 16, 64])
def test_broadcast(options, L):
    inp = np.arange(4 * L, dtype=np.int32) * 7
    out = np.zeros_like(inp)
    launch(K.BROADCAST, "broadcast", (L,), (4,), [inp, out], options)
    np.testing.assert_array_equal(out, K.ref_broadcast(inp, L))


@pytest.mark.parametrize("n", [-2, 0, 3])
@pytest.mark.parametrize("L", [2, 16, 64])
def test_loop_in_if(options, L, n):
    inp = (np.arange(3 * L) % 5).astype(np.float32)
    out = np.zeros_like(inp)
    launch(K.LOOP_IN_IF, "loop_in_if", (L,), (3,), [inp, out, np.int32(n)], options)
    np.testing.assert_array_equal(out, K.ref_loop_in_if(inp, n, L))


@pytest.mark.parametrize("n", [0, 3, 1000])
@pytest.mark.parametrize("L", [1, 16, 64])
def test_early_return(options, L, n):
    inp = np.arange(3 * L, dtype=np.int32)
    out = np.full_like(inp, -5)
    expected = K.ref_early_return(inp, out, n, L)
    launch(K.EARLY_RETURN, "early_return", (L,), (3,), [inp, out, np.uint64(n)], options)
    np.testing.assert_array_equal(out, expected)


@pytest.mark.parametrize("L", [1, 16, 64])
def test_private_array(options, L):
    inp = np.arange(3 * L, dtype=np.int32)
    out = np.zeros_like(inp)
    launch(K.PRIVATE_ARRAY, "private_array", (L,), (3,), [inp, out], options)
    np.testing.assert_array_equal(out, K.ref_private_array(inp, L))


@pytest.mark.parametrize("local", [(8, 8), (4, 2), (1, 8), (16, 1)])
def test_reverse_2d(options, local):
    Lx, Ly = local
    H, W = 2 * Ly, 3 * Lx
    inp = np.arange(H * W, dtype=np.float32).reshape(H, W)
    out = np.zeros_like(inp)
    launch(K.TRANSPOSE_2D, "reverse_2d", local, (3, 2), [inp, out], options)
    np.testing.assert_array_equal(out, K.ref_reverse_2d(inp, Lx, Ly))
