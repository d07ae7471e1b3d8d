"""Python twin of transpose.cl: a TILE x TILE block through __local memory (one column of padding)."""
import numpy as np

import loomcl as cl

TILE = 16


@cl.kernel
def transpose(out: cl.global_ptr(np.float32), src: cl.global_ptr(np.float32, const=True), width: np.int32,
              height: np.int32):
    tile = cl.local_array(np.float32, (TILE, TILE + 1))
    lx = cl.local_id(0)
    ly = cl.local_id(1)
    block_x = cl.group_id(0) * TILE
    block_y = cl.group_id(1) * TILE
    tile[ly, lx] = src[(block_y + ly) * width + block_x + lx]
    cl.barrier(cl.LOCAL_MEM_FENCE)
    out[(block_x + ly) * height + block_y + lx] = tile[lx, ly]
