/* SPDX-License-Identifier: MIT */
/* Patch extraction from PGM images (patches.h). */
#include "datasets/patches.h"
#include "harness/error.h"

long rb_patches_count(int width, int height, int b, enum rb_patch_mode mode)
{
    if (b < 1 || b > width || b > height)
        return 0;
    if (mode == RB_PATCH_DISTINCT)
        return (long)(width / b) * (height / b);
    return (long)(width - b + 1) * (height - b + 1);
}

long rb_patches_extract(const struct rb_pgm *img, int b, enum rb_patch_mode mode,
                        int remove_mean, double scale, double *Y)
{
    long n = rb_patches_count(img->width, img->height, b, mode);
    if (n == 0)
        return RB_EINVAL;
    int step = mode == RB_PATCH_DISTINCT ? b : 1;
    long k = 0;
    for (int top = 0; top + b <= img->height; top += step)
        for (int left = 0; left + b <= img->width; left += step, k++) {
            double *y = Y + (size_t)k * b * b, mean = 0.0;
            for (int r = 0; r < b; r++)
                for (int c = 0; c < b; c++) {
                    y[r * b + c] = img->pix[(size_t)(top + r) * img->width + left + c];
                    mean += y[r * b + c];
                }
            mean = remove_mean ? mean / (b * b) : 0.0;
            for (int q = 0; q < b * b; q++)
                y[q] = (y[q] - mean) * scale;
        }
    return k;
}
