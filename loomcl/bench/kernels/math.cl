/* Math builtin throughput: one call per work-item, float and double. Whether the loop vectorizer can
   widen the builtin inside the work-item loop decides these rows. */
#pragma OPENCL EXTENSION cl_khr_fp64 : enable

#define UNARY(F, T) \
    kernel void F##_##T(global const T *a, global const T *b, global T *out) \
    { size_t i = get_global_id(0); out[i] = F(a[i]); }
#define BINARY(F, T) \
    kernel void F##_##T(global const T *a, global const T *b, global T *out) \
    { size_t i = get_global_id(0); out[i] = F(a[i], b[i]); }
#define ALL(T) UNARY(sin, T) UNARY(cos, T) UNARY(exp, T) UNARY(log, T) UNARY(sqrt, T) BINARY(pow, T) \
    UNARY(erf, T) BINARY(atan2, T)

ALL(float)
ALL(double)
