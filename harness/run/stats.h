/* SPDX-License-Identifier: MIT */
/* Summary statistics of timing samples. */
#ifndef RB_STATS_H
#define RB_STATS_H

#include <stddef.h>

struct rb_stats {
    size_t n;
    double min, max, median, mean, stddev, p10, p90;
};

/* Summarise n samples (n >= 1; the array is not modified).  Percentiles
 * interpolate linearly between order statistics (p at rank p*(n-1)); stddev is
 * the sample standard deviation (n-1), 0 for one sample.  Returns 0, or
 * RB_EINVAL for n == 0 and RB_ENOMEM. */
int rb_stats_compute(const double *x, size_t n, struct rb_stats *out);

/* The q-quantile, 0 <= q <= 1, of n sorted values. */
double rb_stats_quantile_sorted(const double *sorted, size_t n, double q);

#endif
