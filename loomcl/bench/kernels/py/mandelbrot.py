"""Python twin of mandelbrot.cl: escape counts, a loop whose exit varies by work-item."""
import numpy as np

import loomcl as cl

f32 = np.float32


@cl.kernel
def mandelbrot(image: cl.global_ptr(np.int32), x_min: f32, y_min: f32, step: f32, width: np.int32,
               max_iter: np.uint32):
    tid = cl.global_id(0)
    x0 = x_min + step * float(tid % width)
    y0 = y_min + step * float(tid // width)
    x, y = x0, y0
    x2 = x * x
    y2 = y * y
    it = np.uint32(0)
    while x2 + y2 <= 4.0 and it < max_iter:
        y = 2.0 * x * y + y0
        x = x2 - y2 + x0
        x2 = x * x
        y2 = y * y
        it += 1
    image[tid] = 255 * it // max_iter
