/* One pass of a bitonic sorting network over n = 2^k uint keys (the SDK BitonicSort benchmark of seed
 * 000's Table 1). The host launches every (stage, pass) pair in order, stage = 0..k-1, pass = 0..stage,
 * with n/2 work-items; each work-item compare-exchanges one pair of keys. Blocks of 2^(stage+1) keys
 * alternate direction, so the whole array ends sorted in the `ascending` direction. */

kernel void bitonic_pass(global uint *keys, uint stage, uint pass, uint ascending)
{
    uint tid = get_global_id(0);
    uint distance = 1u << (stage - pass);
    uint left = (tid % distance) + (tid / distance) * 2u * distance;
    uint right = left + distance;
    uint up = ascending;
    if ((tid >> stage) & 1u)
        up = 1u - up;
    uint a = keys[left];
    uint b = keys[right];
    uint low = a < b ? a : b;
    uint high = a < b ? b : a;
    keys[left] = up ? low : high;
    keys[right] = up ? high : low;
}
