/* SPDX-License-Identifier: MIT */
/* Signals cut from photographs: b x b patches of several PGM images, all of
 * them or a seeded random subset, mean-removed on the 0..255 pixel scale
 * (scikit-learn's dictionary-learning preprocessing; no spectral-norm
 * division), and the photographs shipped with the project. */
#ifndef RB_IMAGE_PATCHES_H
#define RB_IMAGE_PATCHES_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The shipped photographs: ascent, camera, astronaut, coffee, chelsea
 * (datasets/README.md). */
#define RB_SHIPPED_IMAGES 5

/* paths[k] gets the k-th shipped photograph's path (rb_dataset_path), for k
 * < RB_SHIPPED_IMAGES.  0, or RB_EIO with one line in err. */
int rb_shipped_images(char paths[][4096], char *err, size_t errlen);

/* The side x side patches of the images at paths[0..nimg-1]: every patch
 * (sliding, step 1, or distinct tiles), or a seeded random subset of `want`
 * of them (want <= 0: all; the subset's seed derived from seed and tag), in
 * image order, each mean-removed on the 0..255 scale (maxval other than 255
 * rescaled).  *Y (side^2 x *m, column-major, malloc'd), *m and *total (the
 * patches the images have) get them.  0; RB_EINVAL (bad image, too few
 * patches) or RB_EIO with one line in err; RB_ENOMEM. */
int rb_image_patches(const char *const *paths, int nimg, int side, int distinct, long want,
                     uint64_t seed, const char *tag, double **Y, int *m, long *total,
                     char *err, size_t errlen);

#ifdef __cplusplus
}
#endif

#endif
