/* SPDX-License-Identifier: MIT */
/* Patches of several photographs as signals (image_patches.h): each image
 * cut once, a seeded subset kept in global patch order. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "datasets/dataset.h"
#include "datasets/image_patches.h"
#include "datasets/patches.h"
#include "datasets/pgm.h"
#include "harness/error.h"
#include "impl/common/rng.h"

int rb_shipped_images(char paths[][4096], char *err, size_t errlen)
{
    static const char *const names[RB_SHIPPED_IMAGES] = { "ascent.pgm", "camera.pgm",
                                                          "astronaut.pgm", "coffee.pgm",
                                                          "chelsea.pgm" };
    for (int k = 0; k < RB_SHIPPED_IMAGES; k++) {
        int rc = rb_dataset_path(names[k], paths[k], 4096, err, errlen);
        if (rc)
            return rc;
    }
    return 0;
}

static int cmp_long(const void *a, const void *b)
{
    long x = *(const long *)a, y = *(const long *)b;
    return (x > y) - (x < y);
}

/* The `want` smallest-first indices of a seeded partial Fisher-Yates
 * shuffle of 0..total-1; sorted so that each image is cut once. */
static long *pick_subset(long total, long want, uint64_t seed, const char *tag)
{
    long *idx = malloc((size_t)total * sizeof *idx);
    if (!idx)
        return NULL;
    for (long k = 0; k < total; k++)
        idx[k] = k;
    struct rb_rng rng;
    rb_rng_seed(&rng, rb_seed_derive(seed, tag));
    for (long k = 0; k < want; k++) {
        long j = k + (long)(rb_rng_u64(&rng) % (uint64_t)(total - k));
        long t = idx[k];
        idx[k] = idx[j];
        idx[j] = t;
    }
    qsort(idx, (size_t)want, sizeof *idx, cmp_long);
    return idx;
}

/* Cut image img's patches (count of them, the first global index `first`)
 * into Y: all of them, or those of sel[*next..] below first + count. */
static int cut(const struct rb_pgm *img, int side, enum rb_patch_mode mode, long count,
               long first, const long *sel, long want, long *next, double *Y)
{
    double scale = 255.0 / img->maxval;
    size_t p = (size_t)side * side;
    if (!sel) {
        rb_patches_extract(img, side, mode, 1, scale, Y + (size_t)first * p);
        return 0;
    }
    if (*next >= want || sel[*next] >= first + count)
        return 0;                       /* nothing chosen here: skip the cut */
    double *all = malloc((size_t)count * p * sizeof *all);
    if (!all)
        return RB_ENOMEM;
    rb_patches_extract(img, side, mode, 1, scale, all);
    for (; *next < want && sel[*next] < first + count; ++*next)
        memcpy(Y + (size_t)*next * p, all + (size_t)(sel[*next] - first) * p,
               p * sizeof *Y);
    free(all);
    return 0;
}

int rb_image_patches(const char *const *paths, int nimg, int side, int distinct, long want,
                     uint64_t seed, const char *tag, double **Y, int *m, long *total,
                     char *err, size_t errlen)
{
    enum rb_patch_mode mode = distinct ? RB_PATCH_DISTINCT : RB_PATCH_SLIDING;
    struct rb_pgm *img = calloc((size_t)nimg, sizeof *img);
    long *count = calloc((size_t)nimg, sizeof *count), *sel = NULL, all = 0, next = 0;
    int rc = RB_ENOMEM, nread = 0;
    *Y = NULL;
    if (!img || !count) {
        snprintf(err, errlen, "out of memory");
        goto out_free_images;
    }
    for (; nread < nimg; nread++) {
        if ((rc = rb_pgm_read(paths[nread], &img[nread], err, errlen)) != 0)
            goto out_free_images;
        count[nread] = rb_patches_count(img[nread].width, img[nread].height, side, mode);
        if (count[nread] == 0) {
            snprintf(err, errlen, "%s: %d x %d is smaller than one %d x %d patch",
                     paths[nread], img[nread].width, img[nread].height, side, side);
            rc = RB_EINVAL;
            nread++;
            goto out_free_images;
        }
        all += count[nread];
    }
    *total = all;
    if (want > all || all > 0x7fffffffL) {
        snprintf(err, errlen, "%ld patches asked for: the images have %ld %s patches", want, all,
                 distinct ? "distinct" : "sliding");
        rc = RB_EINVAL;
        goto out_free_images;
    }
    if (want <= 0)
        want = all;
    rc = RB_ENOMEM;
    snprintf(err, errlen, "out of memory for %ld patches", want);
    if (want < all && !(sel = pick_subset(all, want, seed, tag)))
        goto out_free_images;
    if (!(*Y = malloc((size_t)want * side * side * sizeof **Y)))
        goto out_free_sel;
    long first = 0;
    for (int k = 0; k < nimg; k++) {
        if ((rc = cut(&img[k], side, mode, count[k], first, sel, want, &next, *Y)) != 0)
            goto out_free_sel;
        first += count[k];
    }
    *m = (int)want;
    err[0] = 0;
    rc = 0;
out_free_sel:
    free(sel);
    if (rc) {
        free(*Y);
        *Y = NULL;
    }
out_free_images:
    for (int k = 0; k < nread; k++)
        rb_pgm_free(&img[k]);
    free(count);
    free(img);
    return rc;
}
