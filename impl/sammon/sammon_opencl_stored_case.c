/* SPDX-License-Identifier: MIT */
/* The OpenCL `stored` variant's case (f32): admission against the device's
 * memory, setup (the shared case's data uploaded flat, the triangle filled
 * and timed into the metric "precompute_ms" unless precompute 1 puts the
 * fill in the timed region), the timed region of `iters` passes and
 * updates, the check against the fp64 reference and teardown. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "impl/sammon/sammon_case.h"
#include "impl/sammon/sammon_opencl.h"
#include "impl/sammon/sammon_opencl_stored.h"

struct stored_case {
    struct sammon_cls b;
    int iters, precompute;
    float scale;                /* 2 alpha / c */
    cl_mem y0, y;
    cl_event first, last;
};

static int case_tile(const struct rb_case *c)
{
    return (int)rb_case_param(c, "tile", 128);
}

int sammon_opencl_stored_admit(struct rb_case *c)
{
    long long tile = case_tile(c);
    if (tile != 32 && tile != 64 && tile != 128)
        return rb_fail(c, RB_ESKIP, "tile=%lld: the stored kernels are built for 32, 64 and "
                       "128", tile);
    if (c->prec != RB_PREC_F32)
        return rb_fail(c, RB_ESKIP, "the stored variant is f32 only");
    struct rb_opencl *cl;
    char why[256];
    if (rb_opencl_get(c->ctx, &cl, why, sizeof why))
        return 0;                       /* setup reports it */
    return sammon_cls_fits(c, cl, (int)rb_case_param(c, "points", 2),
                           (int)rb_case_param(c, "dim", 1), (int)rb_case_param(c, "outdim", 2),
                           (int)tile, 1, 1u << SAMMON_CLS_GD);
}

size_t sammon_opencl_stored_footprint(const struct rb_case *c)
{
    const int N = (int)rb_case_param(c, "points", 2), m = (int)rb_case_param(c, "outdim", 2);
    return sammon_cls_bytes(N, (int)rb_case_param(c, "dim", 1), m, case_tile(c), 1,
                            1u << SAMMON_CLS_GD) + 2 * (size_t)N * m * sizeof(float);
}

/* The triangle filled once, timed by its event; a lost pair fails. */
static int precompute(struct rb_case *c, struct stored_case *k)
{
    cl_event ev = NULL;
    unsigned lost = 0;
    double dsum;
    int rc = sammon_cls_fill(c, &k->b, &ev);
    if (rc == 0)
        rc = sammon_cls_fill_result(c, &k->b, &lost, &dsum);
    if (rc == 0)
        rb_case_metric(c, "precompute_ms", rb_opencl_event_ms(ev));
    if (ev)
        clReleaseEvent(ev);
    if (rc == 0 && lost)
        rc = rb_fail(c, RB_EINVAL, "%u pairs of distinct points have no float distance", lost);
    return rc;
}

static int setup_device(struct rb_case *c, struct sammon_state *st, struct stored_case *k)
{
    const size_t ybytes = (size_t)st->N * st->m * sizeof(float);
    int rc = sammon_cls_prepare(c, &k->b, 1u << SAMMON_CLS_GD);
    if (!rc)
        rc = sammon_cls_alloc(c, &k->b, st->x, 1u << SAMMON_CLS_GD);
    if (!rc)
        rc = rb_opencl_buffer(c, k->b.cl, ybytes, &k->y0);
    if (!rc)
        rc = rb_opencl_buffer(c, k->b.cl, ybytes, &k->y);
    if (rc)
        return rc;
    c->transfer_ms = -1;            /* the start's upload alone, not the points' */
    if ((rc = rb_opencl_upload(c, k->b.cl, k->y0, 0, st->y0, ybytes))
        || (rc = rb_opencl_poison(c, k->b.cl, k->y, sizeof(float), ybytes / sizeof(float))))
        return rc;
    return k->precompute ? 0 : precompute(c, k);
}

int sammon_opencl_stored_setup(struct rb_case *c)
{
    int rc = sammon_setup(c);
    if (rc)
        return rc;
    struct sammon_state *st = c->state;
    struct stored_case *k = calloc(1, sizeof *k);
    if (!k)
        return rb_fail(c, RB_ENOMEM, "sammon OpenCL state");
    st->backend = k;
    c->device_ms = -1;
    if ((rc = rb_opencl_get(c->ctx, &k->b.cl, c->msg, sizeof c->msg)))
        return rc;
    snprintf(c->device, sizeof c->device, "%s", k->b.cl->name);
    k->b.N = st->N;
    k->b.n = st->n;
    k->b.m = st->m;
    k->b.tile = case_tile(c);
    k->b.stored = 1;
    k->iters = st->iters;
    k->precompute = rb_case_param(c, "precompute", 0) != 0;
    k->scale = (float)(2.0 * st->alpha / st->c);
    if ((rc = sammon_opencl_stored_admit(c)))
        return rc;
    return setup_device(c, st, k);
}

int sammon_opencl_stored_run(struct rb_case *c)
{
    struct sammon_state *st = c->state;
    struct stored_case *k = st->backend;
    const size_t ybytes = (size_t)st->N * st->m * sizeof(float);
    if (k->first)
        clReleaseEvent(k->first);
    if (k->last)
        clReleaseEvent(k->last);
    k->first = k->last = NULL;
    int rc = 0;
    if (k->precompute)
        rc = sammon_cls_fill(c, &k->b, &k->first);
    if (rc)
        return rc;
    RB_CL_CHECK(c, clEnqueueCopyBuffer(k->b.cl->queue, k->y0, k->y, 0, 0, ybytes, 0, NULL,
                                       k->first ? NULL : &k->first));
    for (int it = 0; it < k->iters && rc == 0; it++)
        rc = sammon_cls_pass(c, &k->b, SAMMON_CLS_GD, k->y, k->scale,
                             it == k->iters - 1 ? &k->last : NULL);
    if (rc)
        return rc;
    cl_ulong start = 0, end = 0;
    RB_CL_CHECK(c, clWaitForEvents(1, &k->last));
    RB_CL_CHECK(c, clGetEventProfilingInfo(k->first, CL_PROFILING_COMMAND_START, sizeof start,
                                           &start, NULL));
    RB_CL_CHECK(c, clGetEventProfilingInfo(k->last, CL_PROFILING_COMMAND_END, sizeof end, &end,
                                           NULL));
    c->device_ms = end > start ? (double)(end - start) * 1e-6 : 0.0;
    return 0;
}

int sammon_opencl_stored_verify(struct rb_case *c, struct rb_check *out)
{
    struct sammon_state *st = c->state;
    struct stored_case *k = st->backend;
    int rc = rb_opencl_download(c, k->b.cl, k->y, 0, st->y,
                                (size_t)st->N * st->m * sizeof(float));
    return rc ? rc : sammon_verify(c, out);
}

void sammon_opencl_stored_teardown(struct rb_case *c)
{
    struct sammon_state *st = c->state;
    struct stored_case *k = st ? st->backend : NULL;
    if (k) {
        sammon_cls_release(&k->b);
        if (k->first)
            clReleaseEvent(k->first);
        if (k->last)
            clReleaseEvent(k->last);
        cl_mem *const ys[] = { &k->y0, &k->y };
        rb_opencl_mems_release(ys, 2);
        free(k);
        st->backend = NULL;
    }
    sammon_teardown(c);
}

void sammon_opencl_stored_occupancy(struct rb_case *c, struct rb_occ *occ)
{
    struct sammon_state *st = c->state;
    struct stored_case *k = st ? st->backend : NULL;
    memset(occ, 0, sizeof *occ);
    if (!k) {
        snprintf(occ->why, sizeof occ->why, "no OpenCL state (setup failed)");
        return;
    }
    occ->available = 1;
    sammon_cls_occupancy(&k->b, SAMMON_CLS_GD, k->precompute, occ);
}
