/* The box-average family of seed 001 ("Improving Performance On the CPU", listings 15-2 to 15-7): the
 * average of the pixels in a (2*RANGE+1)^2 box around each pixel of a w x h float image, boxes clipped at
 * the border. The same result four ways, each a step of the chapter's CPU tuning:
 *   boxAvg1            one pixel per work-item, the whole 5x5 box (104 B/pixel of traffic)
 *   boxAvgH1 + V1      separable: a horizontal then a vertical 1D average, a pixel per work-item
 *   boxAvgH4 + V3      a row per work-item with a running sum (H4); a block of rows per work-item (V3)
 * The fused form, which needs float4, is in boxavg_fused.cl. */
#define RANGE 2

kernel void boxAvg1(int w, int h, global const float *in, global float *out)
{
    int x = get_global_id(0);
    int y = get_global_id(1);
    float sum = 0.0f;
    float count = 0.0f;
    for (int dy = -RANGE; dy <= RANGE; dy++) {
        for (int dx = -RANGE; dx <= RANGE; dx++) {
            int xx = x + dx;
            int yy = y + dy;
            if (xx >= 0 && xx < w && yy >= 0 && yy < h) {
                sum += in[yy * w + xx];
                count += 1.0f;
            }
        }
    }
    out[y * w + x] = sum / count;
}

kernel void boxAvgH1(int w, int h, global const float *in, global float *out)
{
    int x = get_global_id(0);
    int y = get_global_id(1);
    float sum = 0.0f;
    float count = 0.0f;
    for (int dx = -RANGE; dx <= RANGE; dx++) {
        int xx = x + dx;
        if (xx >= 0 && xx < w) {
            sum += in[y * w + xx];
            count += 1.0f;
        }
    }
    out[y * w + x] = sum / count;
}

kernel void boxAvgV1(int w, int h, global const float *in, global float *out)
{
    int x = get_global_id(0);
    int y = get_global_id(1);
    float sum = 0.0f;
    float count = 0.0f;
    for (int dy = -RANGE; dy <= RANGE; dy++) {
        int yy = y + dy;
        if (yy >= 0 && yy < h) {
            sum += in[yy * w + x];
            count += 1.0f;
        }
    }
    out[y * w + x] = sum / count;
}

/* One row per work-item (global size h). The window sum slides along the row: add the pixel entering,
 * subtract the one leaving. The loop is split at the borders, so the interior has neither tests nor a
 * division. Needs w > 2*RANGE. */
kernel void boxAvgH4(int w, int h, global const float *in, global float *out)
{
    int y = get_global_id(0);
    global const float *row = in + y * w;
    global float *dst = out + y * w;
    float sum = 0.0f;
    float count = 0.0f;
    int x = -RANGE;
    for (; x <= RANGE; x++) {               /* left border: the window grows */
        sum += row[x + RANGE];
        count += 1.0f;
        if (x >= 0)
            dst[x] = sum / count;
    }
    float weight = 1.0f / (float)(2 * RANGE + 1);
    for (; x + RANGE < w; x++) {            /* interior: the window slides */
        sum += row[x + RANGE] - row[x - RANGE - 1];
        dst[x] = sum * weight;
    }
    for (; x < w; x++) {                    /* right border: the window shrinks */
        sum -= row[x - RANGE - 1];
        count -= 1.0f;
        dst[x] = sum / count;
    }
}

/* A block of rows per work-item (global size: a few per core). Each output row is the weighted sum of
 * the input rows in its vertical window, accumulated a whole row at a time so the rows stay in cache. */
kernel void boxAvgV3(int w, int h, global const float *in, global float *out)
{
    int items = get_global_size(0);
    int rows_per_item = (h + items - 1) / items;
    int y0 = rows_per_item * get_global_id(0);
    int y1 = min(h, y0 + rows_per_item);
    for (int y = y0; y < y1; y++) {
        int first = max(0, y - RANGE);
        int last = min(h, y + RANGE + 1);
        float weight = 1.0f / (float)(last - first);
        global float *dst = out + y * w;
        for (int x = 0; x < w; x++)
            dst[x] = 0.0f;
        for (int ya = first; ya < last; ya++) {
            global const float *src = in + ya * w;
            for (int x = 0; x < w; x++)
                dst[x] += weight * src[x];
        }
    }
}
