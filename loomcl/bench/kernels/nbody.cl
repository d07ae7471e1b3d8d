/* One all-pairs N-body time step (the SDK NBody benchmark of seed 000's Table 1). Bodies are float4:
 * xyz position, w mass. Each work-group stages a tile of bodies in __local memory, so every position is
 * read from global memory once per work-group. Softened gravity: a_i = sum_j m_j d_ij / (|d_ij|^2+eps2)^1.5.
 * n is a multiple of the local size. */

kernel void nbody_step(global const float4 *pos, global const float4 *vel, global float4 *new_pos,
                       global float4 *new_vel, local float4 *tile, int n, float dt, float eps2)
{
    int gid = get_global_id(0);
    int lid = get_local_id(0);
    int lsize = get_local_size(0);
    float4 p = pos[gid];
    float4 acc = (float4)(0.0f);

    for (int base = 0; base < n; base += lsize) {
        tile[lid] = pos[base + lid];
        barrier(CLK_LOCAL_MEM_FENCE);
        for (int j = 0; j < lsize; j++) {
            float4 q = tile[j];
            float4 d = (float4)(q.xyz - p.xyz, 0.0f);
            float inv_r = rsqrt(dot(d, d) + eps2);
            acc += (q.w * inv_r * inv_r * inv_r) * d;
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    float4 v = vel[gid];
    float4 moved = p + v * dt + 0.5f * dt * dt * acc;
    moved.w = p.w;
    new_pos[gid] = moved;
    new_vel[gid] = v + dt * acc;
}
