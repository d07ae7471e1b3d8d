"""Work-groups walked in tiles (codegen/group_order.py): every group of a launch runs once, with its
own ids, whatever the chunks the workers take, with partial tiles and bands, several z planes and a
global offset; and the 16x16-tile transpose it speeds up, against numpy, in both group orders."""
import numpy as np
import pytest

from loomcl.driver.compiler import build
from loomcl.options import CompilerOptions
from loomcl.transforms.group_order import TILE
from loomcl.transforms.pipeline import work_group_function

RECORD = r"""
kernel void record(global int *visits, global int *ids) {
  size_t gx = get_group_id(0), gy = get_group_id(1), gz = get_group_id(2);
  size_t i = (gz * get_num_groups(0) + gx) * get_num_groups(1) + gy;  /* column-major: tiled order */
  if (get_local_id(0) == 0 && get_local_id(1) == 0 && get_local_id(2) == 0) {
    atomic_inc(&visits[i]);
    ids[3 * i] = gx; ids[3 * i + 1] = gy; ids[3 * i + 2] = gz;
  }
}"""

TRANSPOSE = r"""
kernel void transpose(global float *out, global const float *in, int width, int height) {
  local float tile[16][17];
  int lx = get_local_id(0), ly = get_local_id(1);
  int bx = get_group_id(0) * 16, by = get_group_id(1) * 16;
  tile[ly][lx] = in[(by + ly) * width + bx + lx];
  barrier(CLK_LOCAL_MEM_FENCE);
  out[(bx + ly) * height + by + lx] = tile[lx][ly];
}"""

STENCIL = r"""
kernel void stencil(global float *out, global const float *in, int w) {
  int x = get_global_id(0), y = get_global_id(1);
  out[y * w + x] = in[(y + 1) * w + x] + in[y * w + x + 1];
}"""

ORDERS = ["", "-loomcl-row-group-order"]


@pytest.mark.parametrize("options", ORDERS)
@pytest.mark.parametrize("groups", [(TILE + 6, TILE + 5, 1), (2 * TILE, 3, 3), (1, 70, 2), (70, 1, 1), (5, 7, 4)])
def test_every_group_runs_once_with_its_ids(run_kernel, options, groups):
    local = (2, 2, 1)
    total = groups[0] * groups[1] * groups[2]
    visits, ids = run_kernel(RECORD, "record", tuple(g * l for g, l in zip(groups, local)), local,
                             np.zeros(total, np.int32), np.full(3 * total, -1, np.int32), options=options)
    assert (visits == 1).all()
    gz, gx, gy = np.meshgrid(np.arange(groups[2]), np.arange(groups[0]), np.arange(groups[1]), indexing="ij")
    np.testing.assert_array_equal(ids.reshape(-1, 3), np.stack([gx.ravel(), gy.ravel(), gz.ravel()], axis=1))


@pytest.mark.parametrize("src, name, tiled", [(RECORD, "record", True), (TRANSPOSE, "transpose", True),
                                             (STENCIL, "stencil", False)])
def test_the_pass_tiles_column_walks_only(src, name, tiled):
    f = work_group_function(build(src).module, name, (16, 16, 1))
    assert (f.group_tile == TILE) == tiled
    assert any(r.startswith("group-order: tiles") for r in f.remarks) == tiled
    off = work_group_function(build(src).module, name, (16, 16, 1), CompilerOptions(tiled_group_order=False))
    assert off.group_tile is None


def test_global_offset_keeps_the_ids(run_kernel):
    groups, local = (TILE + 3, 4, 1), (2, 2, 1)
    total = groups[0] * groups[1]
    visits, ids = run_kernel(RECORD, "record", (groups[0] * 2, groups[1] * 2), local[:2],
                             np.zeros(total, np.int32), np.full(3 * total, -1, np.int32),
                             global_offset=(4, 6))
    assert (visits == 1).all() and (ids[2::3] == 0).all()


@pytest.mark.parametrize("options", ORDERS)
@pytest.mark.parametrize("shape", [(16 * (TILE + 3), 48), (48, 16 * (TILE + 1))])
def test_transpose_against_numpy(run_kernel, options, shape):
    height, width = shape
    a = np.random.default_rng(3).random((height, width), dtype=np.float32)
    out, _ = run_kernel(TRANSPOSE, "transpose", (width, height), (16, 16), np.zeros((width, height), np.float32),
                        a, np.int32(width), np.int32(height), options=options)
    np.testing.assert_array_equal(out, a.T)


def test_ragged_launch_regions(run_kernel):
    """A global size that the local size does not divide: the remainder groups are regions of their own."""
    groups = (TILE + 4, 5)
    total = groups[0] * groups[1]
    visits, ids = run_kernel(RECORD, "record", (2 * groups[0] - 1, 2 * groups[1] - 1), (2, 2),
                             np.zeros(total, np.int32), np.full(3 * total, -1, np.int32))
    assert (visits == 1).all()
    gx, gy = np.meshgrid(np.arange(groups[0]), np.arange(groups[1]), indexing="ij")
    np.testing.assert_array_equal(ids.reshape(-1, 3)[:, :2], np.stack([gx.ravel(), gy.ravel()], axis=1))
