/* SPDX-License-Identifier: MIT */
/* sbo-learn's OpenCL trainer: the device training of the harness variants
 * (sbo_opencl_train.h) driven outside the harness, through a minimal
 * context and case of its own (float, polar or the paper's Jacobi SVD). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "harness/backend/backend.h"
#include "harness/backend/opencl.h"
#include "harness/run/timer.h"
#include "impl/sbo/sbo_case.h"
#include "impl/sbo/sbo_learn.h"
#include "impl/sbo/sbo_opencl_train.h"

/* Work-items per group of the 1-D kernels: the harness variants' default. */
#define LEARN_WG 64

struct cl_learn {
    struct rb_ctx ctx;
    struct rb_case c;           /* what the train functions read: v, ctx, prec, msg */
    struct sbo_cl_train t;
    float *Y;                   /* p x m, uploaded again at the start of training */
    double build_s;
};

/* Named apart from the harness's "train" variants, so that faults aimed at
 * those (harness/run/fault.h) leave sbo-learn alone. */
static const struct rb_variant learn_polar = {
    .paper = "sbo", .algo = "learn", .name = "polar", .kind = SBO_KIND_POLAR,
    .backend = RB_BACKEND_OPENCL,
    .precs = RB_PREC_F32,
};
static const struct rb_variant learn_paper = {
    .paper = "sbo", .algo = "learn", .name = "paper", .kind = SBO_KIND_PAPER,
    .backend = RB_BACKEND_OPENCL,
    .precs = RB_PREC_F32,
};

static int fail(struct sbo_learn_run *r, int rc, const char *what)
{
    snprintf(r->msg, sizeof r->msg, "%s", what);
    return rc;
}

/* The device, as the harness picks it.  No device there, or an index that
 * names none, is bad input (RB_EINVAL), as a backend named without a device
 * is for reprobench. */
static int open_device(struct sbo_learn_run *r, struct cl_learn *st)
{
    char why[256];
    /* rb_ctx_init's values by hand: its object releases every backend, and
     * linking it would pull the CUDA and HIP libraries into sbo-learn. */
    memset(&st->ctx, 0, sizeof st->ctx);
    st->ctx.seed = r->opts.seed;
    st->ctx.cl_dir = getenv("RB_CL_DIR");
    memcpy(st->ctx.device, r->device, sizeof st->ctx.device);
    int rc = rb_opencl_get(&st->ctx, &st->t.cl, why, sizeof why);
    if (rc == RB_ENODEV && (r->device[RB_BACKEND_OPENCL].index >= 0
                            || r->device[RB_BACKEND_OPENCL].platform >= 0)) {
        char pick[64];
        rb_device_format(r->device, pick, sizeof pick);
        snprintf(r->msg, sizeof r->msg, "--device %s: %s", pick, why);
        return RB_EINVAL;
    }
    if (rc == RB_ENODEV) {
        snprintf(r->msg, sizeof r->msg, "--backend opencl: %s", why);
        return RB_EINVAL;
    }
    if (rc)
        return fail(r, rc, why);
    if (r->cl_clblast && !sbo_cl_have_clblast())
        return fail(r, RB_EINVAL, "--clblast: this build has no CLBlast");
    return 0;
}

static void describe(struct sbo_learn_run *r, const struct cl_learn *st)
{
    const struct rb_opencl *cl = st->t.cl;
    snprintf(r->note, sizeof r->note,
             "device\t%s\nplatform\t%s\ncl_platform\t%d\ncl_device\t%d\nsvd\t%s\n"
             "clblast\t%d\nprecision\tf32\nbuild_seconds\t%.3f\n"
             "train_includes\tupload of the patches, training, download of the blocks "
             "and the assignment\n",
             cl->name, cl->platform_name, cl->platform_index, cl->device_index,
             st->t.polar ? "polar" : "jacobi", st->t.clblast, st->build_s);
}

/* The training's metrics into the summary, as the CUDA and HIP trainers
 * give them: ms_device (its first command's start to its last's end),
 * launches and host_syncs, and the profile's with --profile. */
static int note_metrics(struct sbo_learn_run *r, struct cl_learn *st)
{
    struct sbo_cl_train *t = &st->t;
    struct rb_case *c = &st->c;
    cl_ulong start = 0, end = 0;
    c->nmetrics = 0;
    if (t->first && t->last) {
        RB_CL_CHECK(c, clGetEventProfilingInfo(t->first, CL_PROFILING_COMMAND_START,
                                               sizeof start, &start, NULL));
        RB_CL_CHECK(c, clGetEventProfilingInfo(t->last, CL_PROFILING_COMMAND_END, sizeof end,
                                               &end, NULL));
        rb_case_metric(c, "ms_device", end > start ? (double)(end - start) * 1e-6 : 0.0);
    }
    int rc = sbo_cl_prof_metrics(c, t);
    if (rc == 0 && !t->prof) {
        rb_case_metric(c, "launches", (double)t->launches);
        rb_case_metric(c, "host_syncs", (double)t->syncs);
    }
    if (rc == 0)
        sbo_learn_note_metrics(r, c);
    return rc;
}

int sbo_learn_cl_prepare(struct sbo_learn_run *r)
{
    const size_t p = SBO_LEARN_P, ny = p * (size_t)r->m, nd = (size_t)r->opts.L * p * p;
    struct cl_learn *st = calloc(1, sizeof *st);
    if (!st)
        return RB_ENOMEM;
    r->priv = st;
    int rc = open_device(r, st);
    if (rc)
        return rc;
    st->c = (struct rb_case){ .v = r->jacobi ? &learn_paper : &learn_polar,
                              .ctx = &st->ctx, .prec = RB_PREC_F32, .seed = r->opts.seed };
    struct sbo_cl_train *t = &st->t;
    t->p = SBO_LEARN_P;
    t->s = r->opts.s;
    t->L = r->opts.L;
    t->m = r->m;
    t->wg = LEARN_WG;
    t->clblast = r->cl_clblast;
    t->polar = !r->jacobi;
    t->prof = r->profile;
    st->Y = malloc(ny * sizeof *st->Y);
    float *D0 = calloc(nd, sizeof *D0);     /* each block is written before it is read */
    if (!st->Y || !D0) {
        free(D0);
        return RB_ENOMEM;
    }
    for (size_t k = 0; k < ny; k++)
        st->Y[k] = (float)r->Y[k];
    free(r->Y);                             /* as omp: the float copy is all we read */
    r->Y = NULL;
    rc = sbo_cl_train_prepare(&st->c, t, st->Y, D0);
    free(D0);
    st->build_s = st->c.build_ms / 1e3;
    if (rc == RB_ESKIP)                     /* the device cannot take the groups */
        rc = RB_EINVAL;
    if (rc)
        return fail(r, rc, st->c.msg);
    describe(r, st);
    return 0;
}

int sbo_learn_cl_train(struct sbo_learn_run *r)
{
    struct cl_learn *st = r->priv;
    struct sbo_cl_train *t = &st->t;
    struct rb_case *c = &st->c;
    cl_command_queue q = t->cl->queue;
    const size_t p = SBO_LEARN_P, ny = p * (size_t)r->m;
    /* Prepare uploaded Y with the build; training is timed from a fresh
     * upload, as a caller holding the patches on the host would pay it. */
    cl_int err = clEnqueueWriteBuffer(q, t->Y, CL_TRUE, 0, ny * sizeof *st->Y, st->Y, 0, NULL,
                                      NULL);
    if (err != CL_SUCCESS) {
        snprintf(r->msg, sizeof r->msg, "upload of the patches: %s", rb_cl_strerror(err));
        return RB_EDEVICE;
    }
    sbo_cl_prof_reset(t);
    uint64_t t0 = rb_now_ns();
    int rc = sbo_cl_train_run(c, t, &r->opts, &r->nb, &r->rmse);
    t->wall_ms = rb_ms_since(t0);
    if (rc == 0)
        rc = note_metrics(r, st);
    if (rc)
        return fail(r, rc, c->msg);
    size_t nd = (size_t)r->nb * p * p;
    float *D = malloc(nd * sizeof *D);
    if (!D)
        return RB_ENOMEM;
    err = clEnqueueReadBuffer(q, t->D, CL_TRUE, 0, nd * sizeof *D, D, 0, NULL, NULL);
    if (err == CL_SUCCESS)
        err = clEnqueueReadBuffer(q, t->best, CL_TRUE, 0, (size_t)r->m * sizeof(cl_int),
                                  r->assign, 0, NULL, NULL);
    for (size_t k = 0; err == CL_SUCCESS && k < nd; k++)
        r->D[k] = D[k];
    free(D);
    if (err != CL_SUCCESS) {
        snprintf(r->msg, sizeof r->msg, "download of the blocks: %s", rb_cl_strerror(err));
        return RB_EDEVICE;
    }
    return 0;
}

/* One representation pass of every patch with the learned blocks, the
 * RMSE from its energies; it ends with a blocking read, so the host clock
 * covers the device's work. */
int sbo_learn_cl_code(struct sbo_learn_run *r)
{
    struct cl_learn *st = r->priv;
    uint64_t t0 = rb_now_ns();
    int rc = sbo_cl_represent(&st->c, &st->t, r->nb, &r->code_rmse);
    r->code_s = rb_ms_since(t0) / 1e3;
    return rc ? fail(r, rc, st->c.msg) : 0;
}

void sbo_learn_cl_release(struct sbo_learn_run *r)
{
    struct cl_learn *st = r->priv;
    if (st) {
        sbo_cl_train_release(&st->t);
        rb_opencl_release(&st->ctx);
        free(st->Y);
        free(st);
    }
    r->priv = NULL;
}
