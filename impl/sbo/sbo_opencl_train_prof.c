/* SPDX-License-Identifier: MIT */
/* Where the OpenCL SBO training spends its time: the events of every kernel
 * launch of a run, kept in an array and read only after the run, turned
 * into the case's metrics (device time per kernel, launches, host syncs,
 * the device time no kernel covers, the run's host time). */
#include <stdio.h>
#include <stdlib.h>
#include "impl/sbo/sbo_opencl_train.h"

void sbo_cl_prof_reset(struct sbo_cl_train *t)
{
    for (size_t k = 0; k < t->nev; k++)
        clReleaseEvent(t->ev[k]);
    t->nev = 0;
    t->launches = t->syncs = 0;
    t->wall_ms = 0.0;
}

int sbo_cl_prof_add(struct rb_case *c, struct sbo_cl_train *t, int which, cl_event ev)
{
    if (t->nev == t->ev_cap) {
        size_t cap = t->ev_cap ? 2 * t->ev_cap : 1024;
        cl_event *e = realloc(t->ev, cap * sizeof *e);
        if (e)
            t->ev = e;
        unsigned char *kind = e ? realloc(t->ev_kind, cap) : NULL;
        if (kind)
            t->ev_kind = kind;
        if (!kind) {
            clReleaseEvent(ev);
            return rb_fail(c, RB_ENOMEM, "profile of %zu launches", cap);
        }
        t->ev_cap = cap;
    }
    t->ev[t->nev] = ev;
    t->ev_kind[t->nev++] = (unsigned char)which;
    return 0;
}

int sbo_cl_launched(struct rb_case *c, struct sbo_cl_train *t, int which, cl_event ev)
{
    t->launches++;
    if (!ev)
        return 0;
    if (!t->first) {
        t->first = ev;
        if (!t->prof)
            return 0;
        clRetainEvent(ev);
    }
    return sbo_cl_prof_add(c, t, which, ev);
}

struct span {
    cl_ulong start, end;
};

static int by_start(const void *a, const void *b)
{
    const struct span *x = a, *y = b;
    return (x->start > y->start) - (x->start < y->start);
}

/* Nanoseconds covered by at least one of the n spans (sorted here): an
 * in-order queue does not overlap them, but a device may. */
static cl_ulong union_ns(struct span *s, size_t n)
{
    qsort(s, n, sizeof *s, by_start);
    cl_ulong sum = 0, from = 0, to = 0;
    for (size_t k = 0; k < n; k++) {
        if (k == 0 || s[k].start > to) {
            sum += to - from;
            from = s[k].start;
            to = s[k].end;
        } else if (s[k].end > to) {
            to = s[k].end;
        }
    }
    return n ? sum + (to - from) : 0;
}

static int event_span(struct rb_case *c, cl_event ev, struct span *out)
{
    RB_CL_CHECK(c, clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_START, sizeof out->start,
                                           &out->start, NULL));
    RB_CL_CHECK(c, clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_END, sizeof out->end,
                                           &out->end, NULL));
    if (out->end < out->start)
        out->end = out->start;
    return 0;
}

int sbo_cl_prof_metrics(struct rb_case *c, struct sbo_cl_train *t)
{
    if (!t->prof || !t->first || !t->last)
        return 0;
    struct span *s = malloc((t->nev ? t->nev : 1) * sizeof *s), run_first, run_last;
    if (!s)
        return rb_fail(c, RB_ENOMEM, "profile of %zu launches", t->nev);
    double ms[SBO_TK_N] = { 0 };
    int ran[SBO_TK_N] = { 0 };
    int rc = event_span(c, t->first, &run_first);
    if (rc == 0)
        rc = event_span(c, t->last, &run_last);
    for (size_t k = 0; rc == 0 && k < t->nev; k++) {
        rc = event_span(c, t->ev[k], &s[k]);
        ms[t->ev_kind[k]] += (double)(s[k].end - s[k].start) * 1e-6;
        ran[t->ev_kind[k]] = 1;
    }
    if (rc == 0) {
        char name[32];
        for (int k = 0; k < SBO_TK_N; k++) {
            if (!ran[k])
                continue;
            snprintf(name, sizeof name, "ms_%s", sbo_tk_names[k]);
            rb_case_metric(c, name, ms[k]);
        }
        double span = run_last.end > run_first.start
                      ? (double)(run_last.end - run_first.start) * 1e-6 : 0.0;
        double covered = (double)union_ns(s, t->nev) * 1e-6;
        rb_case_metric(c, "launches", (double)t->launches);
        rb_case_metric(c, "host_syncs", (double)t->syncs);
        rb_case_metric(c, "ms_gaps", span > covered ? span - covered : 0.0);
        rb_case_metric(c, "ms_wall", t->wall_ms);
    }
    free(s);
    return rc;
}
