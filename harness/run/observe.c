/* SPDX-License-Identifier: MIT */
/* The run's observers and the calls around a case's timed samples: each
 * observer writes into the case's observation, and the per-sample throttle
 * marks are kept here. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "harness/error.h"
#include "harness/run/observe.h"
#include "harness/run/timer.h"

/* RB_THROTTLE_THRESHOLD: a fraction of the starting SM clock. */
static int threshold_from_env(double *out, char *err, size_t errlen)
{
    const char *s = getenv("RB_THROTTLE_THRESHOLD");
    char *end;

    *out = RB_THROTTLE_THRESHOLD_DEFAULT;
    if (!s)
        return 0;
    errno = 0;
    double x = strtod(s, &end);
    if (!*s || *end || errno || !isfinite(x) || x <= 0 || x > 1) {
        snprintf(err, errlen, "RB_THROTTLE_THRESHOLD: '%s' is not a fraction in (0, 1] of "
                 "the SM clock at a case's start (default %g)", s,
                 RB_THROTTLE_THRESHOLD_DEFAULT);
        return RB_EINVAL;
    }
    *out = x;
    return 0;
}

int rb_observers_init(struct rb_ctx *ctx, char *err, size_t errlen)
{
    struct rb_observers *set;
    double threshold;
    int rc;

    if (ctx->observers)
        return 0;
    if ((rc = threshold_from_env(&threshold, err, errlen)))
        return rc;
    if (!(set = calloc(1, sizeof *set))) {
        snprintf(err, errlen, "out of memory for the observers");
        return RB_ENOMEM;
    }
    set->threshold = threshold;
    if (rb_nvml_observer(&set->obs[set->n], threshold) == 0)
        set->n++;
    if (rb_cpu_power_observer(&set->obs[set->n]) == 0)
        set->n++;
    ctx->observers = set;
    return 0;
}

void rb_observers_release(struct rb_ctx *ctx)
{
    struct rb_observers *set = ctx->observers;

    if (!set)
        return;
    for (int i = 0; i < set->n; i++)
        if (set->obs[i].release)
            set->obs[i].release(set->obs[i].self);
    free(set);
    ctx->observers = NULL;
}

static void observation_clear(struct rb_observation *o, double threshold)
{
    memset(o, 0, sizeof *o);
    o->window_s = NAN;
    o->gpu.energy_j = NAN;
    o->gpu.energy_steps = -1;
    o->gpu.temp_start = o->gpu.temp_end = -1;
    o->gpu.threshold = threshold;
    o->cpu.energy_j = NAN;
}

void rb_observe_start(const struct rb_case *c, struct rb_observation *o)
{
    struct rb_observers *set = c->ctx ? c->ctx->observers : NULL;
    char err[256] = "";

    if (!set && c->ctx && rb_observers_init(c->ctx, err, sizeof err) == 0)
        set = c->ctx->observers;
    observation_clear(o, set ? set->threshold : RB_THROTTLE_THRESHOLD_DEFAULT);
    if (!set) {
        snprintf(o->gpu.why, sizeof o->gpu.why, "%s", err[0] ? err : "no observers");
        snprintf(o->cpu.governor_why, sizeof o->cpu.governor_why, "%s", o->gpu.why);
        snprintf(o->cpu.energy_why, sizeof o->cpu.energy_why, "%s", o->gpu.why);
        return;
    }
    for (int i = 0; i < set->n; i++)
        set->obs[i].start(set->obs[i].self, c, o);
    /* The window starts after the observers' own reads. */
    set->t0_ns = rb_now_ns();
}

/* Room for sample i's mark; 0, or -1 when out of memory (the mark is lost,
 * the count is kept). */
static int mark_room(struct rb_observation *o, size_t i)
{
    if (i < o->cap)
        return 0;
    size_t cap = o->cap ? o->cap : 64;
    while (cap <= i)
        cap *= 2;
    unsigned char *t = realloc(o->throttled, cap);
    if (!t)
        return -1;
    memset(t + o->cap, 0, cap - o->cap);
    o->throttled = t;
    o->cap = cap;
    return 0;
}

void rb_observe_sample(const struct rb_case *c, struct rb_observation *o, size_t i)
{
    struct rb_observers *set = c->ctx ? c->ctx->observers : NULL;
    int marked = 0;

    if (!set)
        return;
    for (int k = 0; k < set->n; k++)
        if (set->obs[k].sample)
            marked |= set->obs[k].sample(set->obs[k].self, i, o);
    o->nsamples = i + 1;
    if (!marked)
        return;
    o->nthrottled++;
    if (mark_room(o, i) == 0)
        o->throttled[i] = 1;
}

void rb_observe_stop(const struct rb_case *c, struct rb_observation *o)
{
    struct rb_observers *set = c->ctx ? c->ctx->observers : NULL;

    if (!set)
        return;
    o->window_s = rb_ms_since(set->t0_ns) * 1e-3;
    for (int i = 0; i < set->n; i++)
        set->obs[i].stop(set->obs[i].self, o);
}

void rb_observation_free(struct rb_observation *o)
{
    free(o->throttled);
    o->throttled = NULL;
    o->cap = 0;
}
