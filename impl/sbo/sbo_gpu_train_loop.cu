// SPDX-License-Identifier: MIT
// The CUDA and HIP SBO training loop, as the OpenCL one (sbo_opencl_train.c):
// sbo_train's steps (sbo_train.c) each on the device (sbo_gpu_train_steps.cu);
// the host keeps the round and block counts, reads back the RMSE's partial
// sums (of several passes at once when only the trace wants them) and the
// block counts, and sets the GEMMs' offsets from them.  Compiled once for
// CUDA and once for HIP (sbo_gpu_train_state.h).
#include <config.h>
#include <stdio.h>
#include <stdlib.h>
#include "impl/common/rng.h"
#include "impl/sbo/sbo_case.h"
#include "impl/sbo/sbo_gpu_train_state.h"

namespace sbo_gpu {
inline namespace RB_GPU_NS {

// At most 1ONB's batch: one entry per block.
struct batch {
    int n, first;               // blocks first .. first + n - 1
    const void *src;            // their signals: Y, or the gathered Ysub
    int ncols;                  // columns per block: the largest count
    size_t *off;                // 5 n: each block's first signal, then scratch
};

// cnt[0] = n in stream order, without a wait.
static int write_count(struct rb_case *c, gtrain *t, int n)
{
    sbo_set_int<<<1, 1, 0, t->stream>>>(t->cnt, n);
    GPU_CHECK_LAUNCH(c);
    return 0;
}

// `iters` iterations of 1ONB on every block of the batch at once: codes
// C_g = H_s(Q_g^T Y_g) (GEMM, thresholding), M_g = Y_g C_g^T (GEMM), then
// Q_g from M_g.  A block's padding columns are zeroed by the thresholding.
template <typename T>
static int onb(struct rb_case *c, gtrain *t, const struct batch *b, int iters)
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
        rc = gt_gemm<T>(c, t, 1, 0, t->p, b->ncols, t->p, t->D, qoff, b->src, yoff, t->C, coff,
                        b->n);
        if (rc == 0)
            rc = gt_threshold<T>(c, t, b->n, b->ncols);
        if (rc == 0)
            rc = gt_gemm<T>(c, t, 0, 1, t->p, t->p, b->ncols, b->src, yoff, t->C, coff, t->M,
                            moff, b->n);
        if (rc == 0)
            rc = t->polar ? gt_polar<T>(c, t, b->n, b->first, NULL)
                          : gt_svd_product<T>(c, t, b->n, b->first, t->cnt, 0);
    }
    return rc;
}

// The initial basis of block `first` from its n signals in src: svd_of_data
// as the SVD of G = Y Y^T (its U by descending singular value); identity
// and random_orth drawn on the host as sbo_init_basis does, then uploaded.
// cnt[0] must hold n.
template <typename T>
static int init_basis(struct rb_case *c, gtrain *t, const struct sbo_opts *o, int first,
                      const void *src, int n)
{
    const size_t pp = (size_t)t->p * t->p, zero = 0;
    if (o->init == SBO_INIT_SVD_OF_DATA) {
        int rc = gt_gemm<T>(c, t, 0, 1, t->p, t->p, n, src, &zero, src, &zero, t->M, &zero, 1);
        return rc ? rc : gt_svd_product<T>(c, t, 1, first, t->cnt, 1);
    }
    char key[32];
    snprintf(key, sizeof key, "sbo/init/%d", first);
    double *q = (double *)malloc(pp * sizeof *q);
    T *qt = (T *)malloc(pp * sizeof *qt);
    int rc = q && qt ? sbo_init_basis(t->p, 0, NULL, o->init, rb_seed_derive(o->seed, key), q)
                     : RB_ENOMEM;
    if (rc) {
        rc = rb_fail(c, rc, "initial basis of block %d", first);
        goto out_free;
    }
    for (size_t k = 0; k < pp; k++)
        qt[k] = (T)q[k];
    t->syncs++;
    if (gpuMemcpyAsync((char *)t->D + first * pp * sizeof(T), qt, pp * sizeof(T),
                       gpuMemcpyHostToDevice, t->stream) != gpuSuccess
        || gpuStreamSynchronize(t->stream) != gpuSuccess) {
        (void)gpuGetLastError();
        rc = rb_fail(c, RB_EDEVICE, "initial basis upload of block %d", first);
    }
out_free:
    free(qt);
    free(q);
    return rc;
}

// A new block `nb` trained on the W signals of largest residual.
template <typename T>
static int add_block(struct rb_case *c, gtrain *t, const struct sbo_opts *o, int nb,
                     size_t *off)
{
    int W = sbo_worst_count(o, t->m);
    int rc = gt_worst<T>(c, t, W);
    if (rc == 0)
        rc = gt_gather<T>(c, t, t->idx, W);
    if (rc == 0)
        rc = write_count(c, t, W);
    if (rc == 0)
        rc = init_basis<T>(c, t, o, nb, t->Ysub, W);
    off[0] = 0;
    struct batch b = { 1, nb, t->Ysub, W, off };
    return rc ? rc : onb<T>(c, t, &b, o->K);
}

// Each block's 1ONB on its own signals, all blocks in one batch; an empty
// block is left as is (its count 0 skips its update).
template <typename T>
static int refine(struct rb_case *c, gtrain *t, const struct sbo_opts *o, int nb, size_t *off)
{
    int rc = gt_group<T>(c, t, nb);
    if (rc)
        return rc;
    struct batch b = { nb, 0, t->Ysub, 1, off };
    size_t at = 0;
    for (int j = 0; j < nb; j++) {
        off[j] = at;
        at += (size_t)t->cnt_h[j];
        b.ncols = t->cnt_h[j] > b.ncols ? t->cnt_h[j] : b.ncols;
    }
    rc = gt_gather<T>(c, t, t->order, t->m);
    return rc ? rc : onb<T>(c, t, &b, o->refine_iters);
}

// sbo_train on the device from the uploaded Y: D gets the blocks, best the
// final assignment; *nb and *rmse as sbo_train's, o->trace after each
// representation pass (several at once, late, when defer_trace).
template <typename T>
int train_loop(struct rb_case *c, gtrain *t, const struct sbo_opts *o, int *nb, double *rmse)
{
    if (o->s != t->s || o->L < 1 || o->L > t->L || o->K < 0 || o->R < 0
        || o->refine_iters < 0)
        return rb_fail(c, RB_EINVAL, "options s=%d L=%d K=%d R=%d for a device set up for "
                       "s=%d L=%d", o->s, o->L, o->K, o->R, t->s, t->L);
    size_t *off = (size_t *)malloc(5 * (size_t)t->L * sizeof *off);
    if (!off)
        return rb_fail(c, RB_ENOMEM, "offsets of %d blocks", t->L);
    int rc = gt_ynorm<T>(c, t);
    if (rc == 0)
        rc = write_count(c, t, t->m);
    if (rc == 0)
        rc = init_basis<T>(c, t, o, 0, t->Y, t->m);
    off[0] = 0;
    struct batch b = { 1, 0, t->Y, t->m, off };
    if (rc == 0)
        rc = onb<T>(c, t, &b, o->K);
    *nb = 1;
    int pend_nb[SBO_GPU_PASSES], pend_round[SBO_GPU_PASSES];
    t->npend = 0;
    // As sbo_train: one representation pass per round; `round` counts the
    // refinement rounds since the last block was added (0: just added).
    // Only the stopping test needs the RMSE at once.
    for (int round = 0; rc == 0; round++) {
        const int refining = *nb > 1 && round < o->R, keep = !refining || o->trace;
        if ((rc = gt_represent_enqueue<T>(c, t, *nb, keep)))
            break;
        if (keep) {
            pend_nb[t->npend - 1] = *nb;
            pend_round[t->npend - 1] = round;
        }
        if (!refining || (o->trace && !t->defer_trace) || t->npend == SBO_GPU_PASSES) {
            int n;
            if ((rc = gt_rmse_read<T>(c, t, &n)))
                break;
            for (int k = 0; k < n && o->trace; k++)
                o->trace(pend_nb[k], pend_round[k], t->rmse_h[k], o->trace_arg);
            if (n > 0)
                *rmse = t->rmse_h[n - 1];
        }
        if (refining) {
            rc = refine<T>(c, t, o, *nb, off);
            continue;
        }
        if (*nb >= o->L || *rmse <= o->target_rmse)
            break;
        rc = add_block<T>(c, t, o, *nb, off);
        if (rc == 0)
            ++*nb;
        round = -1;
    }
    free(off);
    return rc;
}

template int train_loop<float>(struct rb_case *, gtrain *, const struct sbo_opts *, int *,
                               double *);
template int train_loop<double>(struct rb_case *, gtrain *, const struct sbo_opts *, int *,
                                double *);

} // namespace RB_GPU_NS
} // namespace sbo_gpu
