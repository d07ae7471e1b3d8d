/* The fused box average of seed 001 (listing 15-10): each work-item owns a block of output rows; it runs
 * the horizontal pass (the sliding-window row of boxAvgH4) on every input row that touches its block into
 * a private row of aux, and accumulates that row into the (up to 2*RANGE+1) output rows it contributes
 * to, float4 at a time. Input row y is read once and its output rows stay in L2. w must be a multiple
 * of 4; aux holds w floats per work-item. */
#define RANGE 2

static void horizontal_row(int w, global const float *row, global float *dst)
{
    float sum = 0.0f;
    float count = 0.0f;
    int x = -RANGE;
    for (; x <= RANGE; x++) {
        sum += row[x + RANGE];
        count += 1.0f;
        if (x >= 0)
            dst[x] = sum / count;
    }
    float weight = 1.0f / (float)(2 * RANGE + 1);
    for (; x + RANGE < w; x++) {
        sum += row[x + RANGE] - row[x - RANGE - 1];
        dst[x] = sum * weight;
    }
    for (; x < w; x++) {
        sum -= row[x - RANGE - 1];
        count -= 1.0f;
        dst[x] = sum / count;
    }
}

kernel void boxAvg2(int w, int h, global const float *in, global float *out, global float *aux)
{
    int items = get_global_size(0);
    int rows_per_item = (h + items - 1) / items;
    int y0 = rows_per_item * get_global_id(0);
    int y1 = min(h, y0 + rows_per_item);
    global float *hrow = aux + get_global_id(0) * w;
    global float4 *hrow4 = (global float4 *)hrow;
    int w4 = w / 4;

    for (int y = y0 - RANGE; y < y1 + RANGE; y++) {
        int entering = y + RANGE;           /* first output row that input row y contributes to */
        if (entering >= y0 && entering < y1) {
            global float4 *dst4 = (global float4 *)(out + entering * w);
            for (int x = 0; x < w4; x++)
                dst4[x] = (float4)(0.0f);
        }
        if (y < 0 || y >= h)
            continue;
        horizontal_row(w, in + y * w, hrow);
        for (int dy = -RANGE; dy <= RANGE; dy++) {
            int yy = y + dy;
            if (yy < y0 || yy >= y1)
                continue;
            int rows = min(h - 1, yy + RANGE) - max(0, yy - RANGE) + 1;
            float weight = 1.0f / (float)rows;
            global float4 *dst4 = (global float4 *)(out + yy * w);
            for (int x = 0; x < w4; x++)
                dst4[x] += weight * hrow4[x];
        }
    }
}
