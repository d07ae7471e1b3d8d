/* 8x8 two-dimensional DCT (the SDK DCT benchmark of seed 000's Table 1): out = D * X * D^T for every 8x8
 * block X of the image, D the DCT-II basis. A work-group is one block, a work-item one coefficient; the
 * block and the intermediate D * X live in __local memory between two barriers. */
#define B 8

kernel void dct8x8(global float *out, global const float *in, global const float *basis, int width)
{
    local float block[B * B];
    local float partial[B * B];
    int lx = get_local_id(0);
    int ly = get_local_id(1);
    int gx = get_global_id(0);
    int gy = get_global_id(1);

    block[ly * B + lx] = in[gy * width + gx];
    barrier(CLK_LOCAL_MEM_FENCE);

    float acc = 0.0f;
    for (int k = 0; k < B; k++)
        acc += basis[ly * B + k] * block[k * B + lx];
    partial[ly * B + lx] = acc;
    barrier(CLK_LOCAL_MEM_FENCE);

    acc = 0.0f;
    for (int k = 0; k < B; k++)
        acc += partial[ly * B + k] * basis[lx * B + k];
    out[gy * width + gx] = acc;
}
