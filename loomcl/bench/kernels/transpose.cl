/* Matrix transpose through a __local tile (the SDK MatrixTranspose pattern): a work-group reads a
 * TILE x TILE block with consecutive work-items on consecutive addresses, and writes the transposed block
 * the same way. The tile has one column of padding, the usual guard against bank conflicts on GPUs.
 * in is height x width, out is width x height; both sizes are multiples of TILE. */
#define TILE 16

kernel void transpose(global float *out, global const float *in, int width, int height)
{
    local float tile[TILE][TILE + 1];
    int lx = get_local_id(0);
    int ly = get_local_id(1);
    int block_x = get_group_id(0) * TILE;
    int block_y = get_group_id(1) * TILE;

    tile[ly][lx] = in[(block_y + ly) * width + block_x + lx];
    barrier(CLK_LOCAL_MEM_FENCE);
    out[(block_x + ly) * height + block_y + lx] = tile[lx][ly];
}
