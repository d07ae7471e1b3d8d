/* Streaming kernels: one element per work-item, bound by memory bandwidth.
 * copyBuffer is the bandwidth probe of seed 001 (listing 15-1); saxpy is BLAS level 1 (y = a*x + y, in
 * place); stencil5 is one Jacobi step of a 5-point 2D stencil (Parboil/SHOC stencil pattern, in 2D). */

kernel void copyBuffer(global const float *in, global float *out)
{
    int i = get_global_id(0);
    out[i] = in[i];
}

kernel void saxpy(float a, global const float *x, global float *y)
{
    int i = get_global_id(0);
    y[i] = a * x[i] + y[i];
}

/* Interior points take the weighted sum of themselves and their four neighbours; the border is copied. */
kernel void stencil5(global const float *in, global float *out, int width, int height,
                     float centre, float neighbour)
{
    int x = get_global_id(0);
    int y = get_global_id(1);
    int i = y * width + x;
    if (x == 0 || y == 0 || x == width - 1 || y == height - 1) {
        out[i] = in[i];
        return;
    }
    float around = in[i - 1] + in[i + 1] + in[i - width] + in[i + width];
    out[i] = centre * in[i] + neighbour * around;
}
