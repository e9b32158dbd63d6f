/* SPDX-License-Identifier: MIT */
/* The SBO training loop on an OpenCL device: sbo_train's steps (sbo_train.c)
 * with each one on the device (sbo_opencl_train_steps.c); the host keeps
 * the round and block counts, reads back the RMSE's partial sums (of
 * several passes at once when only the trace wants them) and the block
 * counts, and sets the GEMMs' offsets from them. */
#include <stdio.h>
#include <stdlib.h>
#include "impl/common/rng.h"
#include "impl/sbo/sbo_opencl_train.h"

/* At most 1ONB's batch: one entry per block. */
struct batch {
    int n, first;               /* blocks first .. first + n - 1 */
    cl_mem src;                 /* their signals: Y, or the gathered Ysub */
    int ncols;                  /* columns per block: the largest count */
    size_t *off;                /* 5 n: each block's first signal, then scratch */
};

/* cnt[0] = n without a wait: the fill takes its pattern at the call. */
static int write_count(struct rb_case *c, struct sbo_cl_train *t, int n)
{
    const cl_int v = n;
    return rb_opencl_fill(c, t->cl, t->cnt, &v, sizeof v, sizeof v);
}

/* `iters` iterations of 1ONB on every block of the batch at once: codes
 * C_g = H_s(Q_g^T Y_g) (GEMM, thresholding), M_g = Y_g C_g^T (GEMM), then
 * Q_g from M_g.  A block's padding columns (past its count) are zeroed by
 * the thresholding, so they add nothing to M_g. */
static int onb(struct rb_case *c, struct sbo_cl_train *t, const struct batch *b, int iters)
{
    const size_t p = (size_t)t->p, pp = p * p;
    size_t *qoff = b->off + b->n, *yoff = qoff + b->n, *coff = yoff + b->n, *moff = coff + b->n;
    for (int g = 0; g < b->n; g++) {
        qoff[g] = (size_t)(b->first + g) * pp;
        yoff[g] = b->off[g] * p;
        coff[g] = (size_t)g * p * b->ncols;
        moff[g] = (size_t)g * pp;
    }
    int rc = 0;
    for (int it = 0; it < iters && rc == 0; it++) {
        rc = sbo_cl_gemm(c, t, 1, 0, t->p, b->ncols, t->p, t->D, qoff, b->src, yoff, t->C, coff,
                         b->n);
        if (rc == 0)
            rc = sbo_cl_threshold(c, t, b->n, b->ncols);
        if (rc == 0)
            rc = sbo_cl_gemm(c, t, 0, 1, t->p, t->p, b->ncols, b->src, yoff, t->C, coff, t->M,
                             moff, b->n);
        if (rc == 0)
            rc = t->polar ? sbo_cl_polar(c, t, b->n, b->first, NULL)
                          : sbo_cl_svd_product(c, t, b->n, b->first, t->cnt, 0);
    }
    return rc;
}

/* The initial basis of block `first` from its n signals in src (offset 0):
 * svd_of_data as the SVD of G = Y Y^T (its U by descending singular
 * value); identity and random_orth drawn on the host as sbo_init_basis
 * does, then uploaded.  t->cnt[0] must hold n. */
static int init_basis(struct rb_case *c, struct sbo_cl_train *t, const struct sbo_opts *o,
                      int first, cl_mem src, int n)
{
    const size_t pp = (size_t)t->p * t->p, zero = 0;
    char key[32];
    snprintf(key, sizeof key, "sbo/init/%d", first);
    if (o->init == SBO_INIT_SVD_OF_DATA) {
        int rc = sbo_cl_gemm(c, t, 0, 1, t->p, t->p, n, src, &zero, src, &zero, t->M, &zero, 1);
        return rc ? rc : sbo_cl_svd_product(c, t, 1, first, t->cnt, 1);
    }
    double *q = malloc(pp * sizeof *q);
    float *qf = malloc(pp * sizeof *qf);
    int rc = q && qf ? sbo_init_basis(t->p, 0, NULL, o->init, rb_seed_derive(o->seed, key), q)
                     : RB_ENOMEM;
    if (rc) {
        rc = rb_fail(c, rc, "initial basis of block %d", first);
        goto out_free;
    }
    for (size_t k = 0; k < pp; k++)
        qf[k] = (float)q[k];
    t->syncs++;
    cl_int err = clEnqueueWriteBuffer(t->cl->queue, t->D, CL_TRUE, first * pp * t->sz,
                                      pp * t->sz, t->f64 ? (void *)q : (void *)qf, 0, NULL,
                                      NULL);
    if (err != CL_SUCCESS)
        rc = rb_fail(c, RB_EDEVICE, "initial basis upload: %s", rb_cl_strerror(err));
out_free:
    free(qf);
    free(q);
    return rc;
}

/* A new block `nb` trained on the W signals of largest residual. */
static int add_block(struct rb_case *c, struct sbo_cl_train *t, const struct sbo_opts *o,
                     int nb, size_t *off)
{
    int W = sbo_worst_count(o, t->m);
    int rc = sbo_cl_worst(c, t, W);
    if (rc == 0)
        rc = sbo_cl_gather(c, t, t->idx, W);
    if (rc == 0)
        rc = write_count(c, t, W);
    if (rc == 0)
        rc = init_basis(c, t, o, nb, t->Ysub, W);
    off[0] = 0;
    struct batch b = { .n = 1, .first = nb, .src = t->Ysub, .ncols = W, .off = off };
    return rc ? rc : onb(c, t, &b, o->K);
}

/* Each block's 1ONB on its own signals, all blocks in one batch; an empty
 * block is left as is (its count 0 skips its update). */
static int refine(struct rb_case *c, struct sbo_cl_train *t, const struct sbo_opts *o, int nb,
                  size_t *off)
{
    int rc = sbo_cl_group(c, t, nb);
    if (rc)
        return rc;
    struct batch b = { .n = nb, .first = 0, .src = t->Ysub, .ncols = 1, .off = off };
    size_t at = 0;
    for (int j = 0; j < nb; j++) {
        off[j] = at;
        at += (size_t)t->cnt_h[j];
        b.ncols = t->cnt_h[j] > b.ncols ? t->cnt_h[j] : b.ncols;
    }
    rc = sbo_cl_gather(c, t, t->order, t->m);
    return rc ? rc : onb(c, t, &b, o->refine_iters);
}

int sbo_cl_train_run(struct rb_case *c, struct sbo_cl_train *t, const struct sbo_opts *o,
                     int *nb, double *rmse)
{
    if (o->s != t->s || o->L < 1 || o->L > t->L || o->K < 0 || o->R < 0
        || o->refine_iters < 0)
        return rb_fail(c, RB_EINVAL, "options s=%d L=%d K=%d R=%d for a device set up for "
                       "s=%d L=%d", o->s, o->L, o->K, o->R, t->s, t->L);
    size_t *off = malloc(5 * (size_t)t->L * sizeof *off);
    if (!off)
        return rb_fail(c, RB_ENOMEM, "offsets of %d blocks", t->L);
    int rc = sbo_cl_ynorm(c, t);
    if (rc == 0)
        rc = write_count(c, t, t->m);
    if (rc == 0)
        rc = init_basis(c, t, o, 0, t->Y, t->m);
    off[0] = 0;
    struct batch b = { .n = 1, .first = 0, .src = t->Y, .ncols = t->m, .off = off };
    if (rc == 0)
        rc = onb(c, t, &b, o->K);
    *nb = 1;
    int pend_nb[SBO_CL_PASSES], pend_round[SBO_CL_PASSES];
    t->npend = 0;
    /* As sbo_train: one representation pass per round; `round` counts the
     * refinement rounds since the last block was added (0: just added).
     * Only the stopping test needs the RMSE at once; a refinement round's
     * waits on the device for the trace, read with later ones when the
     * trace may lag, and is not kept when there is no trace. */
    for (int round = 0; rc == 0; round++) {
        const int refining = *nb > 1 && round < o->R, keep = !refining || o->trace;
        if ((rc = sbo_cl_represent_enqueue(c, t, *nb, keep)))
            break;
        if (keep) {
            pend_nb[t->npend - 1] = *nb;
            pend_round[t->npend - 1] = round;
        }
        if (!refining || (o->trace && !t->defer_trace) || t->npend == SBO_CL_PASSES) {
            int n;
            if ((rc = sbo_cl_rmse_read(c, t, &n)))
                break;
            for (int k = 0; k < n && o->trace; k++)
                o->trace(pend_nb[k], pend_round[k], t->rmse_h[k], o->trace_arg);
            *rmse = t->rmse_h[n - 1];
        }
        if (refining) {
            rc = refine(c, t, o, *nb, off);
            continue;
        }
        if (*nb >= o->L || *rmse <= o->target_rmse)
            break;
        rc = add_block(c, t, o, *nb, off);
        if (rc == 0)
            ++*nb;
        round = -1;
    }
    free(off);
    return rc;
}
