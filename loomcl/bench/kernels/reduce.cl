/* Work-group reductions in __local memory with the barrier inside a loop.
 *   reduce_sum    SYCL-Bench style: a work-item loads one element, then a tree with sequential addressing
 *                 halves the active work-items each step; the group's sum goes to out[group]. The host
 *                 launches it again on the partial sums until one value is left.
 *   scalar_prod   the SDK scalarProd: many dot products of vector pairs; a work-group loops over pairs
 *                 (a loop around the barriers whose trip count is uniform in the group but differs between
 *                 groups), accumulates strided products and reduces them in __local memory.
 * Local sizes are powers of two. */

kernel void reduce_sum(global const float *in, global float *out, local float *scratch, int n)
{
    int lid = get_local_id(0);
    int gid = get_global_id(0);
    scratch[lid] = gid < n ? in[gid] : 0.0f;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int s = get_local_size(0) / 2; s > 0; s >>= 1) {
        if (lid < s)
            scratch[lid] += scratch[lid + s];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (lid == 0)
        out[get_group_id(0)] = scratch[0];
}

kernel void scalar_prod(global float *result, global const float *a, global const float *b,
                        local float *scratch, int pairs, int length)
{
    int lid = get_local_id(0);
    int lsize = get_local_size(0);
    for (int pair = get_group_id(0); pair < pairs; pair += get_num_groups(0)) {
        int base = pair * length;
        float sum = 0.0f;
        for (int i = lid; i < length; i += lsize)
            sum += a[base + i] * b[base + i];
        scratch[lid] = sum;
        for (int s = lsize / 2; s > 0; s >>= 1) {
            barrier(CLK_LOCAL_MEM_FENCE);
            if (lid < s)
                scratch[lid] += scratch[lid + s];
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        if (lid == 0)
            result[pair] = scratch[0];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
}
