/* SPDX-License-Identifier: MIT */
/* Timing one case: warm-up runs, then samples until both the minimum count
 * and the minimum time are reached, within the time limit.  A variant that
 * times itself with device events sets c->device_ms; otherwise the host clock
 * around run() is the sample. */
#include <stdlib.h>
#include <string.h>
#include "harness/error.h"
#include "harness/measure.h"
#include "harness/timer.h"

void rb_policy_default(struct rb_policy *p)
{
    p->warmup = 1;
    p->min_samples = 10;
    p->max_samples = 1000;
    p->min_time_s = 0.5;
    p->max_time_s = 15.0;
}

/* One run of the timed region; the sample in ms, or a negative status. */
static int run_once(struct rb_case *c, double *ms, int *device_timed)
{
    c->device_ms = -1;
    uint64_t t0 = rb_now_ns();
    int rc = c->v->run(c);
    double host = rb_ms_since(t0);
    if (rc)
        return rc;
    *device_timed = c->device_ms >= 0;
    *ms = *device_timed ? c->device_ms : host;
    return 0;
}

int rb_measure(struct rb_case *c, const struct rb_policy *p, struct rb_measurement *m)
{
    double ms;
    int device_timed = 0, rc;
    memset(m, 0, sizeof *m);

    for (int i = 0; i < (p->warmup > 0 ? p->warmup : 1); i++)
        if ((rc = run_once(c, &ms, &device_timed)))
            return rc;

    size_t cap = p->min_samples > 16 ? p->min_samples : 16;
    m->samples_ms = malloc(cap * sizeof *m->samples_ms);
    if (!m->samples_ms)
        return rb_fail(c, RB_ENOMEM, "no memory for samples");
    uint64_t t0 = rb_now_ns();
    double elapsed_s = 0;
    while (m->n == 0
           || ((m->n < p->min_samples || elapsed_s < p->min_time_s)
               && m->n < p->max_samples && elapsed_s < p->max_time_s)) {
        if ((rc = run_once(c, &ms, &device_timed))) {
            rb_measurement_free(m);
            return rc;
        }
        if (m->n == cap) {
            double *s = realloc(m->samples_ms, 2 * cap * sizeof *s);
            if (!s) {
                rb_measurement_free(m);
                return rb_fail(c, RB_ENOMEM, "no memory for samples");
            }
            m->samples_ms = s;
            cap *= 2;
        }
        m->samples_ms[m->n++] = ms;
        elapsed_s = rb_ms_since(t0) / 1e3;
    }
    m->truncated = m->n < p->min_samples;
    m->wall_s = elapsed_s;
    m->timer = device_timed ? "device-events" : "host-monotonic";
    if ((rc = rb_stats_compute(m->samples_ms, m->n, &m->stats))) {
        rb_measurement_free(m);
        return rb_fail(c, rc, "statistics failed");
    }
    return 0;
}

void rb_measurement_free(struct rb_measurement *m)
{
    free(m->samples_ms);
    m->samples_ms = NULL;
    m->n = 0;
}
