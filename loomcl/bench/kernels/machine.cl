/* Probes of the machine's limits: copyBuffer (seed 001 listing 15-1) for bandwidth, and fma_peak for
 * floating-point throughput: CHAINS independent fma chains per work-item, enough to cover the FMA
 * latency once the work-item loop is vectorized. 2 * CHAINS * iters flops per work-item. */
#define CHAINS 12

kernel void copyBuffer(global const float *in, global float *out)
{
    int i = get_global_id(0);
    out[i] = in[i];
}

kernel void fma_peak(global float *out, float mul, float add, int iters)
{
    float seed = (float)get_global_id(0) * 1.0e-7f;
    float acc[CHAINS];
    for (int c = 0; c < CHAINS; c++)
        acc[c] = seed + (float)c;
    for (int i = 0; i < iters; i++) {
        for (int c = 0; c < CHAINS; c++)
            acc[c] = fma(acc[c], mul, add);
    }
    float sum = 0.0f;
    for (int c = 0; c < CHAINS; c++)
        sum += acc[c];
    out[get_global_id(0)] = sum;
}
