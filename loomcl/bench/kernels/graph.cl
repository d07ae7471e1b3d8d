/* Two multi-pass kernels of seed 000's Table 1 (SDK FloydWarshall and FastWalshTransform); the host
 * launches one pass after another.
 *   floyd_warshall_pass  relax every pair (y, x) through node k: pass k of all-pairs shortest paths on an
 *                        n x n distance matrix, recording the intermediate node in path
 *   fwt_pass             one butterfly stage of the fast Walsh-Hadamard transform, in place; stage
 *                        `step` = 1, 2, 4, ..., n/2, with n/2 work-items */

kernel void floyd_warshall_pass(global uint *dist, global uint *path, int n, int k)
{
    int x = get_global_id(0);
    int y = get_global_id(1);
    uint through_k = dist[y * n + k] + dist[k * n + x];
    if (through_k < dist[y * n + x]) {
        dist[y * n + x] = through_k;
        path[y * n + x] = k;
    }
}

kernel void fwt_pass(global float *t, int step)
{
    int tid = get_global_id(0);
    int pair = 2 * step * (tid / step) + tid % step;
    int match = pair + step;
    float a = t[pair];
    float b = t[match];
    t[pair] = a + b;
    t[match] = a - b;
}
