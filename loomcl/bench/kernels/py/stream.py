"""Python twins of stream.cl's saxpy and stencil5 (same names, parameters and results)."""
import numpy as np

import loomcl as cl

f32 = np.float32


@cl.kernel
def saxpy(a: f32, x: cl.global_ptr(f32, const=True), y: cl.global_ptr(f32)):
    i = cl.global_id(0)
    y[i] = a * x[i] + y[i]


@cl.kernel
def stencil5(src: cl.global_ptr(f32, const=True), out: cl.global_ptr(f32), width: np.int32, height: np.int32,
             centre: f32, neighbour: f32):
    """Interior points take the weighted sum of themselves and their four neighbours; the border is copied."""
    x = cl.global_id(0)
    y = cl.global_id(1)
    i = y * width + x
    if x == 0 or y == 0 or x == width - 1 or y == height - 1:
        out[i] = src[i]
        return
    around = src[i - 1] + src[i + 1] + src[i - width] + src[i + width]
    out[i] = centre * src[i] + neighbour * around
