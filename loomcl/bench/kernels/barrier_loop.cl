/* A barrier inside a loop whose trip count varies (the case of hipSYCL thesis listing 3.3, seed 004, made
 * legal for every OpenCL version): the trip count depends on the work-group, so all work-items of a group
 * reach the same barriers the same number of times, but different groups run different numbers of
 * iterations; the body branches on the local id between the barriers. After the last barrier each
 * work-item runs a loop whose trip count depends on its own local id. */

kernel void barrier_loop(global const float *in, global float *out, local float *tile)
{
    int lid = get_local_id(0);
    int lsize = get_local_size(0);
    int gid = get_global_id(0);
    tile[lid] = in[gid];
    barrier(CLK_LOCAL_MEM_FENCE);

    int trips = 2 + get_group_id(0) % 7;
    for (int i = 0; i < trips; i++) {
        float left = tile[(lid + lsize - 1) % lsize];
        float right = tile[(lid + 1) % lsize];
        barrier(CLK_LOCAL_MEM_FENCE);
        if (lid % 2 == 0)
            tile[lid] = 0.5f * tile[lid] + 0.25f * (left + right);
        else
            tile[lid] = fmax(tile[lid], 0.5f * (left + right));
        barrier(CLK_LOCAL_MEM_FENCE);
    }

    float acc = tile[lid];
    for (int j = 1; j <= lid % 5; j++)
        acc += tile[(lid + j) % lsize];
    out[gid] = acc;
}
