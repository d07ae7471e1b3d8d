"""Python twin of nbody.cl: all-pairs gravity on float4 bodies, tiles of them in __local memory."""
import numpy as np

import loomcl as cl

f32 = np.float32
vectors = cl.global_ptr(cl.float4)


@cl.kernel
def nbody_step(pos: cl.global_ptr(cl.float4, const=True), vel: cl.global_ptr(cl.float4, const=True),
               new_pos: vectors, new_vel: vectors, tile: cl.local_ptr(cl.float4), n: np.int32, dt: f32, eps2: f32):
    gid = cl.global_id(0)
    lid = cl.local_id(0)
    lsize = cl.local_size(0)
    p = pos[gid]
    acc = cl.float4(0.0)
    for base in range(0, n, lsize):
        tile[lid] = pos[base + lid]
        cl.barrier(cl.LOCAL_MEM_FENCE)
        for j in range(lsize):
            q = tile[j]
            d = cl.float4(q.xyz - p.xyz, 0.0)
            inv_r = cl.rsqrt(cl.dot(d, d) + eps2)
            acc += (q.w * inv_r * inv_r * inv_r) * d
        cl.barrier(cl.LOCAL_MEM_FENCE)
    v = vel[gid]
    moved = p + v * dt + 0.5 * dt * dt * acc
    moved.w = p.w
    new_pos[gid] = moved
    new_vel[gid] = v + dt * acc
