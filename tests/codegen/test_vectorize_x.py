"""The unroll hints that make LLVM vectorize the x work-item loop (codegen/unroll_hints.py, option
`vectorize_x`): short kernel loops inside x loops get `llvm.loop.unroll.full`, rolled x loops of 16
doubles a width of 16; with the rolled x loops (`roll_small_x_loops`) the tile loads of a tiled matmul
are vector loads across x, not scatters across y."""
import re

from loomcl import host
from loomcl.driver import backend
from loomcl.driver.compiler import build
from loomcl.options import CompilerOptions
from loomcl.transforms.pipeline import work_group_function

TILE_LOAD = r"""
__kernel void tile_load(__global const float *A, __global const float *B, __global float *out, int n) {
  __local float a_tile[16][16], b_tile[16][16];
  int lx = get_local_id(0), ly = get_local_id(1), col = get_global_id(0), row = get_global_id(1);
  float acc = 0.0f;
  for (int t = 0; t < n; t += 16) {
    a_tile[ly][lx] = A[row * n + t + lx];
    b_tile[ly][lx] = B[(t + ly) * n + col];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int k = 0; k < 16; k++) acc += a_tile[ly][k] * b_tile[k][lx];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  out[row * n + col] = acc;
}
"""

ON, OFF = CompilerOptions(), CompilerOptions(vectorize_x=False)


def _function(local_size):
    return work_group_function(build(TILE_LOAD).module, "tile_load", local_size)


def _loops_with(text, hint):
    """How many loop ids (`distinct !{!self, ...}`) list the metadata node `!{!"HINT"}`."""
    node = re.search(rf'^(![0-9]+) = !{{!"{hint}"}}$', text, re.M)
    if node is None:
        return 0
    return len(re.findall(rf'^(![0-9]+) = distinct !{{\1, .*{node.group(1)}\b', text, re.M))


def test_tile_load_is_vectorized_across_x_without_scatters():
    f = _function((16, 16))
    scatters = ON.replace(scalar_scatters=False)  # scatters allowed: the loop order alone avoids them
    assert "llvm.masked.scatter" not in backend.llvm_ir(f, options=scatters)
    if host.vector_bytes() == 64:  # AVX-512 has scatters: what rolled x loops avoid
        assert "llvm.masked.scatter" in backend.llvm_ir(f, options=scatters.replace(roll_small_x_loops=False))


def test_short_kernel_loops_inside_x_loops_are_unrolled_fully():
    """The k loop (16 trips) of the compute nest; not the t loop (a group-level loop)."""
    text = backend.llvm_ir(_function((16, 16)), options=ON, optimized=False)
    assert _loops_with(text, "llvm.loop.unroll.full") == 1
    assert _loops_with(backend.llvm_ir(_function((16, 16)), options=OFF, optimized=False), "llvm.loop.unroll.full") == 0


DOUBLE_TILE = TILE_LOAD.replace("float", "double")


def test_x_loops_of_16_doubles_run_in_one_vector_iteration():
    f = work_group_function(build(DOUBLE_TILE).module, "tile_load", (16, 4))
    text = backend.llvm_ir(f, options=ON, optimized=False)
    assert re.search(r'!{!"llvm.loop.vectorize.width", i32 16}', text)
    floats = backend.llvm_ir(_function((16, 16)), options=ON, optimized=False)
    assert "llvm.loop.vectorize.width" not in floats  # LLVM takes 16 floats by itself
