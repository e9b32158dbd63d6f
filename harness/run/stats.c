/* SPDX-License-Identifier: MIT */
/* Summary statistics of timing samples. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "harness/error.h"
#include "harness/run/stats.h"

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

double rb_stats_quantile_sorted(const double *s, size_t n, double q)
{
    if (n == 1)
        return s[0];
    double r = q * (double)(n - 1);
    size_t lo = (size_t)floor(r);
    if (lo >= n - 1)
        return s[n - 1];
    double f = r - (double)lo;
    return s[lo] + f * (s[lo + 1] - s[lo]);
}

int rb_stats_compute(const double *x, size_t n, struct rb_stats *out)
{
    memset(out, 0, sizeof *out);
    if (n == 0)
        return RB_EINVAL;
    double *s = malloc(n * sizeof *s);
    if (!s)
        return RB_ENOMEM;
    memcpy(s, x, n * sizeof *s);
    qsort(s, n, sizeof *s, cmp_double);

    double sum = 0;
    for (size_t i = 0; i < n; i++)
        sum += s[i];
    double mean = sum / (double)n;
    double ss = 0;                      /* two-pass: no cancellation */
    for (size_t i = 0; i < n; i++)
        ss += (s[i] - mean) * (s[i] - mean);

    out->n = n;
    out->min = s[0];
    out->max = s[n - 1];
    out->mean = mean;
    out->stddev = n > 1 ? sqrt(ss / (double)(n - 1)) : 0.0;
    out->median = rb_stats_quantile_sorted(s, n, 0.5);
    out->p10 = rb_stats_quantile_sorted(s, n, 0.1);
    out->p90 = rb_stats_quantile_sorted(s, n, 0.9);
    free(s);
    return 0;
}
