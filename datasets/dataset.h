/* SPDX-License-Identifier: MIT */
/* The small real data sets shipped with reprobench (datasets/README.md) and
 * labelled CSV files, loaded by name. */
#ifndef RB_DATASET_H
#define RB_DATASET_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

struct rb_dataset {
    char name[64];          /* "iris", "digits", or the file's base name */
    char path[4096];        /* the file read */
    int N, n;               /* points, dimensions */
    double *x;              /* N x n, row-major */
    int *label;             /* N class labels */
};

/* The path of the shipped file `file` ("iris.csv"): in $RB_DATA_DIR when
 * that is set (and nowhere else), else the first of the installed
 * pkgdatadir and the source tree's datasets/ that has it.  0, or RB_EIO
 * with a message naming where it looked. */
int rb_dataset_path(const char *file, char *out, size_t len, char *err, size_t errlen);

/* Load "iris" (datasets/iris.csv, 150 x 4, one header line), "digits"
 * (datasets/digits.csv, 1797 x 64) or a path to a CSV of numeric rows whose
 * last column is an integer label (a first line that is not all numbers is
 * a header).  0, or RB_EIO / RB_EINVAL / RB_ENOMEM with one line in err.
 * Free with rb_dataset_free. */
int rb_dataset_load(const char *name, struct rb_dataset *d, char *err, size_t errlen);
void rb_dataset_free(struct rb_dataset *d);

#ifdef __cplusplus
}
#endif

#endif
