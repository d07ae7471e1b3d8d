/* Blocked double-precision GEMM, C = alpha * A * B + beta * C (n x n, row-major), through __local tiles.
 * A work-group computes a TILE x TILE block of C with TILE x (TILE / WPT) work-items; each work-item
 * computes WPT elements of one column of the block, so a value loaded from the B tile is reused WPT times
 * from a register. n is a multiple of TILE. */
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#define TILE 16
#define WPT 4
#define RTS (TILE / WPT)

kernel void dgemm_blocked(int n, double alpha, global const double *A, global const double *B,
                          double beta, global double *C)
{
    local double a_tile[TILE][TILE];
    local double b_tile[TILE][TILE];
    int lx = get_local_id(0);
    int ly = get_local_id(1);
    int col = get_group_id(0) * TILE + lx;
    int row0 = get_group_id(1) * TILE + ly;
    double acc[WPT];
    for (int w = 0; w < WPT; w++)
        acc[w] = 0.0;

    for (int t = 0; t < n; t += TILE) {
        for (int w = 0; w < WPT; w++) {
            int r = ly + w * RTS;
            a_tile[r][lx] = A[(row0 + w * RTS) * n + t + lx];
            b_tile[r][lx] = B[(t + r) * n + col];
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        for (int k = 0; k < TILE; k++) {
            double b = b_tile[k][lx];
            for (int w = 0; w < WPT; w++)
                acc[w] += a_tile[ly + w * RTS][k] * b;
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    for (int w = 0; w < WPT; w++) {
        int i = (row0 + w * RTS) * n + col;
        C[i] = alpha * acc[w] + beta * C[i];
    }
}
