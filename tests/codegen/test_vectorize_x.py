"""The x work-item loop of a 2D nest stays a loop for LLVM's vectorizer (option `vectorize_x`): its
latch carries `llvm.loop.unroll.disable`, so LLVM vectorizes across x (unit stride) instead of fully
unrolling the 16-trip x loop and vectorizing the y loop across rows (scatters into the tile)."""
import re

from loomcl import codegen
from loomcl.compiler import build
from loomcl.options import CompilerOptions
from loomcl.runtime import host_info
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


def _unroll_disabled_latches(text):
    return _loops_with(text, "llvm.loop.unroll.disable")


def test_x_loops_of_2d_nests_keep_their_loop():
    f = _function((16, 16))
    nests = sum(1 for loop in f.work_item_loops if loop.dim == 0)
    text = codegen.llvm_ir(f, options=ON, optimized=False)
    assert nests == 4 and _unroll_disabled_latches(text) == nests
    assert _unroll_disabled_latches(codegen.llvm_ir(f, options=OFF, optimized=False)) == 0


def test_not_for_1d_nests():
    assert _unroll_disabled_latches(codegen.llvm_ir(_function((64, 1)), options=ON, optimized=False)) == 0


def test_tile_load_is_vectorized_across_x_without_scatters():
    f = _function((16, 16))
    assert "llvm.masked.scatter" not in codegen.llvm_ir(f, options=ON)
    if host_info.vector_bytes() == 64:  # AVX-512 has scatters: what the option avoids
        assert "llvm.masked.scatter" in codegen.llvm_ir(f, options=OFF)


def test_short_kernel_loops_inside_x_loops_are_unrolled_fully():
    """The k loop (16 trips) of the compute nest; not the t loop (a group-level loop)."""
    text = codegen.llvm_ir(_function((16, 16)), options=ON, optimized=False)
    assert _loops_with(text, "llvm.loop.unroll.full") == 1
    assert _loops_with(codegen.llvm_ir(_function((16, 16)), options=OFF, optimized=False), "llvm.loop.unroll.full") == 0


DOUBLE_TILE = TILE_LOAD.replace("float", "double")


def test_x_loops_of_16_doubles_run_in_one_vector_iteration():
    f = work_group_function(build(DOUBLE_TILE).module, "tile_load", (16, 4))
    text = codegen.llvm_ir(f, options=ON, optimized=False)
    assert re.search(r'!{!"llvm.loop.vectorize.width", i32 16}', text)
    floats = codegen.llvm_ir(_function((16, 16)), options=ON, optimized=False)
    assert "llvm.loop.vectorize.width" not in floats  # LLVM takes 16 floats by itself
