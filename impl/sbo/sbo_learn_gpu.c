/* SPDX-License-Identifier: MIT */
/* sbo-learn's CUDA and HIP trainers: the device training of the "train"
 * variants (the backend's engine, sbo_gpu.h) driven through a minimal
 * context and case of its own, in float, polar or the paper's Jacobi SVD.
 * The backend is data (struct sbo_learn_gpu: sbo_learn_cuda.c,
 * sbo_learn_hip.c). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "harness/ctx.h"
#include "harness/error.h"
#include "harness/run/timer.h"
#include "harness/variant.h"
#include "impl/sbo/sbo_case.h"
#include "impl/sbo/sbo_gpu.h"
#include "impl/sbo/sbo_learn.h"

/* Threads a block of the per-signal and per-matrix kernels: the block the
 * harness's CUDA training table (README) was measured at. */
#define LEARN_BLOCK 128

struct gpu_learn {
    const struct sbo_learn_gpu *g;
    const struct sbo_gpu_engine *e;
    /* Named apart from the harness's "train" variants, so that faults aimed
     * at those (harness/run/fault.h) leave sbo-learn alone. */
    struct rb_variant v;
    struct rb_ctx ctx;
    struct rb_case c;           /* what the training reads: v, ctx, prec, msg, device */
    struct sbo_gpu_train_dev *t;
    float *Y;                   /* p x m, uploaded again at the start of training */
    float *D;                   /* L p^2: the blocks as read back */
};

static int fail(struct sbo_learn_run *r, int rc, const char *what)
{
    snprintf(r->msg, sizeof r->msg, "%s", what);
    return rc;
}

/* The device's index: --device's, else 0. */
static int device_index(const struct gpu_learn *st)
{
    const int d = st->ctx.device[st->g->backend].index;
    return d >= 0 ? d : 0;
}

static void describe(struct sbo_learn_run *r, struct gpu_learn *st)
{
    snprintf(r->note, sizeof r->note,
             "device\t%s\n%s_device\t%d\nsvd\t%s\ncublas\t%d\nprecision\tf32\n"
             "block\t%d\nsetup_seconds\t%.3f\nbuild_seconds\t%.3f\n"
             "build_includes\ta warm-up training of 2 blocks that loads every kernel\n"
             "train_includes\tupload of the patches, training, download of the blocks "
             "and the assignment\n",
             st->c.device, st->g->name, device_index(st), r->jacobi ? "jacobi" : "polar",
             r->cublas,
             LEARN_BLOCK, st->c.transfer_ms / 1e3, st->c.build_ms / 1e3);
}

/* The device side's failure as sbo-learn reports it: no device there, or
 * an index that names none, is bad input, as a backend named without a
 * device is for reprobench; so is what this build cannot do. */
static int open_failed(struct sbo_learn_run *r, const struct gpu_learn *st, int rc)
{
    const int asked = r->device[st->g->backend].index;
    /* The reason cut to leave room for the option in r->msg. */
    if (rc == RB_ENODEV && asked >= 0)
        snprintf(r->msg, sizeof r->msg, "--device %s:%d: %.440s", st->g->name, asked,
                 st->c.msg);
    else if (rc == RB_ENODEV || rc == RB_ESKIP)
        snprintf(r->msg, sizeof r->msg, "--backend %s: %.440s", st->g->name, st->c.msg);
    else
        return fail(r, rc, st->c.msg);
    return RB_EINVAL;
}

int sbo_learn_gpu_prepare(const struct sbo_learn_gpu *g, struct sbo_learn_run *r)
{
    const size_t p = SBO_LEARN_P, ny = p * (size_t)r->m, nd = (size_t)r->opts.L * p * p;
    struct gpu_learn *st = calloc(1, sizeof *st);
    if (!st)
        return RB_ENOMEM;
    r->priv = st;
    st->g = g;
    st->e = g->engine();
    st->v = (struct rb_variant){
        .paper = "sbo", .algo = "learn", .name = r->jacobi ? "paper" : "polar",
        .kind = r->jacobi ? SBO_KIND_PAPER : SBO_KIND_POLAR, .backend = g->backend,
        .precs = RB_PREC_F32,
    };
    /* rb_ctx_init's values by hand: its object releases every backend. */
    st->ctx.seed = r->opts.seed;
    memcpy(st->ctx.device, r->device, sizeof st->ctx.device);
    st->c = (struct rb_case){ .v = &st->v, .ctx = &st->ctx,
                              .prec = RB_PREC_F32, .seed = r->opts.seed, .device_ms = -1,
                              .transfer_ms = -1, .build_ms = -1 };
    if (r->cublas && !st->e->have_cublas())
        return fail(r, RB_EINVAL, "--cublas: this build has no cuBLAS");
    st->Y = malloc(ny * sizeof *st->Y);
    st->D = malloc(nd * sizeof *st->D);
    if (!st->Y || !st->D)
        return RB_ENOMEM;
    for (size_t k = 0; k < ny; k++)
        st->Y[k] = (float)r->Y[k];
    free(r->Y);                             /* as omp: the float copy is all we read */
    r->Y = NULL;
    int rc = st->e->open(&st->c, SBO_LEARN_P, r->opts.s, r->opts.L, r->m, LEARN_BLOCK,
                         !r->jacobi, r->cublas, r->profile, st->Y, &st->t);
    if (rc)
        return open_failed(r, st, rc);
    describe(r, st);
    return 0;
}

int sbo_learn_gpu_train(struct sbo_learn_run *r)
{
    struct gpu_learn *st = r->priv;
    int rc = st->e->fit(&st->c, st->t, st->Y, &r->opts, &r->nb, &r->rmse, st->D, r->assign);
    if (rc)
        return fail(r, rc, st->c.msg);
    sbo_learn_note_metrics(r, &st->c);
    for (size_t k = 0; k < (size_t)r->nb * SBO_LEARN_P * SBO_LEARN_P; k++)
        r->D[k] = st->D[k];
    return 0;
}

/* One representation pass of every patch with the learned blocks, the RMSE
 * from its energies; it returns after the device is done, so the host
 * clock covers the device's work. */
int sbo_learn_gpu_code(struct sbo_learn_run *r)
{
    struct gpu_learn *st = r->priv;
    uint64_t t0 = rb_now_ns();
    int rc = st->e->code(&st->c, st->t, r->nb, &r->code_rmse);
    r->code_s = rb_ms_since(t0) / 1e3;
    return rc ? fail(r, rc, st->c.msg) : 0;
}

void sbo_learn_gpu_release(struct sbo_learn_run *r)
{
    struct gpu_learn *st = r->priv;
    if (st) {
        if (st->e)
            st->e->close(st->t);
        if (st->g)
            st->g->release(&st->ctx);
        free(st->Y);
        free(st->D);
        free(st);
    }
    r->priv = NULL;
}
