/* 256-bin histogram of bytes (the SDK Histogram benchmark of seed 000's Table 1). Each uint of the input
 * holds four bytes. A work-group counts into a __local histogram with 32-bit local atomics, walking the
 * input with a grid stride, then writes its 256 counts to its slice of partial; histogram_merge adds the
 * slices. */
#define BINS 256

kernel void histogram256(global const uint *data, global uint *partial, int words)
{
    local uint bins[BINS];
    int lid = get_local_id(0);
    int lsize = get_local_size(0);
    for (int b = lid; b < BINS; b += lsize)
        bins[b] = 0;
    barrier(CLK_LOCAL_MEM_FENCE);

    for (int i = get_global_id(0); i < words; i += get_global_size(0)) {
        uint w = data[i];
        atomic_inc(&bins[w & 0xFFu]);
        atomic_inc(&bins[(w >> 8) & 0xFFu]);
        atomic_inc(&bins[(w >> 16) & 0xFFu]);
        atomic_inc(&bins[w >> 24]);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int b = lid; b < BINS; b += lsize)
        partial[get_group_id(0) * BINS + b] = bins[b];
}

kernel void histogram_merge(global const uint *partial, global uint *histogram, int groups)
{
    int b = get_global_id(0);
    uint sum = 0;
    for (int g = 0; g < groups; g++)
        sum += partial[g * BINS + b];
    histogram[b] = sum;
}
