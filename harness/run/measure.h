/* SPDX-License-Identifier: MIT */
/* Timing one case: warm-up, then repetitions until both a minimum count and a
 * minimum time are reached (or the time limit), every sample kept. */
#ifndef RB_MEASURE_H
#define RB_MEASURE_H

#include <stddef.h>
#include "harness/run/observe.h"
#include "harness/run/stats.h"
#include "harness/variant.h"

struct rb_policy {
    int warmup;                 /* untimed runs first (>= 1) */
    size_t min_samples;         /* default 10 */
    size_t max_samples;         /* default 1000 */
    double min_time_s;          /* default 0.5 */
    double max_time_s;          /* default 15: stop after this even below min_samples */
    const char *inject_delay;   /* RB_INJECT_DELAY, a testing aid: "paper/algo/variant:MS"
                                   entries, comma separated; NULL for none */
};

struct rb_measurement {
    size_t n;
    double *samples_ms;         /* malloc'd, n entries */
    struct rb_stats stats;
    const char *timer;          /* "device-events", "host-monotonic", or
                                   "host-monotonic+injected-delay" */
    double wall_s;              /* host time spent measuring */
    int truncated;              /* 1 if max_time_s stopped it below min_samples */
    struct rb_observation obs;  /* clocks, power, energy, throttle marks */
};

/* The defaults above; inject_delay from the environment, read here once. */
void rb_policy_default(struct rb_policy *p);

/* Run c->v->run according to the policy, the run's observers around the
 * timed samples.  Returns 0, or the first failing run's status (message in
 * c->msg; RB_EINVAL for a malformed inject_delay).  On success m owns
 * samples_ms and the observation. */
int rb_measure(struct rb_case *c, const struct rb_policy *p, struct rb_measurement *m);
void rb_measurement_free(struct rb_measurement *m);

#endif
