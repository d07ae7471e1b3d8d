"""Realistic OpenCL C programs the lowering tests run end to end (lower + verify), by name."""

VECTOR_ADD = """
__kernel void vector_add(__global const float *a, __global const float *b, __global float *c, int n) {
    int i = get_global_id(0);
    if (i < n)
        c[i] = a[i] + b[i];
}
"""

SAXPY_2D = """
__kernel void saxpy2d(float alpha, __global const float *x, __global float *y, int width) {
    size_t col = get_global_id(0), row = get_global_id(1);
    size_t i = row * width + col;
    y[i] = alpha * x[i] + y[i];
}
"""

MATMUL_NAIVE = """
__kernel void matmul(__global const float *A, __global const float *B, __global float *C, int N) {
    int row = get_global_id(1), col = get_global_id(0);
    float acc = 0.0f;
    for (int k = 0; k < N; ++k)
        acc += A[row * N + k] * B[k * N + col];
    C[row * N + col] = acc;
}
"""

MATMUL_TILED = """
#define TILE 16
__kernel __attribute__((reqd_work_group_size(TILE, TILE, 1)))
void matmul_tiled(__global const float *A, __global const float *B, __global float *C, int N) {
    __local float As[TILE][TILE];
    __local float Bs[TILE][TILE];
    int tx = get_local_id(0), ty = get_local_id(1);
    int row = get_group_id(1) * TILE + ty, col = get_group_id(0) * TILE + tx;
    float acc = 0.0f;
    for (int t = 0; t < N / TILE; t++) {
        As[ty][tx] = A[row * N + t * TILE + tx];
        Bs[ty][tx] = B[(t * TILE + ty) * N + col];
        barrier(CLK_LOCAL_MEM_FENCE);
        for (int k = 0; k < TILE; k++)
            acc = mad(As[ty][k], Bs[k][tx], acc);
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    C[row * N + col] = acc;
}
"""

REDUCTION = """
__kernel void reduce(__global const float *in, __global float *out, __local float *scratch, uint n) {
    uint lid = get_local_id(0);
    size_t gid = get_global_id(0);
    scratch[lid] = gid < n ? in[gid] : 0.0f;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint s = get_local_size(0) / 2; s > 0; s >>= 1) {
        if (lid < s)
            scratch[lid] += scratch[lid + s];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (lid == 0)
        out[get_group_id(0)] = scratch[0];
}
"""

BLELLOCH_SCAN = """
__kernel void scan(__global int *data, __local int *temp, int n) {
    int thid = get_local_id(0);
    int offset = 1;
    temp[2 * thid] = data[2 * thid];
    temp[2 * thid + 1] = data[2 * thid + 1];
    for (int d = n >> 1; d > 0; d >>= 1) {
        barrier(CLK_LOCAL_MEM_FENCE);
        if (thid < d) {
            int ai = offset * (2 * thid + 1) - 1;
            int bi = offset * (2 * thid + 2) - 1;
            temp[bi] += temp[ai];
        }
        offset *= 2;
    }
    if (thid == 0) temp[n - 1] = 0;
    for (int d = 1; d < n; d *= 2) {
        offset >>= 1;
        barrier(CLK_LOCAL_MEM_FENCE);
        if (thid < d) {
            int ai = offset * (2 * thid + 1) - 1;
            int bi = offset * (2 * thid + 2) - 1;
            int t = temp[ai];
            temp[ai] = temp[bi];
            temp[bi] += t;
        }
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    data[2 * thid] = temp[2 * thid];
    data[2 * thid + 1] = temp[2 * thid + 1];
}
"""

HISTOGRAM = """
#define BINS 64
__kernel void histogram(__global const uchar *pixels, __global uint *bins, uint n) {
    __local uint local_bins[BINS];
    uint lid = get_local_id(0), lsize = get_local_size(0);
    for (uint b = lid; b < BINS; b += lsize)
        local_bins[b] = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (size_t i = get_global_id(0); i < n; i += get_global_size(0))
        atomic_inc(&local_bins[pixels[i] % BINS]);
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint b = lid; b < BINS; b += lsize)
        atomic_add(&bins[b], local_bins[b]);
}
"""

TRANSPOSE = """
#define T 16
__kernel void transpose(__global float *out, __global const float *in, int width, int height) {
    __local float tile[T][T + 1];
    int x = get_group_id(0) * T + get_local_id(0);
    int y = get_group_id(1) * T + get_local_id(1);
    if (x < width && y < height)
        tile[get_local_id(1)][get_local_id(0)] = in[y * width + x];
    barrier(CLK_LOCAL_MEM_FENCE);
    x = get_group_id(1) * T + get_local_id(0);
    y = get_group_id(0) * T + get_local_id(1);
    if (x < height && y < width)
        out[y * height + x] = tile[get_local_id(0)][get_local_id(1)];
}
"""

STENCIL_3D = """
__kernel void stencil3d(__global const float *in, __global float *out) {
    size_t x = get_global_id(0), y = get_global_id(1), z = get_global_id(2);
    size_t nx = get_global_size(0), ny = get_global_size(1), nz = get_global_size(2);
    size_t i = (z * ny + y) * nx + x;
    if (x == 0 || y == 0 || z == 0 || x == nx - 1 || y == ny - 1 || z == nz - 1) {
        out[i] = in[i];
        return;
    }
    out[i] = (in[i - 1] + in[i + 1] + in[i - nx] + in[i + nx] + in[i - nx * ny] + in[i + nx * ny]) / 6.0f
             + 0.0f * get_work_dim();
}
"""

HELPERS = """
inline float square(float x) { return x * x; }
float distance2(float ax, float ay, float bx, float by) { return square(ax - bx) + square(ay - by); }
int classify(int v) {
    switch (v & 3) {
    case 0: return -1;
    case 1:
    case 2: return 1;
    default: break;
    }
    return 0;
}
void store_pair(__global float *p, float a, float b) { p[0] = a; p[1] = b; }
__kernel void helpers(__global float *out, __global const int *in) {
    int i = get_global_id(0);
    float d = distance2(in[i], 0.0f, 3.0f, 4.0f);
    store_pair(out + 2 * i, d, (float)classify(in[i]));
}
"""

ALL = {name.lower(): source for name, source in globals().items() if name.isupper() and name != "ALL"}
