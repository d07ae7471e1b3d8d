/* Sparse matrix times dense vector, y = A * x, a row per work-item, in two formats (the Parboil and SHOC
 * spmv patterns).
 *   spmv_csr  compressed sparse rows: row r holds entries row_ptr[r] .. row_ptr[r+1]-1
 *   spmv_jds  jagged diagonal storage: rows sorted by decreasing length (perm maps a sorted row to its
 *             original index); the d-th entry of every row long enough is stored contiguously from
 *             jd_ptr[d], so neighbouring work-items read neighbouring entries.
 * The global size is rounded up to the local size; surplus work-items return at once. */

kernel void spmv_csr(int rows, global const int *row_ptr, global const int *cols, global const float *vals,
                     global const float *x, global float *y)
{
    int r = get_global_id(0);
    if (r >= rows)
        return;
    float acc = 0.0f;
    int end = row_ptr[r + 1];
    for (int k = row_ptr[r]; k < end; k++)
        acc += vals[k] * x[cols[k]];
    y[r] = acc;
}

kernel void spmv_jds(int rows, global const int *jd_ptr, global const int *row_len, global const int *perm,
                     global const int *cols, global const float *vals, global const float *x, global float *y)
{
    int r = get_global_id(0);
    if (r >= rows)
        return;
    float acc = 0.0f;
    int len = row_len[r];
    for (int d = 0; d < len; d++) {
        int k = jd_ptr[d] + r;
        acc += vals[k] * x[cols[k]];
    }
    y[perm[r]] = acc;
}
