/* SPDX-License-Identifier: MIT */
/* The embedding engine on OpenCL (sammon_engine.h): the stored form's
 * device side (sammon_opencl_stored.h) in the EMBED and STRESS modes, the
 * triangle where the device holds it, else the distances recomputed each
 * pass; the per-point sums gathered on the device, the groups' float
 * stress partials added in double on the host. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "impl/sammon/sammon_case.h"
#include "impl/sammon/sammon_engine.h"
#include "impl/sammon/sammon_opencl_stored.h"

#define MODES ((1u << SAMMON_CLS_EMBED) | (1u << SAMMON_CLS_STRESS))

struct cl_engine {
    struct rb_case c;           /* the plumbing's messages and device choice */
    struct sammon_cls b;
    double scale, c_scaled;
    cl_mem y;
    float *yh, *sums_h, *st_h;
};

/* The stored form's variant, so that the plumbing's fault injections aimed
 * at the harness's cases leave the engine alone. */
static const struct rb_variant engine_variant = {
    .paper = "sammon", .algo = "embed", .name = "engine", .kind = SAMMON_KIND_STORED,
    .backend = RB_BACKEND_OPENCL,
    .precs = RB_PREC_F32,
};

static int engine_available(struct rb_ctx *ctx, int gpu_only, char *why, size_t len)
{
    struct rb_opencl *cl;
    if (!rb_opencl_available(ctx, why, len) || rb_opencl_get(ctx, &cl, why, len))
        return 0;
    if (gpu_only && !(cl->type & CL_DEVICE_TYPE_GPU)) {
        snprintf(why, len, "the OpenCL device %s is not a GPU", cl->name);
        return 0;
    }
    return 1;
}

static int fail(struct sammon_engine *e, int rc)
{
    struct cl_engine *k = e->impl;
    snprintf(e->msg, sizeof e->msg, "%s", k->c.msg);
    return rc;
}

static int open_device(struct sammon_engine *e, struct cl_engine *k, const float *xf)
{
    struct sammon_cls *b = &k->b;
    int rc = rb_opencl_get(e->ctx, &b->cl, k->c.msg, sizeof k->c.msg);
    if (rc)
        return rc;
    snprintf(e->device, sizeof e->device, "%s", b->cl->name);
    b->N = e->N;
    b->n = e->n;
    b->m = e->m;
    b->tile = e->tile;
    b->stored = 1;
    rc = e->recompute ? RB_ESKIP : sammon_cls_fits(&k->c, b->cl, e->N, e->n, e->m, b->tile, 1,
                                                   MODES);
    if (rc == RB_ESKIP) {
        snprintf(e->form, sizeof e->form, "distances recomputed each pass (%s), tile %d",
                 e->recompute ? "asked" : "the triangle does not fit", b->tile);
        b->stored = 0;
        rc = sammon_cls_fits(&k->c, b->cl, e->N, e->n, e->m, b->tile, 0, MODES);
    } else {
        snprintf(e->form, sizeof e->form, "stored 1/d* (%.3g MB), tile %d",
                 (double)sammon_stored_bytes(e->N, b->tile) / 1e6, b->tile);
    }
    if (rc == RB_ESKIP)
        rc = RB_ENOMEM;
    if (rc || (rc = sammon_cls_prepare(&k->c, b, MODES)) || (rc = sammon_cls_alloc(&k->c, b,
                                                                                 xf, MODES)))
        return rc == RB_ESKIP ? RB_EDEVICE : rc;
    if ((rc = rb_opencl_buffer(&k->c, b->cl, (size_t)e->N * e->m * sizeof(float), &k->y)))
        return rc;
    unsigned lost = 0;
    double dsum = 0.0;
    if ((rc = sammon_cls_fill(&k->c, b, NULL)) || (rc = sammon_cls_fill_result(&k->c, b, &lost,
                                                                               &dsum)))
        return rc;
    if (lost)
        return rb_fail(&k->c, RB_EINVAL, "%u pairs of distinct points are too close (or too "
                       "far apart) for single precision to tell their distance "
                       "(--backend omp keeps double)", lost);
    k->c_scaled = dsum;
    e->c = dsum * k->scale;
    return 0;
}

static int engine_open(struct sammon_engine *e, const double *x)
{
    struct cl_engine *k = calloc(1, sizeof *k);
    if (!k)
        return RB_ENOMEM;
    e->impl = k;
    k->c = (struct rb_case){ .v = &engine_variant, .ctx = e->ctx, .prec = RB_PREC_F32 };
    const size_t K = (size_t)(2 * e->m + 1);
    float *xf = malloc((size_t)e->N * e->n * sizeof *xf);
    k->yh = malloc((size_t)e->N * e->m * sizeof *k->yh);
    k->sums_h = malloc((size_t)e->N * K * sizeof *k->sums_h);
    if (!xf || !k->yh || !k->sums_h) {
        free(xf);
        return RB_ENOMEM;
    }
    int rc = sammon_engine_floats(e, x, &k->scale, xf);
    if (rc == 0 && (rc = open_device(e, k, xf)) != 0)
        fail(e, rc);
    if (rc == 0 && !(k->st_h = malloc((size_t)k->b.tiles * k->b.splits * sizeof *k->st_h)))
        rc = RB_ENOMEM;
    free(xf);
    return rc;
}

static int eval_on(struct sammon_engine *e, struct cl_engine *k, const double *y,
                   double *stress, double *g, double *h)
{
    struct sammon_cls *b = &k->b;
    const size_t ny = (size_t)e->N * e->m, K = (size_t)(2 * e->m + 1);
    const size_t parts = (size_t)b->tiles * b->splits;
    sammon_engine_to_float(ny, y, k->scale, k->yh);
    RB_CL_CHECK(&k->c, clEnqueueWriteBuffer(b->cl->queue, k->y, CL_FALSE, 0,
                                            ny * sizeof(float), k->yh, 0, NULL, NULL));
    int rc = sammon_cls_pass(&k->c, b, g ? SAMMON_CLS_EMBED : SAMMON_CLS_STRESS, k->y, 0.0f,
                             NULL);
    if (rc)
        return rc;
    RB_CL_CHECK(&k->c, clEnqueueReadBuffer(b->cl->queue, b->st_part, CL_TRUE, 0,
                                           parts * sizeof(float), k->st_h, 0, NULL, NULL));
    if (g)
        RB_CL_CHECK(&k->c, clEnqueueReadBuffer(b->cl->queue, b->sums, CL_TRUE, 0,
                                               (size_t)e->N * K * sizeof(float), k->sums_h, 0,
                                               NULL, NULL));
    if (stress) {
        double sum = 0.0;
        for (size_t p = 0; p < parts; p++)
            sum += k->st_h[p];
        *stress = sum / k->c_scaled;
    }
    if (g)
        sammon_engine_derivatives(e->N, e->m, k->sums_h, e->c, k->scale, g, h);
    return 0;
}

static int engine_eval(struct sammon_engine *e, const double *y, double *stress,
                              double *g, double *h)
{
    int rc = eval_on(e, e->impl, y, stress, g, h);
    return rc ? fail(e, rc) : 0;
}

static void engine_close(struct sammon_engine *e)
{
    struct cl_engine *k = e->impl;
    if (!k)
        return;
    sammon_cls_release(&k->b);
    cl_mem *const y[] = { &k->y };
    rb_opencl_mems_release(y, 1);
    free(k->st_h);
    free(k->sums_h);
    free(k->yh);
    free(k);
    e->impl = NULL;
}

const struct sammon_engine_ops sammon_engine_opencl = {
    .name = "opencl", .gpu = 1, .available = engine_available, .open = engine_open,
    .eval = engine_eval, .close = engine_close,
};
