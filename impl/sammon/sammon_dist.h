/* SPDX-License-Identifier: MIT */
/* The fp64 Euclidean distance the reference and its check share, inline:
 * their O(N^2 n) passes (input scale, stress, reference steps) spend nearly
 * all their time here. */
#ifndef SAMMON_DIST_H
#define SAMMON_DIST_H

#include <math.h>

#ifdef _OPENMP
#define SAMMON_PARALLEL_FOR _Pragma("omp parallel for schedule(dynamic, 16)")
#else
#define SAMMON_PARALLEL_FOR
#endif

/* |a - b| over k coordinates with four partial sums: one long chain of
 * dependent adds would take four times as long. */
static inline double sammon_dist(int k, const double *a, const double *b)
{
    double s0 = 0.0, s1 = 0.0, s2 = 0.0, s3 = 0.0;
    int q = 0;
    for (; q + 4 <= k; q += 4) {
        double t0 = a[q] - b[q], t1 = a[q + 1] - b[q + 1];
        double t2 = a[q + 2] - b[q + 2], t3 = a[q + 3] - b[q + 3];
        s0 += t0 * t0;
        s1 += t1 * t1;
        s2 += t2 * t2;
        s3 += t3 * t3;
    }
    for (; q < k; q++) {
        double t = a[q] - b[q];
        s0 += t * t;
    }
    return sqrt((s0 + s1) + (s2 + s3));
}

#endif
