/* Mandelbrot escape counts, the main loop of seed 000 (Karrenberg & Hack, Fig. 11): the loop exit
 * depends on varying values (x2 + y2), while iter and max_iter are the induction-variable case of their
 * section 3 (the iteration counter can stay scalar). One pixel per work-item, row-major. */

kernel void mandelbrot(global int *image, float x_min, float y_min, float step, int width, uint max_iter)
{
    int tid = get_global_id(0);
    float x0 = x_min + step * (float)(tid % width);
    float y0 = y_min + step * (float)(tid / width);
    float x = x0;
    float y = y0;
    float x2 = x * x;
    float y2 = y * y;
    float scale_square = 4.0f;
    uint iter;
    for (iter = 0; (x2 + y2 <= scale_square) && (iter < max_iter); ++iter) {
        y = 2.0f * x * y + y0;
        x = x2 - y2 + x0;
        x2 = x * x;
        y2 = y * y;
    }
    image[tid] = 255 * iter / max_iter;
}
