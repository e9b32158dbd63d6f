/* SPDX-License-Identifier: MIT */
/* The steps of the OpenCL SBO training, one or a few kernel launches each:
 * the representation with the energy update, the worst-W selection, the
 * grouping and gather, thresholding, the batched GEMM, and the per-block
 * SVD or polar iteration with Q = U V^T.  The NDRanges are in the kernels'
 * comments (kernels/opencl/sbo_train_*.cl). */
#include <math.h>
#include <string.h>
#include "impl/sbo/sbo_gemm_split.h"
#include "impl/sbo/sbo_opencl_train.h"
#include "impl/sbo/sbo_sort.h"

static size_t round_up(size_t x, size_t to)
{
    return (x + to - 1) / to * to;
}

static cl_int arg_int(cl_kernel k, cl_uint i, int v)
{
    return clSetKernelArg(k, i, sizeof v, &v);
}

static cl_int arg_mem(cl_kernel k, cl_uint i, cl_mem v)
{
    return clSetKernelArg(k, i, sizeof v, &v);
}

static cl_int arg_local(cl_kernel k, cl_uint i, size_t bytes)
{
    return clSetKernelArg(k, i, bytes, NULL);
}

/* Enqueue kernel `which`; the run's first command keeps its event, and
 * every launch when profiling. */
static int enqueue(struct rb_case *c, struct sbo_cl_train *t, int which, cl_uint dims,
                   const size_t *global, const size_t *local)
{
    cl_event ev = NULL;
    cl_event *evp = t->prof || !t->first ? &ev : NULL;
    RB_CL_CHECK(c, clEnqueueNDRangeKernel(t->cl->queue, t->k[which], dims, NULL, global, local,
                                          0, NULL, evp));
    return sbo_cl_launched(c, t, which, ev);
}

/* One work-item per element of n, groups of wg. */
static int enqueue_1d(struct rb_case *c, struct sbo_cl_train *t, int which, size_t n)
{
    const size_t local = (size_t)t->wg, global = round_up(n ? n : 1, local);
    return enqueue(c, t, which, 1, &global, &local);
}

/* nbatch groups of wg work-items, one group per block. */
static int enqueue_blocks(struct rb_case *c, struct sbo_cl_train *t, int which, int nbatch)
{
    const size_t local = (size_t)t->wg, global = local * (size_t)nbatch;
    return enqueue(c, t, which, 1, &global, &local);
}

int sbo_cl_ynorm(struct rb_case *c, struct sbo_cl_train *t)
{
    cl_kernel k = t->k[SBO_TK_YNORM];
    RB_CL_CHECK(c, arg_int(k, 0, t->m));
    RB_CL_CHECK(c, arg_mem(k, 1, t->Y));
    RB_CL_CHECK(c, arg_mem(k, 2, t->ynorm));
    return enqueue_1d(c, t, SBO_TK_YNORM, (size_t)t->m);
}

int sbo_cl_represent_enqueue(struct rb_case *c, struct sbo_cl_train *t, int nb, int keep)
{
    if (t->npend >= SBO_CL_PASSES)
        return rb_fail(c, RB_EINVAL, "%d representation passes pending", t->npend);
    cl_kernel ke = t->k[SBO_TK_ENERGY], ka = t->k[SBO_TK_ARGMAX], ku = t->k[SBO_TK_UPDATE];
    RB_CL_CHECK(c, arg_int(ke, 0, t->m));       /* the paper's map */
    RB_CL_CHECK(c, arg_mem(ke, 1, t->D));
    RB_CL_CHECK(c, arg_mem(ke, 2, t->Y));
    RB_CL_CHECK(c, arg_mem(ke, 3, t->E));
    const size_t local[2] = { (size_t)t->wg, 1 };
    const size_t global[2] = { round_up((size_t)t->m, (size_t)t->wg), (size_t)nb };
    int rc = enqueue(c, t, SBO_TK_ENERGY, 2, global, local);
    if (rc)
        return rc;
    RB_CL_CHECK(c, arg_int(ka, 0, t->m));       /* its reduce */
    RB_CL_CHECK(c, arg_int(ka, 1, nb));
    RB_CL_CHECK(c, arg_mem(ka, 2, t->E));
    RB_CL_CHECK(c, arg_mem(ka, 3, t->best));
    RB_CL_CHECK(c, arg_mem(ka, 4, t->energy));
    if ((rc = enqueue_1d(c, t, SBO_TK_ARGMAX, (size_t)t->m)))
        return rc;
    RB_CL_CHECK(c, arg_int(ku, 0, t->m));       /* the energy update */
    RB_CL_CHECK(c, arg_mem(ku, 1, t->ynorm));
    RB_CL_CHECK(c, arg_mem(ku, 2, t->energy));
    RB_CL_CHECK(c, arg_mem(ku, 3, t->r));
    RB_CL_CHECK(c, arg_mem(ku, 4, t->part));
    RB_CL_CHECK(c, arg_local(ku, 5, (size_t)t->wg * t->sz));
    RB_CL_CHECK(c, arg_int(ku, 6, t->npend * t->npart));
    if ((rc = enqueue_1d(c, t, SBO_TK_UPDATE, (size_t)t->npart * t->wg)))
        return rc;
    t->npend += keep != 0;
    return 0;
}

int sbo_cl_rmse_read(struct rb_case *c, struct sbo_cl_train *t, int *n)
{
    *n = t->npend;
    if (t->npend == 0)
        return 0;
    if (t->last)
        clReleaseEvent(t->last);
    t->last = NULL;
    t->npend = 0;
    t->syncs++;
    RB_CL_CHECK(c, clEnqueueReadBuffer(t->cl->queue, t->part, CL_TRUE, 0,
                                       (size_t)*n * t->npart * t->sz, t->part_h, 0, NULL,
                                       &t->last));
    const double *pd = t->part_h;
    const float *pf = t->part_h;
    for (int k = 0; k < *n; k++) {
        double sum = 0.0;       /* in slot order, as the one-pass read added them */
        for (int g = k * t->npart; g < (k + 1) * t->npart; g++)
            sum += t->f64 ? pd[g] : pf[g];
        t->rmse_h[k] = sqrt(sum / ((double)t->p * t->m));
    }
    return 0;
}

int sbo_cl_represent(struct rb_case *c, struct sbo_cl_train *t, int nb, double *rmse)
{
    int n, rc = sbo_cl_represent_enqueue(c, t, nb, 1);
    if (rc == 0)
        rc = sbo_cl_rmse_read(c, t, &n);
    if (rc == 0)
        *rmse = t->rmse_h[n - 1];
    return rc;
}

/* The arguments sbo_radix_count and sbo_radix_scatter share, first in both:
 * the sizes, the digit's source and the chunks' counts. */
static cl_int sort_args(cl_kernel k, const struct sbo_cl_train *t, int nb, int by_block,
                        int first, cl_mem seq, int shift)
{
    cl_int err = arg_int(k, 0, t->m);
    err = err ? err : arg_int(k, 1, t->chunk);
    err = err ? err : arg_int(k, 2, nb);
    err = err ? err : arg_int(k, 3, by_block);
    err = err ? err : arg_mem(k, 4, t->best);
    err = err ? err : arg_mem(k, 5, t->r);
    err = err ? err : arg_int(k, 6, first);
    err = err ? err : arg_mem(k, 7, seq);
    err = err ? err : arg_int(k, 8, shift);
    return err ? err : arg_mem(k, 9, t->tiles);
}

/* One pass of the stable sort (kernels/opencl/sbo_train_select.cl): the m
 * signals by their digit (below nb): best's when by_block, else bits shift
 * .. shift + 7 of r's key at seq (at k when first), into out[0 .. len-1];
 * cnt gets each digit's count when want_counts. */
static int radix_pass(struct rb_case *c, struct sbo_cl_train *t, int nb, int by_block,
                      int first, cl_mem seq, int shift, int len, cl_mem out, int want_counts)
{
    cl_kernel kc = t->k[SBO_TK_COUNT], kx = t->k[SBO_TK_SCATTER];
    RB_CL_CHECK(c, sort_args(kc, t, nb, by_block, first, seq, shift));
    RB_CL_CHECK(c, arg_local(kc, 10, (size_t)nb * sizeof(cl_int)));
    int rc = enqueue_blocks(c, t, SBO_TK_COUNT, t->ntiles);
    if (rc)
        return rc;
    RB_CL_CHECK(c, sort_args(kx, t, nb, by_block, first, seq, shift));
    RB_CL_CHECK(c, arg_int(kx, 10, len));
    RB_CL_CHECK(c, arg_mem(kx, 11, out));
    RB_CL_CHECK(c, arg_int(kx, 12, want_counts));
    RB_CL_CHECK(c, arg_mem(kx, 13, t->cnt));
    RB_CL_CHECK(c, arg_local(kx, 14, (size_t)nb * sizeof(cl_int)));
    RB_CL_CHECK(c, arg_local(kx, 15, (size_t)nb * sizeof(cl_int)));
    RB_CL_CHECK(c, arg_local(kx, 16, (size_t)t->wg * sizeof(cl_int)));
    return enqueue_blocks(c, t, SBO_TK_SCATTER, t->ntiles);
}

/* The signals sorted by r's key 8 bits a pass from the lowest (stable, so
 * ties keep the lower index first), between order and seq; the last pass
 * keeps the first W, in idx. */
int sbo_cl_worst(struct rb_case *c, struct sbo_cl_train *t, int W)
{
    const int passes = (int)(8 * t->sz) / SBO_SORT_BITS;
    cl_mem in = t->seq;         /* not read by the first pass */
    int rc = 0;
    for (int k = 0; k < passes && rc == 0; k++) {
        const int last = k == passes - 1;
        cl_mem out = last ? t->idx : k % 2 ? t->seq : t->order;
        rc = radix_pass(c, t, SBO_SORT_BUCKETS, 0, k == 0, in, k * SBO_SORT_BITS,
                        last ? W : t->m, out, 0);
        in = out;
    }
    return rc;
}

int sbo_cl_group(struct rb_case *c, struct sbo_cl_train *t, int nb)
{
    int rc = radix_pass(c, t, nb, 1, 1, t->seq, 0, t->m, t->order, 1);
    if (rc)
        return rc;
    t->syncs++;
    return rb_opencl_download(c, t->cl, t->cnt, 0, t->cnt_h, (size_t)nb * sizeof(cl_int));
}

int sbo_cl_gather(struct rb_case *c, struct sbo_cl_train *t, cl_mem list, int n)
{
    cl_kernel k = t->k[SBO_TK_GATHER];
    RB_CL_CHECK(c, arg_int(k, 0, n));
    RB_CL_CHECK(c, arg_mem(k, 1, list));
    RB_CL_CHECK(c, arg_mem(k, 2, t->Y));
    RB_CL_CHECK(c, arg_mem(k, 3, t->Ysub));
    return enqueue_1d(c, t, SBO_TK_GATHER, (size_t)n * t->p);
}

int sbo_cl_threshold(struct rb_case *c, struct sbo_cl_train *t, int nbatch, int ncols)
{
    cl_kernel k = t->k[SBO_TK_THRESHOLD];
    RB_CL_CHECK(c, arg_int(k, 0, ncols));
    RB_CL_CHECK(c, arg_mem(k, 1, t->cnt));
    RB_CL_CHECK(c, arg_mem(k, 2, t->C));
    const size_t local[2] = { (size_t)t->wg, 1 };
    const size_t global[2] = { round_up((size_t)ncols, (size_t)t->wg), (size_t)nbatch };
    return enqueue(c, t, SBO_TK_THRESHOLD, 2, global, local);
}

/* Wait, if it has not finished, for the last upload from half `half` of
 * t->offs_h, which is about to change: the only wait of a GEMM. */
static int upload_done(struct rb_case *c, struct sbo_cl_train *t, int half)
{
    cl_event ev = t->offs_ev[half];
    if (!ev)
        return 0;
    cl_int st = CL_QUEUED;
    RB_CL_CHECK(c, clGetEventInfo(ev, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof st, &st, NULL));
    if (st != CL_COMPLETE) {
        t->syncs++;
        RB_CL_CHECK(c, clWaitForEvents(1, &ev));
    }
    clReleaseEvent(ev);
    t->offs_ev[half] = NULL;
    return 0;
}

/* The offsets of a batched GEMM into one of the two halves of t->offs
 * (each 3 L entries), reusing a half that holds them already: 1ONB
 * alternates two GEMMs with fixed offsets.  The half's base, or -1. */
static int offsets_slot(struct rb_case *c, struct sbo_cl_train *t, const size_t *aoff,
                        const size_t *boff, const size_t *coff, int nbatch)
{
    cl_ulong *o = t->offs_h + 6 * (size_t)t->L;      /* the scratch third */
    for (int g = 0; g < nbatch; g++) {
        o[g] = aoff[g];
        o[nbatch + g] = boff[g];
        o[2 * nbatch + g] = coff[g];
    }
    const size_t bytes = 3 * (size_t)nbatch * sizeof *o, stride = 3 * (size_t)t->L;
    for (int half = 0; half < 2; half++)
        if (t->offs_n[half] == nbatch && memcmp(t->offs_h + half * stride, o, bytes) == 0) {
            t->offs_next = 1 - half;
            return half * 3 * t->L;
        }
    int half = t->offs_next;
    if (upload_done(c, t, half))
        return -1;
    t->offs_next = 1 - half;
    t->offs_n[half] = nbatch;
    cl_ulong *dst = t->offs_h + half * stride;
    memcpy(dst, o, bytes);
    /* Not blocking: the queue is in order, and the host copy of the half
     * stays as it is until upload_done says the copy was taken. */
    cl_int err = clEnqueueWriteBuffer(t->cl->queue, t->offs, CL_FALSE, half * stride * sizeof *o,
                                      bytes, dst, 0, NULL, &t->offs_ev[half]);
    if (err != CL_SUCCESS) {
        t->offs_n[half] = 0;
        t->offs_ev[half] = NULL;
        rb_fail(c, RB_EDEVICE, "offsets of a batched GEMM: %s", rb_cl_strerror(err));
        return -1;
    }
    return half * 3 * t->L;
}

int sbo_cl_gemm(struct rb_case *c, struct sbo_cl_train *t, int ta, int tb, int M, int N,
                int K, cl_mem A, const size_t *aoff, cl_mem B, const size_t *boff,
                cl_mem Cm, const size_t *coff, int nbatch)
{
    if (t->clblast)
        return sbo_cl_gemm_clblast(c, t, ta, tb, M, N, K, A, aoff, B, boff, Cm, coff, nbatch);
    int base = offsets_slot(c, t, aoff, boff, coff, nbatch);
    if (base < 0)
        return RB_EDEVICE;
    cl_kernel k = t->k[SBO_TK_GEMM];
    const int ld = t->p;        /* every operand has p rows */
    int chunk = 0;
    const int nsplit = sbo_gemm_split(M, N, K, nbatch, t->gpart_cap, &chunk);
    RB_CL_CHECK(c, arg_int(k, 0, ta));
    RB_CL_CHECK(c, arg_int(k, 1, tb));
    RB_CL_CHECK(c, arg_int(k, 2, M));
    RB_CL_CHECK(c, arg_int(k, 3, N));
    RB_CL_CHECK(c, arg_int(k, 4, K));
    RB_CL_CHECK(c, arg_int(k, 5, chunk));
    RB_CL_CHECK(c, arg_mem(k, 6, t->offs));
    RB_CL_CHECK(c, arg_int(k, 7, base));
    RB_CL_CHECK(c, arg_mem(k, 8, A));
    RB_CL_CHECK(c, arg_int(k, 9, ld));
    RB_CL_CHECK(c, arg_mem(k, 10, B));
    RB_CL_CHECK(c, arg_int(k, 11, ld));
    RB_CL_CHECK(c, arg_mem(k, 12, Cm));
    RB_CL_CHECK(c, arg_int(k, 13, ld));
    RB_CL_CHECK(c, arg_mem(k, 14, t->gpart));
    const size_t tiles = ((size_t)M + SBO_GEMM_TM - 1) / SBO_GEMM_TM
                         * (((size_t)N + SBO_GEMM_TN - 1) / SBO_GEMM_TN);
    const size_t local[2] = { SBO_GEMM_THREADS, 1 };
    const size_t global[2] = { tiles * (size_t)nsplit * SBO_GEMM_THREADS, (size_t)nbatch };
    int rc = enqueue(c, t, SBO_TK_GEMM, 2, global, local);
    if (rc || nsplit == 1)
        return rc;
    /* The partial products' sum, in chunk order. */
    cl_kernel ks = t->k[SBO_TK_GEMM_SUM];
    RB_CL_CHECK(c, arg_int(ks, 0, M));
    RB_CL_CHECK(c, arg_int(ks, 1, N));
    RB_CL_CHECK(c, arg_int(ks, 2, nsplit));
    RB_CL_CHECK(c, arg_mem(ks, 3, t->offs));
    RB_CL_CHECK(c, arg_int(ks, 4, base));
    RB_CL_CHECK(c, arg_mem(ks, 5, t->gpart));
    RB_CL_CHECK(c, arg_mem(ks, 6, Cm));
    RB_CL_CHECK(c, arg_int(ks, 7, ld));
    const size_t sums[2] = { round_up((size_t)M * N, SBO_GEMM_THREADS), (size_t)nbatch };
    return enqueue(c, t, SBO_TK_GEMM_SUM, 2, sums, local);
}

int sbo_cl_svd_product(struct rb_case *c, struct sbo_cl_train *t, int nbatch, int first,
                       cl_mem need, int mode)
{
    cl_kernel kj = t->k[SBO_TK_JACOBI], kp = t->k[SBO_TK_PRODUCT];
    RB_CL_CHECK(c, arg_mem(kj, 0, need));
    RB_CL_CHECK(c, arg_mem(kj, 1, t->M));
    RB_CL_CHECK(c, arg_mem(kj, 2, t->U));
    RB_CL_CHECK(c, arg_mem(kj, 3, t->V));
    RB_CL_CHECK(c, arg_mem(kj, 4, t->sig));
    RB_CL_CHECK(c, arg_local(kj, 5, 3 * (size_t)t->wg * t->sz));
    int rc = enqueue_blocks(c, t, SBO_TK_JACOBI, nbatch);
    if (rc)
        return rc;
    RB_CL_CHECK(c, arg_int(kp, 0, mode));
    RB_CL_CHECK(c, arg_int(kp, 1, first));
    RB_CL_CHECK(c, arg_mem(kp, 2, need));
    RB_CL_CHECK(c, arg_mem(kp, 3, t->U));
    RB_CL_CHECK(c, arg_mem(kp, 4, t->V));
    RB_CL_CHECK(c, arg_mem(kp, 5, t->sig));
    RB_CL_CHECK(c, arg_mem(kp, 6, t->M));
    RB_CL_CHECK(c, arg_mem(kp, 7, t->W));
    RB_CL_CHECK(c, arg_mem(kp, 8, t->D));
    return enqueue_blocks(c, t, SBO_TK_PRODUCT, nbatch);
}

int sbo_cl_polar(struct rb_case *c, struct sbo_cl_train *t, int nbatch, int first,
                 int *fallbacks)
{
    cl_kernel k = t->k[SBO_TK_POLAR];
    RB_CL_CHECK(c, arg_int(k, 0, first));
    RB_CL_CHECK(c, arg_mem(k, 1, t->cnt));
    RB_CL_CHECK(c, arg_mem(k, 2, t->M));
    RB_CL_CHECK(c, arg_mem(k, 3, t->U));
    RB_CL_CHECK(c, arg_mem(k, 4, t->V));
    RB_CL_CHECK(c, arg_mem(k, 5, t->D));
    RB_CL_CHECK(c, arg_mem(k, 6, t->flag));
    /* Its own group size, chosen when the program was built. */
    const size_t local = (size_t)t->ns_wg, global = local * (size_t)nbatch;
    int rc = enqueue(c, t, SBO_TK_POLAR, 1, &global, &local);
    if (rc)
        return rc;
    /* Reading the flags would stall the queue every iteration; the SVD's
     * groups of unflagged blocks return at once, so launching it is cheaper
     * and leaves D the same. */
    if (!fallbacks)
        return sbo_cl_svd_product(c, t, nbatch, first, t->flag, 0);
    t->syncs++;
    rc = rb_opencl_download(c, t->cl, t->flag, 0, t->cnt_h + t->L,
                            (size_t)nbatch * sizeof(cl_int));
    if (rc)
        return rc;
    int n = 0;
    for (int g = 0; g < nbatch; g++)
        n += t->cnt_h[t->L + g] != 0;
    *fallbacks = n;
    return n ? sbo_cl_svd_product(c, t, nbatch, first, t->flag, 0) : 0;
}
