/* SPDX-License-Identifier: MIT */
/* b x b patches of a PGM image as signal columns (p = b^2): every position
 * (sliding, step 1) or non-overlapping tiles (distinct), each patch
 * vectorised row by row, optionally its mean removed, then scaled.  Patch
 * order: by top row, then by left column.  (Irofti's mkimgsigs also divides
 * by the spectral norm and picks a random subset; callers do that.) */
#ifndef RB_PATCHES_H
#define RB_PATCHES_H

#include "datasets/pgm.h"

#ifdef __cplusplus
extern "C" {
#endif

enum rb_patch_mode {
    RB_PATCH_SLIDING,       /* (w - b + 1) (h - b + 1) patches */
    RB_PATCH_DISTINCT       /* floor(w / b) floor(h / b) patches */
};

/* The number of patches of side b of a w x h image; 0 when none fits. */
long rb_patches_count(int width, int height, int b, enum rb_patch_mode mode);
/* Y (b^2 x count, column-major) gets the patches: each value
 * (pixel - patch mean) * scale, or pixel * scale when remove_mean is 0.
 * The count, or RB_EINVAL when b < 1 or no patch fits. */
long rb_patches_extract(const struct rb_pgm *img, int b, enum rb_patch_mode mode,
                        int remove_mean, double scale, double *Y);

#ifdef __cplusplus
}
#endif

#endif
