"""OpenCL C kernels through the whole compiler (frontend, lower, this pipeline in each variant,
codegen), run natively on numpy data: the work-group compiler's end-to-end regression suite."""
import ctypes

import numpy as np
import pytest

from loomcl.abi import kernel as abi
from loomcl.driver.backend import compile_work_group
from loomcl.driver.compiler import build
from loomcl.options import CompilerOptions
from loomcl.transforms.pipeline import work_group_function

VARIANTS = {
    "cbs": CompilerOptions(structured=False, fold_guards=False, verify_each=True),
    "context_all": CompilerOptions(context_all=True, structured=False, fold_guards=False, verify_each=True),
    "structured": CompilerOptions(verify_each=True),
}

SOURCE = r"""
__kernel void reduce(__global const float *in, __global float *out, __local float *t) {
  int lid = get_local_id(0);
  t[lid] = in[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int s = get_local_size(0) / 2; s > 0; s >>= 1) {
    if (lid < s) t[lid] += t[lid + s];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (lid == 0) out[get_group_id(0)] = t[0];
}

#define TS 4
__kernel void matmul(__global const float *A, __global const float *B, __global float *C, int N) {
  int col = get_local_id(0), row = get_local_id(1);
  int gc = get_global_id(0), gr = get_global_id(1);
  __local float As[TS][TS];
  __local float Bs[TS][TS];
  float acc = 0.0f;
  for (int t = 0; t < N / TS; t++) {
    As[row][col] = A[gr * N + t * TS + col];
    Bs[row][col] = B[(t * TS + row) * N + gc];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int k = 0; k < TS; k++) acc += As[row][k] * Bs[k][col];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  C[gr * N + gc] = acc;
}

/* hipSYCL listing 3.3: the trip count differs between work-items, the barrier count does not. */
__kernel void varying_trip(__global int *acc, __local int *scratch) {
  size_t lid = get_local_id(0);
  scratch[lid] = acc[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (size_t i = 0; i < 2 + lid; i++) {
    scratch[lid] += i;
    if (i < 2) barrier(CLK_LOCAL_MEM_FENCE);
  }
  acc[get_global_id(0)] = scratch[lid];
}

int neighbour_sum(__local const int *t, int lid, int n) {
  int right = t[(lid + 1) % n];
  barrier(CLK_LOCAL_MEM_FENCE);   /* a barrier inside a helper: visible only once inlined */
  return t[lid] + right;
}

__kernel void helpers(__global int *io, int rounds) {
  __local int t[64];
  int lid = get_local_id(0), n = get_local_size(0);
  int v = io[get_global_id(0)];
  if (rounds > 0) {
    for (int r = 0; r < rounds; r++) {
      t[lid] = v;
      barrier(CLK_LOCAL_MEM_FENCE);
      v = neighbour_sum(t, lid, n);
    }
  } else {
    v = -v;
  }
  if (get_global_id(0) >= 3 * n / 2) return;
  io[get_global_id(0)] = v;
}

__kernel void private_rows(__global float *io) {
  float row[4];
  int lid = get_local_id(0);
  for (int i = 0; i < 4; i++) row[i] = io[get_global_id(0)] * i;
  barrier(CLK_GLOBAL_MEM_FENCE);
  io[get_global_id(0)] = row[lid % 4] + row[(lid + 1) % 4];
}
"""


@pytest.fixture(scope="module")
def program():
    return build(SOURCE)


@pytest.fixture(autouse=True)
def private_cache_dir(tmp_path_factory, monkeypatch):
    monkeypatch.setenv("LOOMCL_CACHE_DIR", str(tmp_path_factory.getbasetemp() / "loomcl-cache"))


@pytest.fixture(params=list(VARIANTS))
def options(request):
    return VARIANTS[request.param]


def run(program, name, local_size, num_groups, args, options, local_bytes=()):
    local_size = tuple(local_size) + (1,) * (3 - len(local_size))
    num_groups = tuple(num_groups) + (1,) * (3 - len(num_groups))
    function = work_group_function(program.module, name, local_size, options)
    compiled = compile_work_group(function, program.kernels[name], options.replace(use_cache=False))
    info = abi.LaunchInfo()
    info.work_dim = 2 if num_groups[1] * local_size[1] > 1 else 1
    for d in range(3):
        info.global_size[d] = num_groups[d] * local_size[d]
        info.enqueued_local_size[d] = local_size[d]
        info.num_groups[d] = info.region_groups[d] = num_groups[d]
    offset, slots = -(-compiled.static_local_bytes // abi.LOCAL_ALIGN) * abi.LOCAL_ALIGN, []
    local_iter = iter(local_bytes)
    for a in args:
        if a is LOCAL:
            slots.append(offset)
            offset += -(-next(local_iter) // abi.LOCAL_ALIGN) * abi.LOCAL_ALIGN
        elif isinstance(a, np.ndarray):
            slots.append(a.ctypes.data)
        else:
            slots.append(int.from_bytes(a.tobytes() + bytes(8 - a.nbytes), "little"))
    slots = np.array(slots, dtype=np.uint64)
    arena = np.zeros(offset + 2 * abi.LOCAL_ALIGN, np.uint8)
    arena_address = -(-arena.ctypes.data // abi.LOCAL_ALIGN) * abi.LOCAL_ALIGN
    abi.ENTRY_CTYPE(compiled.address)(slots.ctypes.data, ctypes.addressof(info), 0, int(np.prod(num_groups)),
                                      arena_address)


LOCAL = object()


@pytest.mark.parametrize("L", [1, 2, 32, 256])
def test_reduce(program, options, L):
    inp = (np.arange(5 * L) % 11).astype(np.float32)
    out = np.zeros(5, np.float32)
    run(program, "reduce", (L,), (5,), [inp, out, LOCAL], options, [4 * L])
    np.testing.assert_array_equal(out, inp.reshape(5, L).sum(axis=1))


@pytest.mark.parametrize("N", [4, 12])
def test_tiled_matmul(program, options, N):
    rng = np.random.default_rng(1)
    A = rng.integers(0, 5, (N, N)).astype(np.float32)
    B = rng.integers(0, 5, (N, N)).astype(np.float32)
    C = np.zeros_like(A)
    run(program, "matmul", (4, 4), (N // 4, N // 4), [A, B, C, np.int32(N)], options)
    np.testing.assert_array_equal(C, A @ B)


@pytest.mark.parametrize("L", [1, 3, 16])
def test_barrier_loop_with_varying_trip_count(program, options, L):
    acc = np.arange(2 * L, dtype=np.int32)
    lid = np.arange(2 * L) % L
    expected = acc + ((lid + 1) * (lid + 2) // 2).astype(np.int32)
    run(program, "varying_trip", (L,), (2,), [acc, LOCAL], options, [4 * L])
    np.testing.assert_array_equal(acc, expected)


@pytest.mark.parametrize("rounds", [-1, 0, 1, 3])
@pytest.mark.parametrize("L", [2, 8])
def test_barrier_in_helper_under_uniform_if_and_early_return(program, options, rounds, L):
    io = np.arange(2 * L, dtype=np.int32) + 1
    expected = io.copy().reshape(2, L)
    if rounds > 0:
        for _ in range(rounds):
            expected = expected + np.roll(expected, -1, axis=1)
    else:
        expected = -expected
    expected = expected.reshape(-1)
    expected[3 * L // 2:] = io[3 * L // 2:]
    run(program, "helpers", (L,), (2,), [io, np.int32(rounds)], options)
    np.testing.assert_array_equal(io, expected)


@pytest.mark.parametrize("L", [1, 4, 8])
def test_private_array_lives_across_a_barrier(program, options, L):
    io = np.arange(2 * L, dtype=np.float32)
    lid = np.arange(2 * L) % L
    expected = io * (lid % 4) + io * ((lid + 1) % 4)
    run(program, "private_rows", (L,), (2,), [io], options)
    np.testing.assert_array_equal(io, expected.astype(np.float32))
