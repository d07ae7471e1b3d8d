/* fma_peak with explicit float8 chains: 12 independent 8-wide fma chains per work-item, 192 * iters flops
 * per work-item. The machine's fma peak whatever the compiler does with work-item loops. */

#define CHAIN_STEP(a) a = fma(a, m, d)

kernel void fma_peak8(global float *out, float mul, float add, int iters)
{
    float8 s = (float8)((float)get_global_id(0) * 1.0e-7f) + (float8)(0.0f, 1.0f, 2.0f, 3.0f, 4.0f, 5.0f, 6.0f, 7.0f) * 1.0e-3f;
    float8 m = (float8)(mul);
    float8 d = (float8)(add);
    float8 a0 = s, a1 = s + 1.0f, a2 = s + 2.0f, a3 = s + 3.0f, a4 = s + 4.0f, a5 = s + 5.0f;
    float8 a6 = s + 6.0f, a7 = s + 7.0f, a8 = s + 8.0f, a9 = s + 9.0f, a10 = s + 10.0f, a11 = s + 11.0f;
    for (int i = 0; i < iters; i++) {
        CHAIN_STEP(a0); CHAIN_STEP(a1); CHAIN_STEP(a2); CHAIN_STEP(a3); CHAIN_STEP(a4); CHAIN_STEP(a5);
        CHAIN_STEP(a6); CHAIN_STEP(a7); CHAIN_STEP(a8); CHAIN_STEP(a9); CHAIN_STEP(a10); CHAIN_STEP(a11);
    }
    float8 t = a0 + a1 + a2 + a3 + a4 + a5 + a6 + a7 + a8 + a9 + a10 + a11;
    out[get_global_id(0)] = t.s0 + t.s1 + t.s2 + t.s3 + t.s4 + t.s5 + t.s6 + t.s7;
}
