/* Probes of the machine's limits: copyBuffer (seed 001 listing 15-1) for bandwidth, and fma_peak for
 * floating-point throughput: 12 independent fma chains per work-item, enough to cover the FMA latency
 * once the work-item loop is vectorized; 24 * iters flops per work-item. Scalar, so that it measures
 * what the work-group compiler's own vectorization reaches; fma_peak8 in machine_vec.cl is the same with
 * explicit float8 chains. */

kernel void copyBuffer(global const float *in, global float *out)
{
    int i = get_global_id(0);
    out[i] = in[i];
}

/* Bandwidth without the hidden read of a copy: a copy's store first reads the destination line
 * (write-allocate), so its 8 counted bytes move 12; an in-place update moves exactly what it counts. */
kernel void scaleInPlace(global float *data, float mul)
{
    int i = get_global_id(0);
    data[i] = data[i] * mul;
}

#define CHAIN_STEP(a) a = fma(a, mul, add)

kernel void fma_peak(global float *out, float mul, float add, int iters)
{
    float s = (float)get_global_id(0) * 1.0e-7f;
    float a0 = s, a1 = s + 1.0f, a2 = s + 2.0f, a3 = s + 3.0f, a4 = s + 4.0f, a5 = s + 5.0f;
    float a6 = s + 6.0f, a7 = s + 7.0f, a8 = s + 8.0f, a9 = s + 9.0f, a10 = s + 10.0f, a11 = s + 11.0f;
    for (int i = 0; i < iters; i++) {
        CHAIN_STEP(a0); CHAIN_STEP(a1); CHAIN_STEP(a2); CHAIN_STEP(a3); CHAIN_STEP(a4); CHAIN_STEP(a5);
        CHAIN_STEP(a6); CHAIN_STEP(a7); CHAIN_STEP(a8); CHAIN_STEP(a9); CHAIN_STEP(a10); CHAIN_STEP(a11);
    }
    out[get_global_id(0)] = a0 + a1 + a2 + a3 + a4 + a5 + a6 + a7 + a8 + a9 + a10 + a11;
}

/* Launch-cost probes: `empty` on one work-item, `touch` on 64 work-groups of 64. */
kernel void empty(global int *unused)
{
}

kernel void touch(global int *out)
{
    out[get_global_id(0)] = (int)get_group_id(0);
}
