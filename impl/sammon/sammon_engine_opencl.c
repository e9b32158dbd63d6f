/* SPDX-License-Identifier: MIT */
/* The embedding engine on OpenCL (sammon_engine.h): the stored form's
 * device side (sammon_opencl_stored.h) in the EMBED and STRESS modes, the
 * triangle where the device holds it, else the distances recomputed each
 * pass; the per-point sums gathered on the device, the groups' float
 * stress partials added in double on the host.  On devices with fp64 the
 * fixed rules' map stays on the device (sammon.h's struct
 * sammon_resident), stepped there by kernels/opencl/sammon_step.cl. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "impl/sammon/sammon_case.h"
#include "impl/sammon/sammon_engine.h"
#include "impl/sammon/sammon_opencl_stored.h"

#define MODES ((1u << SAMMON_CLS_EMBED) | (1u << SAMMON_CLS_STRESS))

extern const char rb_cl_sammon_step[];

struct cl_engine {
    struct rb_case c;           /* the plumbing's messages and device choice */
    struct sammon_cls b;
    double scale, c_scaled;
    cl_mem y;
    float *yh, *sums_h, *st_h;
    cl_kernel to_float, step;   /* the resident map's, with yd */
    cl_mem yd;
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

/* --- the resident map: y in double on the device --- */

/* Global size of one work-item per element, in groups of 256. */
static size_t items(size_t len)
{
    return (len + SAMMON_CLS_THREADS - 1) / SAMMON_CLS_THREADS * SAMMON_CLS_THREADS;
}

/* The stress from the partials of a pass, read back. */
static int stress_back(struct cl_engine *k, double *stress)
{
    const size_t parts = (size_t)k->b.tiles * k->b.splits;
    RB_CL_CHECK(&k->c, clEnqueueReadBuffer(k->b.cl->queue, k->b.st_part, CL_TRUE, 0,
                                           parts * sizeof(float), k->st_h, 0, NULL, NULL));
    double sum = 0.0;
    for (size_t p = 0; p < parts; p++)
        sum += k->st_h[p];
    *stress = sum / k->c_scaled;
    return 0;
}

static int load_on(struct sammon_engine *e, struct cl_engine *k, const double *y,
                   double *stress)
{
    const cl_int len = e->N * e->m;
    const cl_double inv = 1.0 / k->scale;
    const size_t global = items((size_t)len);
    cl_command_queue q = k->b.cl->queue;
    RB_CL_CHECK(&k->c, clEnqueueWriteBuffer(q, k->yd, CL_TRUE, 0, (size_t)len * sizeof(double),
                                            y, 0, NULL, NULL));
    RB_CL_CHECK(&k->c, clSetKernelArg(k->to_float, 0, sizeof len, &len));
    RB_CL_CHECK(&k->c, clSetKernelArg(k->to_float, 1, sizeof k->yd, &k->yd));
    RB_CL_CHECK(&k->c, clSetKernelArg(k->to_float, 2, sizeof inv, &inv));
    RB_CL_CHECK(&k->c, clSetKernelArg(k->to_float, 3, sizeof k->y, &k->y));
    RB_CL_CHECK(&k->c, clEnqueueNDRangeKernel(q, k->to_float, 1, NULL, &global, NULL, 0, NULL,
                                              NULL));
    int rc = sammon_cls_pass(&k->c, &k->b, SAMMON_CLS_EMBED, k->y, 0.0f, NULL);
    return rc ? rc : stress_back(k, stress);
}

static int step_on(struct sammon_engine *e, struct cl_engine *k, int newton, double mf,
                   double alpha, int left, double *stress)
{
    const cl_int N = e->N, m = e->m, nw = newton;
    const cl_double gf = -2.0 / e->c, hd = e->c * k->scale, inv = 1.0 / k->scale;
    const cl_double f = mf, a = alpha;
    const size_t global = items((size_t)N);
    cl_kernel s = k->step;
    RB_CL_CHECK(&k->c, clSetKernelArg(s, 0, sizeof N, &N));
    RB_CL_CHECK(&k->c, clSetKernelArg(s, 1, sizeof m, &m));
    RB_CL_CHECK(&k->c, clSetKernelArg(s, 2, sizeof k->b.sums, &k->b.sums));
    RB_CL_CHECK(&k->c, clSetKernelArg(s, 3, sizeof gf, &gf));
    RB_CL_CHECK(&k->c, clSetKernelArg(s, 4, sizeof hd, &hd));
    RB_CL_CHECK(&k->c, clSetKernelArg(s, 5, sizeof nw, &nw));
    RB_CL_CHECK(&k->c, clSetKernelArg(s, 6, sizeof f, &f));
    RB_CL_CHECK(&k->c, clSetKernelArg(s, 7, sizeof a, &a));
    RB_CL_CHECK(&k->c, clSetKernelArg(s, 8, sizeof inv, &inv));
    RB_CL_CHECK(&k->c, clSetKernelArg(s, 9, sizeof k->yd, &k->yd));
    RB_CL_CHECK(&k->c, clSetKernelArg(s, 10, sizeof k->y, &k->y));
    RB_CL_CHECK(&k->c, clEnqueueNDRangeKernel(k->b.cl->queue, s, 1, NULL, &global, NULL, 0,
                                              NULL, NULL));
    int rc = sammon_cls_pass(&k->c, &k->b, left > 0 ? SAMMON_CLS_EMBED : SAMMON_CLS_STRESS, k->y,
                             0.0f, NULL);
    return rc ? rc : stress_back(k, stress);
}

static int fetch_on(struct sammon_engine *e, struct cl_engine *k, double *y)
{
    RB_CL_CHECK(&k->c, clEnqueueReadBuffer(k->b.cl->queue, k->yd, CL_TRUE, 0,
                                           (size_t)e->N * e->m * sizeof(double), y, 0, NULL,
                                           NULL));
    return 0;
}

static int resident_load(void *arg, const double *y, double *stress)
{
    struct sammon_engine *e = arg;
    int rc = load_on(e, e->impl, y, stress);
    return rc ? fail(e, rc) : 0;
}

static int resident_step(void *arg, int newton, double mf, double alpha, int left,
                         double *stress)
{
    struct sammon_engine *e = arg;
    int rc = step_on(e, e->impl, newton, mf, alpha, left, stress);
    return rc ? fail(e, rc) : 0;
}

static int resident_fetch(void *arg, double *y)
{
    struct sammon_engine *e = arg;
    int rc = fetch_on(e, e->impl, y);
    return rc ? fail(e, rc) : 0;
}

static const struct sammon_resident resident = { resident_load, resident_step,
                                                 resident_fetch };

/* The resident map's program and buffer, where the device has fp64 (else
 * the map stays with the driver: 0, e->resident NULL). */
static int open_resident(struct sammon_engine *e, struct cl_engine *k)
{
    cl_program prog;
    cl_int err;
    if (!rb_opencl_fp64(k->b.cl))
        return 0;
    int rc = rb_opencl_program(&k->c, "sammon_step", rb_cl_sammon_step, "", &prog);
    if (rc)
        return rc;
    k->to_float = clCreateKernel(prog, "sammon_map_to_float", &err);
    RB_CL_CHECK(&k->c, err);
    k->step = clCreateKernel(prog, "sammon_fixed_step", &err);
    RB_CL_CHECK(&k->c, err);
    if ((rc = rb_opencl_buffer(&k->c, k->b.cl, (size_t)e->N * e->m * sizeof(double), &k->yd)))
        return rc;
    e->resident = &resident;
    return 0;
}

static int engine_open(struct sammon_engine *e, const double *x)
{
    struct cl_engine *k = calloc(1, sizeof *k);
    if (!k)
        return RB_ENOMEM;
    e->impl = k;
    k->c = (struct rb_case){ .v = &engine_variant, .ctx = e->ctx, .prec = RB_PREC_F32 };
    const size_t K = (size_t)SAMMON_ENGINE_SUMS(e->m);
    float *xf = malloc((size_t)e->N * e->n * sizeof *xf);
    k->yh = malloc((size_t)e->N * e->m * sizeof *k->yh);
    k->sums_h = malloc((size_t)e->N * K * sizeof *k->sums_h);
    if (!xf || !k->yh || !k->sums_h) {
        free(xf);
        return RB_ENOMEM;
    }
    int rc = sammon_engine_floats(e, x, &k->scale, xf);
    if (rc == 0 && ((rc = open_device(e, k, xf)) != 0 || (rc = open_resident(e, k)) != 0))
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
    const size_t ny = (size_t)e->N * e->m, K = (size_t)SAMMON_ENGINE_SUMS(e->m);
    sammon_engine_to_float(ny, y, k->scale, k->yh);
    RB_CL_CHECK(&k->c, clEnqueueWriteBuffer(b->cl->queue, k->y, CL_FALSE, 0,
                                            ny * sizeof(float), k->yh, 0, NULL, NULL));
    int rc = sammon_cls_pass(&k->c, b, g ? SAMMON_CLS_EMBED : SAMMON_CLS_STRESS, k->y, 0.0f,
                             NULL);
    if (rc || (stress && (rc = stress_back(k, stress))))
        return rc;
    if (g)
        RB_CL_CHECK(&k->c, clEnqueueReadBuffer(b->cl->queue, b->sums, CL_TRUE, 0,
                                               (size_t)e->N * K * sizeof(float), k->sums_h, 0,
                                               NULL, NULL));
    if (g)
        sammon_engine_derivatives(e->N, e->m, k->sums_h, NULL, e->c, k->scale, g, h);
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
    cl_kernel kern[] = { k->to_float, k->step };
    for (size_t i = 0; i < sizeof kern / sizeof *kern; i++)
        if (kern[i])
            clReleaseKernel(kern[i]);
    cl_mem *const mem[] = { &k->y, &k->yd };
    rb_opencl_mems_release(mem, 2);
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
