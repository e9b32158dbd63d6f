/* SPDX-License-Identifier: MIT */
/* Timing one case: warm-up runs, then samples until both the minimum count
 * and the minimum time are reached, within the time limit.  A variant that
 * times itself with device events sets c->device_ms; otherwise the host clock
 * around run() is the sample. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "harness/error.h"
#include "harness/run/measure.h"
#include "harness/run/timer.h"

void rb_policy_default(struct rb_policy *p)
{
    p->warmup = 1;
    p->min_samples = 10;
    p->max_samples = 1000;
    p->min_time_s = 0.5;
    p->max_time_s = 15.0;
    p->inject_delay = getenv("RB_INJECT_DELAY");
    if (p->inject_delay && !*p->inject_delay)
        p->inject_delay = NULL;
}

/* pat (len bytes, "paper/algo/variant", each part the variant's or "*")
 * names v. */
static int pattern_matches(const char *pat, size_t len, const struct rb_variant *v)
{
    const char *parts[3] = { v->paper, v->algo, v->name };

    for (int i = 0; i < 3; i++) {
        const char *slash = memchr(pat, '/', len);
        size_t n = slash ? (size_t)(slash - pat) : len;
        if (!(n == 1 && pat[0] == '*') && (strlen(parts[i]) != n || memcmp(pat, parts[i], n)))
            return 0;
        pat += n + (slash != NULL);
        len -= n + (slash != NULL);
    }
    return 1;
}

/* One "paper/algo/variant:MS" entry of len bytes: its pattern's length and
 * the delay.  -1 when malformed. */
static int parse_entry(const char *e, size_t len, size_t *patlen, double *ms)
{
    const char *colon = memchr(e, ':', len);
    char num[32], *end;
    int slashes = 0;

    if (!colon || (size_t)(e + len - colon) > sizeof num)
        return -1;
    *patlen = (size_t)(colon - e);
    for (size_t i = 0; i < *patlen; i++) {
        if (e[i] != '/')
            continue;
        if (i == 0 || e[i - 1] == '/' || i + 1 == *patlen)
            return -1;
        slashes++;
    }
    memcpy(num, colon + 1, len - *patlen - 1);
    num[len - *patlen - 1] = '\0';
    errno = 0;
    *ms = strtod(num, &end);
    return slashes == 2 && num[0] && !*end && !errno && *ms >= 0 && *ms <= 60e3 ? 0 : -1;
}

/* The delay RB_INJECT_DELAY asks for in this case's runs, in ms: the last
 * matching entry's, 0 when none matches. */
static int injected_delay(struct rb_case *c, const char *spec, double *ms)
{
    *ms = 0;
    for (const char *e = spec; e && *e; ) {
        size_t len = strcspn(e, ","), patlen;
        double d;

        if (parse_entry(e, len, &patlen, &d) < 0)
            return rb_fail(c, RB_EINVAL, "RB_INJECT_DELAY: '%.*s' is not "
                           "paper/algo/variant:MS (MS from 0 to 60000)", (int)len, e);
        if (pattern_matches(e, patlen, c->v))
            *ms = d;
        e += len + (e[len] == ',');
    }
    return 0;
}

/* One run of the timed region; the sample in ms, or a negative status.  An
 * injected delay spins inside the host-timed window, after run(): device
 * events around the kernel never see it. */
static int run_once(struct rb_case *c, uint64_t delay_ns, double *ms, int *device_timed)
{
    c->device_ms = -1;
    uint64_t t0 = rb_now_ns();
    int rc = c->v->run(c);
    if (delay_ns)
        for (uint64_t until = rb_now_ns() + delay_ns; rb_now_ns() < until; )
            continue;
    double host = rb_ms_since(t0);
    if (rc)
        return rc;
    *device_timed = c->device_ms >= 0;
    *ms = *device_timed ? c->device_ms : host;
    return 0;
}

int rb_measure(struct rb_case *c, const struct rb_policy *p, struct rb_measurement *m)
{
    double ms, delay_ms;
    int device_timed = 0, rc;
    memset(m, 0, sizeof *m);

    if ((rc = injected_delay(c, p->inject_delay, &delay_ms)))
        return rc;
    uint64_t delay_ns = (uint64_t)(delay_ms * 1e6);
    for (int i = 0; i < (p->warmup > 0 ? p->warmup : 1); i++)
        if ((rc = run_once(c, delay_ns, &ms, &device_timed)))
            return rc;

    size_t cap = p->min_samples > 16 ? p->min_samples : 16;
    m->samples_ms = malloc(cap * sizeof *m->samples_ms);
    if (!m->samples_ms)
        return rb_fail(c, RB_ENOMEM, "no memory for samples");
    rb_observe_start(c, &m->obs);
    uint64_t t0 = rb_now_ns();
    double elapsed_s = 0;
    while (m->n == 0
           || ((m->n < p->min_samples || elapsed_s < p->min_time_s)
               && m->n < p->max_samples && elapsed_s < p->max_time_s)) {
        if ((rc = run_once(c, delay_ns, &ms, &device_timed))) {
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
        rb_observe_sample(c, &m->obs, m->n - 1);
    }
    rb_observe_stop(c, &m->obs);
    m->truncated = m->n < p->min_samples;
    m->wall_s = elapsed_s;
    m->timer = device_timed ? "device-events"
               : delay_ns ? "host-monotonic+injected-delay" : "host-monotonic";
    if ((rc = rb_stats_compute(m->samples_ms, m->n, &m->stats))) {
        rb_measurement_free(m);
        return rb_fail(c, rc, "statistics failed");
    }
    return 0;
}

void rb_measurement_free(struct rb_measurement *m)
{
    rb_observation_free(&m->obs);
    free(m->samples_ms);
    m->samples_ms = NULL;
    m->n = 0;
}
