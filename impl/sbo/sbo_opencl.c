/* SPDX-License-Identifier: MIT */
/* Admission, setup, verification and teardown of the OpenCL SBO variants:
 * the planted case of sbo_setup on the device, poisoned outputs, and the
 * shared check sbo_represent_verify. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "impl/sbo/sbo_case.h"
#include "impl/sbo/sbo_opencl.h"

/* The kernels' private arrays hold a signal of at most this dimension. */
#define SBO_CL_MAX_P 256

static int case_fused(const struct rb_case *c)
{
    return c->v->kind == SBO_KIND_FUSED;
}

/* RB_ESKIP for what the device or the kernels cannot do; 0 otherwise. */
static int device_admits(struct rb_case *c, const struct rb_opencl *cl, long long wg)
{
    long long p = rb_case_param(c, "p", 64);
    if (p > SBO_CL_MAX_P)
        return rb_fail(c, RB_ESKIP, "p=%lld > the kernels' %d", p, SBO_CL_MAX_P);
    if (c->prec == RB_PREC_F64 && !rb_opencl_fp64(cl))
        return rb_fail(c, RB_ESKIP, "%s has no fp64 (cl_khr_fp64)", cl->name);
    size_t most = rb_opencl_max_wg(cl);
    if (wg < 1 || (size_t)wg > most)
        return rb_fail(c, RB_ESKIP, "wg=%lld outside 1..%zu of %s", wg, most, cl->name);
    return 0;
}

int sbo_opencl_admit(struct rb_case *c)
{
    struct rb_opencl *cl;
    char why[256];
    int rc = sbo_admit(c);
    if (rc || rb_opencl_get(c->ctx, &cl, why, sizeof why))
        return rc;                      /* setup reports a missing device */
    return device_admits(c, cl, rb_case_param(c, "wg", 64));
}

size_t sbo_opencl_footprint(const struct rb_case *c)
{
    size_t p = (size_t)rb_case_param(c, "p", 1), m = (size_t)rb_case_param(c, "signals", 1);
    size_t L = (size_t)rb_case_param(c, "blocks", 1), sz = rb_prec_size(c->prec);
    size_t dev = (p * m + L * p * p + m) * sz + m * sizeof(int);
    return sbo_footprint(c) + dev + (case_fused(c) ? 0 : L * m * sz);
}

int sbo_opencl_upload(struct rb_case *c)
{
    struct sbo_state *s = c->state;
    struct sbo_opencl *b = s->backend;
    const size_t ny = (size_t)b->p * b->m * b->sz, nd = (size_t)b->L * b->p * b->p * b->sz;
    int rc = rb_opencl_upload(c, b->cl, b->Y, 0, s->Y, ny);
    return rc ? rc : rb_opencl_upload(c, b->cl, b->D, 0, s->D, nd);
}

int sbo_opencl_poison(struct rb_case *c)
{
    struct sbo_state *s = c->state;
    struct sbo_opencl *b = s->backend;
    const cl_int none = -1;
    int rc = rb_opencl_fill(c, b->cl, b->best, &none, sizeof none, (size_t)b->m * sizeof none);
    if (!rc)
        rc = rb_opencl_poison(c, b->cl, b->energy, b->sz, (size_t)b->m);
    if (!rc && b->E)
        rc = rb_opencl_poison(c, b->cl, b->E, b->sz, (size_t)b->L * b->m);
    return rc;
}

static int setup_device(struct rb_case *c, struct sbo_opencl *b)
{
    const size_t m = (size_t)b->m;
    int rc = rb_opencl_buffer(c, b->cl, (size_t)b->p * m * b->sz, &b->Y);
    if (!rc)
        rc = rb_opencl_buffer(c, b->cl, (size_t)b->L * b->p * b->p * b->sz, &b->D);
    if (!rc)
        rc = rb_opencl_buffer(c, b->cl, m * sizeof(cl_int), &b->best);
    if (!rc)
        rc = rb_opencl_buffer(c, b->cl, m * b->sz, &b->energy);
    if (!rc && !b->fused)
        rc = rb_opencl_buffer(c, b->cl, (size_t)b->L * m * b->sz, &b->E);
    if (!rc)
        rc = sbo_opencl_upload(c);
    if (!rc)
        rc = sbo_opencl_prepare(c, b);
    return rc ? rc : sbo_opencl_poison(c);
}

int sbo_opencl_setup(struct rb_case *c)
{
    int rc = sbo_setup(c);
    if (rc)
        return rc;
    struct sbo_state *s = c->state;
    struct sbo_opencl *b = calloc(1, sizeof *b);
    if (!b)
        return rb_fail(c, RB_ENOMEM, "SBO OpenCL state");
    s->backend = b;
    c->device_ms = -1;
    if ((rc = rb_opencl_get(c->ctx, &b->cl, c->msg, sizeof c->msg)))
        return rc;
    snprintf(c->device, sizeof c->device, "%s", b->cl->name);
    b->fused = case_fused(c);
    b->p = s->p;
    b->s = s->s;
    b->L = s->L;
    b->m = s->m;
    b->wg = (int)rb_case_param(c, "wg", 64);
    b->sz = rb_prec_size(c->prec);
    b->shape = sbo_cl_fused_shape(b->p, b->sz);
    if ((rc = device_admits(c, b->cl, b->wg)))     /* for callers that skip admit */
        return rc;
    return setup_device(c, b);
}

int sbo_opencl_verify(struct rb_case *c, struct rb_check *out)
{
    struct sbo_state *s = c->state;
    struct sbo_opencl *b = s->backend;
    int rc = rb_opencl_download(c, b->cl, b->best, 0, s->best, (size_t)b->m * sizeof(int));
    if (!rc)
        rc = rb_opencl_download(c, b->cl, b->energy, 0, s->energy, (size_t)b->m * b->sz);
    return rc ? rc : sbo_represent_verify(c, out);
}

void sbo_opencl_teardown(struct rb_case *c)
{
    struct sbo_state *s = c->state;
    struct sbo_opencl *b = s ? s->backend : NULL;
    if (b) {
        if (b->cl && b->cl->queue)
            clFinish(b->cl->queue);
        if (b->first)
            clReleaseEvent(b->first);
        if (b->last)
            clReleaseEvent(b->last);
        for (int k = 0; k < SBO_CL_NKERNELS; k++)
            if (b->k[k])
                clReleaseKernel(b->k[k]);
        cl_mem *const bufs[] = { &b->D, &b->Y, &b->E, &b->best, &b->energy };
        rb_opencl_mems_release(bufs, sizeof bufs / sizeof bufs[0]);
        free(b);
        s->backend = NULL;
    }
    sbo_teardown(c);
}
