/* SPDX-License-Identifier: MIT */
/* Statistics on samples with known answers. */
#include "harness/error.h"
#include "harness/run/stats.h"
#include "t/tap.h"

int main(void)
{
    struct rb_stats s;
    tap_plan(17);

    double one[] = { 4.0 };
    tap_is(rb_stats_compute(one, 1, &s), 0, "one sample");
    tap_near(s.median, 4.0, 0, "one sample: median");
    tap_near(s.stddev, 0.0, 0, "one sample: stddev 0");
    tap_near(s.p10, 4.0, 0, "one sample: p10");

    /* 1..10 shuffled: median 5.5, mean 5.5, sample stddev sqrt(55/6). */
    double ten[] = { 7, 3, 10, 1, 5, 9, 2, 8, 4, 6 };
    tap_is(rb_stats_compute(ten, 10, &s), 0, "ten samples");
    tap_near(s.min, 1, 0, "min");
    tap_near(s.max, 10, 0, "max");
    tap_near(s.median, 5.5, 1e-15, "median of an even count interpolates");
    tap_near(s.mean, 5.5, 1e-15, "mean");
    tap_near(s.stddev, sqrt(55.0 / 6.0), 1e-14, "sample standard deviation (n-1)");
    tap_near(s.p10, 1.9, 1e-14, "p10 at rank 0.1*(n-1)");
    tap_near(s.p90, 9.1, 1e-14, "p90 at rank 0.9*(n-1)");
    tap_ok(ten[0] == 7 && ten[9] == 6, "input left unsorted");

    double odd[] = { 3, 1, 2 };
    rb_stats_compute(odd, 3, &s);
    tap_near(s.median, 2, 0, "median of an odd count is the middle value");

    /* Large equal values: the two-pass variance does not cancel to garbage. */
    double big[] = { 1e9 + 1, 1e9 + 1, 1e9 + 1, 1e9 + 1 };
    rb_stats_compute(big, 4, &s);
    tap_near(s.stddev, 0, 0, "equal samples: stddev exactly 0");

    tap_is(rb_stats_compute(big, 0, &s), RB_EINVAL, "no samples is an error");
    double sorted[] = { 0, 10 };
    tap_near(rb_stats_quantile_sorted(sorted, 2, 0.25), 2.5, 1e-15, "quantile interpolation");
    return tap_done();
}
