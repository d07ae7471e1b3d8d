"""Python twin of linalg.cl's sgemm_tiled: C = A * B through TILE x TILE __local tiles."""
import numpy as np

import loomcl as cl

TILE = 16
matrix = cl.global_ptr(np.float32, const=True)


@cl.kernel
def sgemm_tiled(n: np.int32, A: matrix, B: matrix, C: cl.global_ptr(np.float32)):
    a_tile = cl.local_array(np.float32, (TILE, TILE))
    b_tile = cl.local_array(np.float32, (TILE, TILE))
    lx = cl.local_id(0)
    ly = cl.local_id(1)
    col = cl.global_id(0)
    row = cl.global_id(1)
    acc = 0.0
    for t in range(0, n, TILE):
        a_tile[ly, lx] = A[row * n + t + lx]
        b_tile[ly, lx] = B[(t + ly) * n + col]
        cl.barrier(cl.LOCAL_MEM_FENCE)
        for k in range(TILE):
            acc += a_tile[ly, k] * b_tile[k, lx]
        cl.barrier(cl.LOCAL_MEM_FENCE)
    C[row * n + col] = acc
