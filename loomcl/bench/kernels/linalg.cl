/* Dense single-precision BLAS kernels (square n x n matrices, row-major; Kim's BLAS set, seed 003 ch. 6).
 *   sgemm_naive   C = A * B, a work-item per element of C, operands straight from global memory
 *   sgemm_tiled   the same through TILE x TILE __local tiles of A and B (barrier in a uniform loop)
 *   sgemv_row     y = A * x, a row per work-item
 *   sgemv_group   y = A * x, a work-group per row: strided partial dots, then a tree reduction
 *   column_sums   s = column sums of A, a work-item per column: a walk down the columns (Kim's BFO case)
 * n is a multiple of TILE for the tiled kernel; sgemv_group needs a power-of-two local size. */
#define TILE 16

kernel void sgemm_naive(int n, global const float *A, global const float *B, global float *C)
{
    int col = get_global_id(0);
    int row = get_global_id(1);
    float acc = 0.0f;
    for (int k = 0; k < n; k++)
        acc += A[row * n + k] * B[k * n + col];
    C[row * n + col] = acc;
}

kernel void sgemm_tiled(int n, global const float *A, global const float *B, global float *C)
{
    local float a_tile[TILE][TILE];
    local float b_tile[TILE][TILE];
    int lx = get_local_id(0);
    int ly = get_local_id(1);
    int col = get_global_id(0);
    int row = get_global_id(1);
    float acc = 0.0f;
    for (int t = 0; t < n; t += TILE) {
        a_tile[ly][lx] = A[row * n + t + lx];
        b_tile[ly][lx] = B[(t + ly) * n + col];
        barrier(CLK_LOCAL_MEM_FENCE);
        for (int k = 0; k < TILE; k++)
            acc += a_tile[ly][k] * b_tile[k][lx];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    C[row * n + col] = acc;
}

kernel void sgemv_row(int n, global const float *A, global const float *x, global float *y)
{
    int row = get_global_id(0);
    global const float *a = A + row * n;
    float acc = 0.0f;
    for (int j = 0; j < n; j++)
        acc += a[j] * x[j];
    y[row] = acc;
}

kernel void sgemv_group(int n, global const float *A, global const float *x, global float *y,
                        local float *partial)
{
    int row = get_group_id(0);
    int lid = get_local_id(0);
    int lsize = get_local_size(0);
    global const float *a = A + row * n;
    float acc = 0.0f;
    for (int j = lid; j < n; j += lsize)
        acc += a[j] * x[j];
    partial[lid] = acc;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int s = lsize / 2; s > 0; s >>= 1) {
        if (lid < s)
            partial[lid] += partial[lid + s];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (lid == 0)
        y[row] = partial[0];
}

kernel void column_sums(int n, global const float *A, global float *sums)
{
    int col = get_global_id(0);
    float acc = 0.0f;
    for (int r = 0; r < n; r++)
        acc += A[r * n + col];
    sums[col] = acc;
}
