/* Math builtin throughput: one call per work-item, float and double. Whether the loop vectorizer can
   widen the builtin inside the work-item loop decides these rows. */
#pragma OPENCL EXTENSION cl_khr_fp64 : enable

kernel void sin_float(global const float *a, global const float *b, global float *out)
{ size_t i = get_global_id(0); out[i] = sin(a[i]); }
kernel void cos_float(global const float *a, global const float *b, global float *out)
{ size_t i = get_global_id(0); out[i] = cos(a[i]); }
kernel void exp_float(global const float *a, global const float *b, global float *out)
{ size_t i = get_global_id(0); out[i] = exp(a[i]); }
kernel void log_float(global const float *a, global const float *b, global float *out)
{ size_t i = get_global_id(0); out[i] = log(a[i]); }
kernel void sqrt_float(global const float *a, global const float *b, global float *out)
{ size_t i = get_global_id(0); out[i] = sqrt(a[i]); }
kernel void pow_float(global const float *a, global const float *b, global float *out)
{ size_t i = get_global_id(0); out[i] = pow(a[i], b[i]); }
kernel void erf_float(global const float *a, global const float *b, global float *out)
{ size_t i = get_global_id(0); out[i] = erf(a[i]); }
kernel void atan2_float(global const float *a, global const float *b, global float *out)
{ size_t i = get_global_id(0); out[i] = atan2(a[i], b[i]); }

kernel void sin_double(global const double *a, global const double *b, global double *out)
{ size_t i = get_global_id(0); out[i] = sin(a[i]); }
kernel void cos_double(global const double *a, global const double *b, global double *out)
{ size_t i = get_global_id(0); out[i] = cos(a[i]); }
kernel void exp_double(global const double *a, global const double *b, global double *out)
{ size_t i = get_global_id(0); out[i] = exp(a[i]); }
kernel void log_double(global const double *a, global const double *b, global double *out)
{ size_t i = get_global_id(0); out[i] = log(a[i]); }
kernel void sqrt_double(global const double *a, global const double *b, global double *out)
{ size_t i = get_global_id(0); out[i] = sqrt(a[i]); }
kernel void pow_double(global const double *a, global const double *b, global double *out)
{ size_t i = get_global_id(0); out[i] = pow(a[i], b[i]); }
kernel void erf_double(global const double *a, global const double *b, global double *out)
{ size_t i = get_global_id(0); out[i] = erf(a[i]); }
kernel void atan2_double(global const double *a, global const double *b, global double *out)
{ size_t i = get_global_id(0); out[i] = atan2(a[i], b[i]); }
