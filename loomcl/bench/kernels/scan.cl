/* Work-group exclusive prefix sum, Blelloch's work-efficient algorithm (up-sweep builds partial sums in a
 * balanced tree, down-sweep distributes them). A work-group of L work-items scans 2L consecutive
 * elements in __local memory and also writes its block's total to block_sums (the input of the next
 * level of a full scan). Two loops with a barrier in each, their trip counts uniform. */

kernel void scan_blelloch(global const float *in, global float *out, global float *block_sums,
                          local float *tmp)
{
    int lid = get_local_id(0);
    int n = 2 * get_local_size(0);
    int base = get_group_id(0) * n;
    tmp[2 * lid] = in[base + 2 * lid];
    tmp[2 * lid + 1] = in[base + 2 * lid + 1];

    int offset = 1;
    for (int active = n / 2; active > 0; active /= 2) {
        barrier(CLK_LOCAL_MEM_FENCE);
        if (lid < active) {
            int left = offset * (2 * lid + 1) - 1;
            int right = offset * (2 * lid + 2) - 1;
            tmp[right] += tmp[left];
        }
        offset *= 2;
    }
    if (lid == 0) {
        block_sums[get_group_id(0)] = tmp[n - 1];
        tmp[n - 1] = 0.0f;
    }
    for (int active = 1; active < n; active *= 2) {
        offset /= 2;
        barrier(CLK_LOCAL_MEM_FENCE);
        if (lid < active) {
            int left = offset * (2 * lid + 1) - 1;
            int right = offset * (2 * lid + 2) - 1;
            float t = tmp[left];
            tmp[left] = tmp[right];
            tmp[right] += t;
        }
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    out[base + 2 * lid] = tmp[2 * lid];
    out[base + 2 * lid + 1] = tmp[2 * lid + 1];
}
