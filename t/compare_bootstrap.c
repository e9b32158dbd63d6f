/* SPDX-License-Identifier: MIT */
/* The bootstrap ratio and its verdict on synthetic timings: equal
 * distributions are "same", a 2x shift is "slower" (and its inverse
 * "faster") with an interval excluding 1, the noise floor holds back small
 * but certain changes, the statistics match rb_stats_compute, the interval
 * covers the truth about as often as it claims, and a fixed seed repeats;
 * the between-run spread of many cases raises the floor above scattered
 * cases but not above a few that really moved. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "harness/report/compare.h"
#include "harness/error.h"
#include "harness/run/stats.h"
#include "impl/common/rng.h"
#include "t/tap.h"

/* Timings around `ms`: 5% log-normal spread, and one sample in twenty an
 * outlier up to 50% slower, as preemption gives. */
static void timings(struct rb_rng *r, double *x, size_t n, double ms)
{
    for (size_t i = 0; i < n; i++) {
        x[i] = ms * exp(0.05 * rb_rng_normal(r));
        if (rb_rng_uniform(r) < 0.05)
            x[i] *= 1 + 0.5 * rb_rng_uniform(r);
    }
}

static void check_statistics(struct rb_rng *rng)
{
    struct rb_ratio_opts o;
    struct rb_ratio r;
    double a[4] = { 4, 1, 3, 2 }, b[5] = { 100, 2, 6, 4, 8 }, x[64], y[1] = { 1 };
    int exact = 1;

    rb_ratio_opts_default(&o);
    o.resamples = 50;
    tap_ok(rb_ratio_bootstrap(a, 4, b, 5, &o, &r) == 0 && r.a == 2.5 && r.b == 6
           && r.ratio == 2.4, "medians of 4 and 5 samples: 2.5 and 6, ratio 2.4");
    tap_ok(a[0] == 4 && b[0] == 100, "the samples are left as they were");
    o.metric = RB_METRIC_MIN;
    tap_ok(rb_ratio_bootstrap(a, 4, b, 5, &o, &r) == 0 && r.a == 1 && r.b == 2
           && r.lo <= 2 && r.hi >= 2 && r.lo >= 0.5 && r.hi <= 100,
           "--metric min: minima 1 and 2, interval within what resamples can give");
    o.metric = RB_METRIC_MEDIAN;
    /* Random lengths with ties: the same median as the records hold. */
    for (int t = 0; t < 200; t++) {
        size_t n = 1 + rb_rng_u64(rng) % 64;
        struct rb_stats s;
        for (size_t i = 0; i < n; i++)
            x[i] = (double)(1 + rb_rng_u64(rng) % 8);
        rb_stats_compute(x, n, &s);
        if (rb_ratio_bootstrap(x, n, y, 1, &o, &r) != 0 || r.a != s.median)
            exact = 0;
    }
    tap_ok(exact, "median equals rb_stats_compute's, 200 random sets with ties");
    tap_ok(rb_ratio_bootstrap(a, 0, b, 5, &o, &r) == RB_EINVAL, "an empty set is refused");
    x[0] = 0;
    tap_ok(rb_ratio_bootstrap(x, 1, b, 5, &o, &r) == RB_EINVAL, "a zero time is refused");
}

static void check_verdicts(struct rb_rng *rng)
{
    enum { N = 300 };
    double a[N], b[N];
    struct rb_ratio_opts o;
    struct rb_ratio r, again;

    rb_ratio_opts_default(&o);
    timings(rng, a, N, 1.0);
    timings(rng, b, N, 1.0);
    tap_ok(rb_ratio_bootstrap(a, N, b, N, &o, &r) == 0, "equal distributions: bootstrap runs");
    tap_ok(r.verdict == RB_VERDICT_SAME && fabs(r.ratio - 1) < 0.02 && r.lo <= r.ratio
           && r.ratio <= r.hi && r.hi / r.lo < 1.05, "equal distributions: same");
    tap_diag("B/A %.4f, interval [%.4f, %.4f]", r.ratio, r.lo, r.hi);
    rb_ratio_bootstrap(a, N, b, N, &o, &again);
    tap_ok(r.ratio == again.ratio && r.lo == again.lo && r.hi == again.hi,
           "the fixed seed repeats the interval exactly");

    timings(rng, b, N, 2.0);
    rb_ratio_bootstrap(a, N, b, N, &o, &r);
    tap_ok(r.verdict == RB_VERDICT_SLOWER && r.lo > 1 && fabs(r.ratio - 2) < 0.1,
           "2x slower: slower, interval above 1");
    tap_diag("B/A %.4f, interval [%.4f, %.4f]", r.ratio, r.lo, r.hi);
    rb_ratio_bootstrap(b, N, a, N, &o, &r);
    tap_ok(r.verdict == RB_VERDICT_FASTER && r.hi < 1 && fabs(r.ratio - 0.5) < 0.05,
           "2x faster: faster, interval below 1");

    /* 1% slower with a spread of 0.1%: certain, but under the 2% floor. */
    for (size_t i = 0; i < N; i++) {
        a[i] = 1 + 0.001 * rb_rng_normal(rng);
        b[i] = 1.01 * (1 + 0.001 * rb_rng_normal(rng));
    }
    rb_ratio_bootstrap(a, N, b, N, &o, &r);
    tap_ok(r.verdict == RB_VERDICT_SAME, "1%% slower is under the 2%% noise floor: same");
    o.noise = 0.005;
    rb_ratio_bootstrap(a, N, b, N, &o, &r);
    tap_ok(r.verdict == RB_VERDICT_SLOWER, "and slower with a 0.5%% floor");

    tap_ok(rb_verdict_of(1.5, 0.9, 2.0, 0.02) == RB_VERDICT_SAME,
           "an interval holding 1 is same whatever the ratio");
    tap_ok(rb_verdict_of(0.985, 0.98, 0.99, 0.02) == RB_VERDICT_SAME
           && rb_verdict_of(0.975, 0.97, 0.98, 0.02) == RB_VERDICT_FASTER,
           "faster needs the ratio below 1/(1+noise)");
    tap_ok(strcmp(rb_verdict_name(RB_VERDICT_SLOWER), "slower") == 0
           && strcmp(rb_verdict_name(RB_VERDICT_FASTER), "faster") == 0
           && strcmp(rb_verdict_name(RB_VERDICT_SAME), "same") == 0, "verdict names");
}

/* Equal distributions many times over: the 95% interval should hold 1 in
 * about 95% of them; below 85% it would mean something, not luck. */
static void check_coverage(struct rb_rng *rng)
{
    enum { N = 101, TRIALS = 200 };
    double a[N], b[N];
    struct rb_ratio_opts o;
    struct rb_ratio r;
    int covered = 0;

    rb_ratio_opts_default(&o);
    o.resamples = 400;
    for (int t = 0; t < TRIALS; t++) {
        timings(rng, a, N, 1.0);
        timings(rng, b, N, 1.0);
        o.seed = rb_rng_u64(rng);
        rb_ratio_bootstrap(a, N, b, N, &o, &r);
        covered += r.lo <= 1 && 1 <= r.hi;
    }
    tap_ok(covered >= TRIALS * 85 / 100, "the interval holds the true ratio 1 in %d of %d trials",
           covered, TRIALS);
}

/* Cases whose ratios scatter by up to 5% around 1, as two runs of one build
 * on a busy machine do (each with an interval excluding 1, as long runs
 * give), and a few cases really 2x slower. */
static void check_spread(void)
{
    enum { CASES = 40, MOVED = 4 };
    struct rb_compare_row rows[CASES];
    struct rb_comparison cmp;
    double x[CASES], shift;
    int flagged_moved = 0, flagged_other = 0;

    for (int i = 0; i < CASES; i++)
        x[i] = 0.25;
    tap_ok(rb_compare_spread(x, CASES, &shift) == 0 && fabs(shift - exp(0.25)) < 1e-12,
           "equal log ratios: no spread, shift their ratio");
    tap_ok(isnan(rb_compare_spread(x, RB_COMPARE_SPREAD_MIN - 1, &shift)),
           "too few cases: the spread is unknown");
    double known[8] = { -3, -1, -1, 0, 0, 1, 1, 3 };   /* median 0, MAD 1 */
    tap_ok(fabs(rb_compare_spread(known, 8, &shift)
                - expm1(RB_COMPARE_SPREAD_Z * 1.4826)) < 1e-12 && shift == 1,
           "MAD 1: spread exp(z 1.4826) - 1");

    memset(&cmp, 0, sizeof cmp);
    rb_ratio_opts_default(&cmp.opts);
    cmp.rows = rows;
    cmp.n = CASES;
    memset(rows, 0, sizeof rows);
    for (int i = 0; i < CASES; i++) {
        double ratio = exp(0.05 * ((i % 9) - 4) / 4.0) * (i < MOVED ? 2 : 1);
        rows[i].compared = 1;
        rows[i].r = (struct rb_ratio){ .a = 1, .b = ratio, .ratio = ratio,
                                       .lo = ratio * 0.995, .hi = ratio * 1.005 };
    }
    int status = rb_comparison_noise(&cmp);
    tap_ok(status == 0 && cmp.spread > 0.05 && cmp.noise == cmp.spread
           && fabs(log(cmp.shift)) < 0.03, "the floor rises to the spread (%.3g); the shift "
           "is the median ratio (%.3f)", cmp.spread, cmp.shift);
    for (int i = 0; i < CASES; i++) {
        flagged_moved += i < MOVED && rows[i].r.verdict == RB_VERDICT_SLOWER;
        flagged_other += i >= MOVED && rows[i].r.verdict != RB_VERDICT_SAME;
    }
    tap_ok(flagged_moved == MOVED && flagged_other == 0,
           "the %d cases 2x slower are slower, none of the %d scattered ones is flagged",
           MOVED, CASES - MOVED);
    cmp.opts.noise_auto = 0;
    rb_comparison_noise(&cmp);
    flagged_other = 0;
    for (int i = MOVED; i < CASES; i++)
        flagged_other += rows[i].r.verdict != RB_VERDICT_SAME;
    tap_ok(cmp.noise == cmp.opts.noise && flagged_other > 0,
           "a fixed 2%% floor (--noise) flags %d scattered cases", flagged_other);
}

int main(void)
{
    uint64_t seed = tap_seed();
    struct rb_rng rng;

    tap_plan(23);
    tap_diag("seed %llu (RB_TEST_SEED repeats it)", (unsigned long long)seed);
    rb_rng_seed(&rng, seed);
    check_statistics(&rng);
    check_spread();
    check_verdicts(&rng);
    check_coverage(&rng);
    return tap_done();
}
