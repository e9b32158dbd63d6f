/* SPDX-License-Identifier: MIT */
/* Comparing two runs case by case: the ratio B/A of a statistic of the raw
 * samples, its bootstrap confidence interval and a verdict. */
#ifndef RB_COMPARE_H
#define RB_COMPARE_H

#include <stddef.h>
#include <stdint.h>

#define RB_COMPARE_RESAMPLES 2000
#define RB_COMPARE_SEED 0x6a09e667f3bcc908ULL  /* fixed: the same records give the same CI */

enum rb_compare_metric { RB_METRIC_MEDIAN, RB_METRIC_MIN };
enum rb_verdict { RB_VERDICT_SAME, RB_VERDICT_FASTER, RB_VERDICT_SLOWER };

struct rb_ratio_opts {
    enum rb_compare_metric metric;
    double noise;               /* noise floor: B/A within [1/(1+noise), 1+noise] is
                                   "same" whatever the interval; default 0.02 */
    double level;               /* confidence level, default 0.95 */
    int resamples;              /* default RB_COMPARE_RESAMPLES */
    uint64_t seed;              /* default RB_COMPARE_SEED */
};

struct rb_ratio {
    double a, b;                /* the statistic of each sample set, ms */
    double ratio;               /* b / a */
    double lo, hi;              /* percentile-bootstrap interval of the ratio */
    enum rb_verdict verdict;
};

void rb_ratio_opts_default(struct rb_ratio_opts *o);

/* B/A of the statistic of samples b over that of samples a, with a
 * percentile bootstrap interval (both sets resampled with replacement,
 * o->resamples times, from o->seed).  Returns 0, RB_EINVAL when a set is
 * empty or a statistic is not a positive number, RB_ENOMEM. */
int rb_ratio_bootstrap(const double *a, size_t na, const double *b, size_t nb,
                       const struct rb_ratio_opts *o, struct rb_ratio *out);

/* "slower" when the interval lies above 1 and the ratio above 1 + noise,
 * "faster" when it lies below 1 and the ratio below 1 / (1 + noise), else
 * "same". */
enum rb_verdict rb_verdict_of(double ratio, double lo, double hi, double noise);
const char *rb_verdict_name(enum rb_verdict v);

#endif
