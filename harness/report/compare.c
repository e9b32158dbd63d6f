/* SPDX-License-Identifier: MIT */
/* The ratio of two runs' timings with a bootstrap interval, and the verdict
 * drawn from it.  Both sample sets are resampled with replacement; the
 * interval is the percentile interval of the resampled ratios (Efron and
 * Tibshirani, An Introduction to the Bootstrap, ch. 13). */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "harness/report/compare.h"
#include "harness/error.h"
#include "harness/run/stats.h"
#include "impl/common/rng.h"

void rb_ratio_opts_default(struct rb_ratio_opts *o)
{
    o->metric = RB_METRIC_MEDIAN;
    o->noise = 0.02;
    o->noise_auto = 1;
    o->level = 0.95;
    o->resamples = RB_COMPARE_RESAMPLES;
    o->seed = RB_COMPARE_SEED;
}

/* A uniform index below n.  The high half of 32 random bits times n: a
 * bias of n / 2^32 at most, nothing beside the resampling's own spread, and
 * cheaper than a division. */
static size_t draw(struct rb_rng *rng, size_t n)
{
    if (n > UINT32_MAX) {
        size_t j = (size_t)(rb_rng_uniform(rng) * (double)n);
        return j < n ? j : n - 1;
    }
    return (size_t)(((rb_rng_u64(rng) >> 32) * n) >> 32);
}

/* The statistic of n draws with replacement from sorted[0..n).  Only the
 * ranks matter, so a resample is the count of each index drawn: a median is
 * then a scan of the counts, with no sorting or selection per resample. */
static double resampled(const double *sorted, size_t n, unsigned *counts,
                        enum rb_compare_metric metric, struct rb_rng *rng)
{
    size_t k_lo = (n - 1) / 2, k_hi = n / 2, cum = 0, i;
    double lo = 0;

    if (metric == RB_METRIC_MIN) {
        size_t first = n - 1;
        for (i = 0; i < n; i++) {
            size_t j = draw(rng, n);
            first = j < first ? j : first;
        }
        return sorted[first];
    }
    memset(counts, 0, n * sizeof *counts);
    for (i = 0; i < n; i++)
        counts[draw(rng, n)]++;
    for (i = 0; i < n; i++) {
        if (cum <= k_lo && cum + counts[i] > k_lo)
            lo = sorted[i];
        cum += counts[i];
        if (cum > k_hi)
            break;
    }
    /* As rb_stats_quantile_sorted: the mean of the middle two for even n. */
    return lo + 0.5 * (sorted[i < n ? i : n - 1] - lo);
}

static int cmp_double(const void *p, const void *q)
{
    double x = *(const double *)p, y = *(const double *)q;
    return (x > y) - (x < y);
}

static double *sorted_copy(const double *x, size_t n)
{
    double *s = malloc(n * sizeof *s);

    if (s) {
        memcpy(s, x, n * sizeof *s);
        qsort(s, n, sizeof *s, cmp_double);
    }
    return s;
}

static double statistic(const double *sorted, size_t n, enum rb_compare_metric metric)
{
    return metric == RB_METRIC_MIN ? sorted[0] : rb_stats_quantile_sorted(sorted, n, 0.5);
}

/* A time must be a positive number; NaN and zero come from broken timers. */
static int usable(double s)
{
    return isfinite(s) && s > 0;
}

int rb_ratio_bootstrap(const double *a, size_t na, const double *b, size_t nb,
                       const struct rb_ratio_opts *o, struct rb_ratio *out)
{
    size_t nres = o->resamples > 0 ? (size_t)o->resamples : 1;
    double *sa = NULL, *sb = NULL, *ratios = NULL;
    unsigned *counts = NULL;
    struct rb_rng rng;
    int status = RB_ENOMEM;

    memset(out, 0, sizeof *out);
    if (na == 0 || nb == 0)
        return RB_EINVAL;
    if (!(sa = sorted_copy(a, na)) || !(sb = sorted_copy(b, nb))
        || !(counts = malloc((na > nb ? na : nb) * sizeof *counts))
        || !(ratios = malloc(nres * sizeof *ratios)))
        goto out_free;
    out->a = statistic(sa, na, o->metric);
    out->b = statistic(sb, nb, o->metric);
    status = RB_EINVAL;
    if (!usable(out->a) || !usable(out->b))
        goto out_free;
    out->ratio = out->b / out->a;

    rb_rng_seed(&rng, o->seed);
    for (size_t r = 0; r < nres; r++) {
        double ra = resampled(sa, na, counts, o->metric, &rng);
        double rb = resampled(sb, nb, counts, o->metric, &rng);
        /* A resample whose statistic is not a time is no evidence either way. */
        ratios[r] = usable(ra) && usable(rb) ? rb / ra : out->ratio;
    }
    qsort(ratios, nres, sizeof *ratios, cmp_double);
    out->lo = rb_stats_quantile_sorted(ratios, nres, (1 - o->level) / 2);
    out->hi = rb_stats_quantile_sorted(ratios, nres, (1 + o->level) / 2);
    out->verdict = rb_verdict_of(out->ratio, out->lo, out->hi, o->noise);
    status = 0;
out_free:
    free(ratios);
    free(counts);
    free(sb);
    free(sa);
    return status;
}

enum rb_verdict rb_verdict_of(double ratio, double lo, double hi, double noise)
{
    if (!usable(ratio) || !usable(lo) || !usable(hi))
        return RB_VERDICT_NONFINITE;
    if (lo > 1 && ratio > 1 + noise)
        return RB_VERDICT_SLOWER;
    if (hi < 1 && ratio < 1 / (1 + noise))
        return RB_VERDICT_FASTER;
    return RB_VERDICT_SAME;
}

const char *rb_verdict_name(enum rb_verdict v)
{
    static const char *const names[] = {
        [RB_VERDICT_SAME] = "same",
        [RB_VERDICT_FASTER] = "faster",
        [RB_VERDICT_SLOWER] = "slower",
        [RB_VERDICT_NONFINITE] = "non-finite",
    };
    return v >= 0 && (size_t)v < sizeof names / sizeof *names ? names[v] : "?";
}

double rb_compare_spread(double *x, size_t n, double *shift)
{
    double med;

    *shift = NAN;
    if (n == 0)
        return NAN;
    qsort(x, n, sizeof *x, cmp_double);
    med = rb_stats_quantile_sorted(x, n, 0.5);
    *shift = exp(med);
    if (n < RB_COMPARE_SPREAD_MIN)
        return NAN;
    for (size_t i = 0; i < n; i++)
        x[i] = fabs(x[i] - med);
    qsort(x, n, sizeof *x, cmp_double);
    /* 1.4826 MAD estimates a normal standard deviation, robust to the few
     * cases a real change moves. */
    return expm1(RB_COMPARE_SPREAD_Z * 1.4826 * rb_stats_quantile_sorted(x, n, 0.5));
}

int rb_comparison_noise(struct rb_comparison *cmp)
{
    double *x = malloc((cmp->n + 1) * sizeof *x);
    size_t n = 0;

    if (!x)
        return RB_ENOMEM;
    /* A non-finite ratio says nothing of the spread, and keeps its verdict. */
    for (size_t i = 0; i < cmp->n; i++)
        if (cmp->rows[i].compared && cmp->rows[i].r.verdict != RB_VERDICT_NONFINITE)
            x[n++] = log(cmp->rows[i].r.ratio);
    cmp->spread = rb_compare_spread(x, n, &cmp->shift);
    free(x);
    cmp->noise = cmp->opts.noise;
    cmp->centred = cmp->opts.noise_auto && !isnan(cmp->spread);
    if (cmp->centred && cmp->spread > cmp->noise)
        cmp->noise = cmp->spread;
    for (size_t i = 0; i < cmp->n; i++) {
        struct rb_ratio *r = &cmp->rows[i].r;
        double c = cmp->centred ? cmp->shift : 1;
        if (cmp->rows[i].compared && r->verdict != RB_VERDICT_NONFINITE)
            r->verdict = rb_verdict_of(r->ratio / c, r->lo / c, r->hi / c, cmp->noise);
    }
    return 0;
}
