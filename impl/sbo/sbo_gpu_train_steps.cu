// SPDX-License-Identifier: MIT
// The steps of the CUDA and HIP SBO training, one or a few launches each,
// as the OpenCL training's (sbo_opencl_train_steps.c): the representation
// with the energy update, the worst-W selection, the grouping and gather,
// thresholding, the batched GEMM (own kernel or cuBLAS), the per-block SVD
// or polar iteration with Q = U V^T.  Launch shapes are in the kernels'
// comments (kernels/cuda/sbo_train_*.cuh).  Compiled once for CUDA and once
// for HIP (sbo_gpu_train_state.h says how the two link side by side).
#include <config.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "impl/sbo/sbo_case.h"
#include "impl/sbo/sbo_gpu_train_state.h"

namespace sbo_gpu {
inline namespace RB_GPU_NS {

const char *const gk_names[SBO_GK_N] = {
    "sbo_energy", "sbo_argmax", "sbo_threshold", "sbo_gemm_batched", "sbo_jacobi",
    "sbo_product", "sbo_energy_update", "sbo_newton_schulz",
    "sbo_ynorm", "sbo_radix_count", "sbo_radix_scatter",
    "sbo_gather", "sbo_gemm_sum", "sbo_fused",
};

// The event pair of the next profiled launch, made on first use and kept.
static int prof_pair(struct rb_case *c, gtrain *t, gpuEvent_t **pair)
{
    if (t->nev == t->ev_cap) {
        size_t cap = t->ev_cap ? 2 * t->ev_cap : 512;
        gpuEvent_t *e = (gpuEvent_t *)realloc(t->ev, 2 * cap * sizeof *e);
        if (e)
            t->ev = e;
        unsigned char *kind = e ? (unsigned char *)realloc(t->ev_kind, cap) : NULL;
        if (kind)
            t->ev_kind = kind;
        if (!kind)
            return rb_fail(c, RB_ENOMEM, "profile of %zu launches", cap);
        t->ev_cap = cap;
    }
    while (t->ev_made < 2 * (t->nev + 1)) {
        GPU_CHECK(c, gpuEventCreate(&t->ev[t->ev_made]));
        t->ev_made++;
    }
    *pair = t->ev + 2 * t->nev;
    return 0;
}

// Launch through `go` (a <<<>>> launch or a cuBLAS call) as kernel kind
// `which`: counted, and between a pair of events when profiling.
template <class F> static int launch(struct rb_case *c, gtrain *t, int which, F go)
{
    gpuEvent_t *pair = NULL;
    if (t->prof) {
        int rc = prof_pair(c, t, &pair);
        if (rc)
            return rc;
        GPU_CHECK(c, gpuEventRecord(pair[0], t->stream));
    }
    go();
    GPU_CHECK_LAUNCH(c);
    t->launches++;
    if (pair) {
        GPU_CHECK(c, gpuEventRecord(pair[1], t->stream));
        t->ev_kind[t->nev++] = (unsigned char)which;
    }
    return 0;
}

// The representation map for any s: sbo_energy where it is built for s
// (sbo_gpu_kernels.h), else sbo_energy_any.
template <typename T> using energy_any_fn = void (*)(int, int, int, const T *, const T *, T *);

template <typename T> static energy_any_fn<T> energy_any_kernel(int p)
{
    if (pmax_of(p) == SBO_GPU_PMAX_SMALL)
        return sbo_energy_any<T, SBO_GPU_PMAX_SMALL>;
    return sbo_energy_any<T, SBO_GPU_PMAX_LARGE>;
}

template <typename T> const void *energy_map(const gtrain *t)
{
    const energy_fn<T> k = energy_kernel<T>(t->p, t->s);
    return k ? (const void *)k : (const void *)energy_any_kernel<T>(t->p);
}

template <typename T> static void energy_launch(const gtrain *t, dim3 grid)
{
    const T *D = (const T *)t->D, *Y = (const T *)t->Y;
    T *E = (T *)t->E;
    const energy_fn<T> k = energy_kernel<T>(t->p, t->s);
    if (k)
        k<<<grid, t->block, 0, t->stream>>>(t->p, t->m, D, Y, E);
    else
        energy_any_kernel<T>(t->p)<<<grid, t->block, 0, t->stream>>>(t->p, t->s, t->m, D, Y, E);
}

// The `polar` training's representation in one pass, the fastest the
// representation variants measure (sbo_fused_pair for f32 at p <= 64, else
// sbo_fused): best block and energy per signal as the paper's two kernels
// give them (the first block of the largest energy), without the L x m
// energies.  *sig: signals a thread.  NULL for `paper`, and where no kernel
// is built for s or the block size: the paper's kernels run then.
template <typename T> fused_fn<T> fused_rep(const gtrain *t, int *sig)
{
    if (!t->polar)
        return NULL;
    if constexpr (sizeof(T) == sizeof(float)) {
        if (t->p <= 2 * SBO_PAIR_HALF && t->block % 2 == 0 && t->block <= SBO_PAIR_MAX_BLOCK) {
            *sig = 1;
            return pair_kernel(t->s);
        }
    }
    if (t->block > SBO_FUSED_MAX_BLOCK)
        return NULL;
    *sig = fused_sig<T>(t->p);
    return fused_kernel<T>(t->p, t->s);
}

template <typename T> int gt_ynorm(struct rb_case *c, gtrain *t)
{
    return launch(c, t, SBO_GK_YNORM, [&] {
        sbo_ynorm<T><<<cdiv(t->m, t->block), t->block, 0, t->stream>>>(
            t->p, t->m, (const T *)t->Y, (T *)t->ynorm);
    });
}

// The representation with nb blocks, the energy update, and its partial
// sums in slot npend of part (kept when keep, else overwritten next pass).
template <typename T> int gt_represent_enqueue(struct rb_case *c, gtrain *t, int nb,
                                                      int keep)
{
    if (t->npend >= SBO_GPU_PASSES)
        return rb_fail(c, RB_EINVAL, "%d representation passes pending", t->npend);
    int sig = 1, rc;
    const fused_fn<T> fused = fused_rep<T>(t, &sig);
    if (fused) {
        rc = launch(c, t, SBO_GK_FUSED, [&] {
            fused<<<cdiv(t->m, (long long)t->block * sig), t->block, 0, t->stream>>>(
                t->p, nb, t->m, (const T *)t->D, (const T *)t->Y, t->best, (T *)t->energy);
        });
    } else {
        const dim3 grid(cdiv(t->m, t->block), (unsigned)nb);
        rc = launch(c, t, SBO_GK_ENERGY, [&] { energy_launch<T>(t, grid); });
        if (rc == 0)
            rc = launch(c, t, SBO_GK_ARGMAX, [&] {
                sbo_argmax<T><<<cdiv(t->m, t->block), t->block, 0, t->stream>>>(
                    t->m, nb, (const T *)t->E, t->best, (T *)t->energy);
            });
    }
    if (rc == 0)
        rc = launch(c, t, SBO_GK_UPDATE, [&] {
            sbo_energy_update<T><<<(unsigned)t->npart, t->block, 0, t->stream>>>(
                t->m, (const T *)t->ynorm, (const T *)t->energy, (T *)t->r, (T *)t->part,
                t->npend * t->npart);
        });
    if (rc == 0)
        t->npend += keep != 0;
    return rc;
}

// One wait for the pending passes' sums: rmse_h[k] the k-th's RMSE.
template <typename T> int gt_rmse_read(struct rb_case *c, gtrain *t, int *n)
{
    *n = t->npend;
    if (t->npend == 0)
        return 0;
    t->npend = 0;
    t->syncs++;
    GPU_CHECK(c, gpuMemcpyAsync(t->part_h, t->part, (size_t)*n * t->npart * sizeof(T),
                                gpuMemcpyDeviceToHost, t->stream));
    GPU_CHECK(c, gpuStreamSynchronize(t->stream));
    const T *ps = (const T *)t->part_h;
    for (int k = 0; k < *n; k++) {
        double sum = 0.0;
        for (int g = k * t->npart; g < (k + 1) * t->npart; g++)
            sum += ps[g];
        t->rmse_h[k] = sqrt(sum / ((double)t->p * t->m));
    }
    return 0;
}

// One pass of the stable sort (kernels/cuda/sbo_train_select.cuh): the m
// signals by src's digit (below nb) into out[0 .. len-1]; counts, if not
// NULL, gets each digit's signals.
template <typename T>
static int radix_pass(struct rb_case *c, gtrain *t, const sbo_radix_src<T> &src, int nb,
                      int len, int *out, int *counts)
{
    const unsigned grid = (unsigned)t->ntiles;
    int rc = launch(c, t, SBO_GK_COUNT, [&] {
        sbo_radix_count<T><<<grid, t->block, 0, t->stream>>>(t->m, t->chunk, nb, src, t->tiles);
    });
    if (rc == 0)
        rc = launch(c, t, SBO_GK_SCATTER, [&] {
            sbo_radix_scatter<T><<<grid, t->block, 0, t->stream>>>(t->m, t->chunk, nb, len, src,
                                                                   t->tiles, out, counts);
        });
    return rc;
}

// idx[0 .. W-1] the W worst of r, in sbo_worst's order: the signals sorted
// by r's key 8 bits a pass from the lowest (stable, so ties keep the lower
// index first), between order and seq; the last pass keeps the first W.
template <typename T> int gt_worst(struct rb_case *c, gtrain *t, int W)
{
    const int passes = (int)(8 * sizeof(T)) / SBO_SORT_BITS;
    const int *in = NULL;
    int rc = 0;
    for (int k = 0; k < passes && rc == 0; k++) {
        const int last = k == passes - 1;
        int *out = last ? t->idx : k % 2 ? t->seq : t->order;
        const sbo_radix_src<T> src = { NULL, (const T *)t->r, in, k * SBO_SORT_BITS };
        rc = radix_pass<T>(c, t, src, SBO_SORT_BUCKETS, last ? W : t->m, out, NULL);
        in = out;
    }
    return rc;
}

// Signals grouped by best block: order (stable), cnt on the device and in
// cnt_h (nb entries, read back: the GEMMs' offsets need them).
template <typename T> int gt_group(struct rb_case *c, gtrain *t, int nb)
{
    const sbo_radix_src<T> src = { t->best, NULL, NULL, 0 };
    int rc = radix_pass<T>(c, t, src, nb, t->m, t->order, t->cnt);
    if (rc)
        return rc;
    t->syncs++;
    GPU_CHECK(c, gpuMemcpyAsync(t->cnt_h, t->cnt, (size_t)nb * sizeof(int),
                                gpuMemcpyDeviceToHost, t->stream));
    GPU_CHECK(c, gpuStreamSynchronize(t->stream));
    return 0;
}

// Ysub[:, k] = Y[:, list[k]] for k < n.
template <typename T> int gt_gather(struct rb_case *c, gtrain *t, const int *list, int n)
{
    return launch(c, t, SBO_GK_GATHER, [&] {
        sbo_gather<T><<<cdiv((long long)n * t->p, t->block), t->block, 0, t->stream>>>(
            t->p, n, list, (const T *)t->Y, (T *)t->Ysub);
    });
}

template <typename T> int gt_threshold(struct rb_case *c, gtrain *t, int nbatch,
                                              int ncols)
{
    const dim3 grid(cdiv(ncols, t->block), (unsigned)nbatch);
    return launch(c, t, SBO_GK_THRESHOLD, [&] {
        sbo_threshold<T><<<grid, t->block, 0, t->stream>>>(t->p, t->s, ncols, t->cnt,
                                                           (T *)t->C);
    });
}

// Wait, if it is not done, for the last upload from half `half` of
// offs_h, which is about to change: the only wait of a GEMM.
static int upload_done(struct rb_case *c, gtrain *t, int half)
{
    if (!t->offs_pending[half])
        return 0;
    gpuError_t q = gpuEventQuery(t->offs_ev[half]);
    if (q == gpuErrorNotReady) {
        t->syncs++;
        GPU_CHECK(c, gpuEventSynchronize(t->offs_ev[half]));
    } else {
        GPU_CHECK(c, q);
    }
    t->offs_pending[half] = 0;
    return 0;
}

// The GEMM's offsets (own kernel: elements) or operand pointers (cuBLAS)
// into one of the two halves of offs, reusing a half that holds them: 1ONB
// alternates two GEMMs of fixed operands.  *base the half's first entry.
static int offsets_slot(struct rb_case *c, gtrain *t, const void *A, const size_t *aoff,
                        const void *B, const size_t *boff, const void *Cm,
                        const size_t *coff, int nbatch, int *base)
{
    unsigned long long *o = t->offs_h + 6 * (size_t)t->L;
    const void *const mat[3] = { A, B, Cm };
    const size_t *const off[3] = { aoff, boff, coff };
    for (int q = 0; q < 3; q++)
        for (int g = 0; g < nbatch; g++)
            o[q * nbatch + g] = t->cublas
                ? (unsigned long long)(uintptr_t)((const char *)mat[q] + off[q][g] * t->sz)
                : (unsigned long long)off[q][g];
    const size_t bytes = 3 * (size_t)nbatch * sizeof *o, stride = 3 * (size_t)t->L;
    for (int half = 0; half < 2; half++)
        if (t->offs_n[half] == nbatch && memcmp(t->offs_h + half * stride, o, bytes) == 0) {
            t->offs_next = 1 - half;
            *base = half * (int)stride;
            return 0;
        }
    const int half = t->offs_next;
    int rc = upload_done(c, t, half);
    if (rc)
        return rc;
    t->offs_next = 1 - half;
    t->offs_n[half] = 0;
    unsigned long long *dst = t->offs_h + half * stride;
    memcpy(dst, o, bytes);
    // From pinned memory, truly asynchronous: the half stays as it is
    // until upload_done sees the copy taken.
    GPU_CHECK(c, gpuMemcpyAsync(t->offs + half * stride, dst, bytes, gpuMemcpyHostToDevice,
                                t->stream));
    GPU_CHECK(c, gpuEventRecord(t->offs_ev[half], t->stream));
    t->offs_pending[half] = 1;
    t->offs_n[half] = nbatch;
    *base = half * (int)stride;
    return 0;
}

#if SBO_GPU_CUBLAS
static cublasStatus_t gemm_blas(cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb,
                                int M, int N, int K, const float *const *A, int lda,
                                const float *const *B, int ldb, float *const *C, int ldc,
                                int n)
{
    const float one = 1.0f, zero = 0.0f;
    return sbo_cublas_sgemm_batched(h, ta, tb, M, N, K, &one, A, lda, B, ldb, &zero, C, ldc, n);
}

static cublasStatus_t gemm_blas(cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb,
                                int M, int N, int K, const double *const *A, int lda,
                                const double *const *B, int ldb, double *const *C, int ldc,
                                int n)
{
    const double one = 1.0, zero = 0.0;
    return sbo_cublas_dgemm_batched(h, ta, tb, M, N, K, &one, A, lda, B, ldb, &zero, C, ldc, n);
}
#endif

// The batched GEMM C_b = op(A_b) op(B_b) of nbatch entries at the given
// element offsets; every operand has p rows (the leading dimension).
template <typename T>
int gt_gemm(struct rb_case *c, gtrain *t, int ta, int tb, int M, int N, int K,
                   const void *A, const size_t *aoff, const void *B, const size_t *boff,
                   void *Cm, const size_t *coff, int nbatch)
{
    int base = 0, rc = offsets_slot(c, t, A, aoff, B, boff, Cm, coff, nbatch, &base);
    if (rc)
        return rc;
    const unsigned long long *o = t->offs + base;
    const int ld = t->p;
#if SBO_GPU_CUBLAS
    if (t->cublas) {
        cublasStatus_t st = CUBLAS_STATUS_SUCCESS;
        rc = launch(c, t, SBO_GK_GEMM, [&] {
            st = gemm_blas(t->blas, ta ? CUBLAS_OP_T : CUBLAS_OP_N,
                           tb ? CUBLAS_OP_T : CUBLAS_OP_N, M, N, K, (const T *const *)o, ld,
                           (const T *const *)(o + nbatch), ld, (T *const *)(o + 2 * nbatch),
                           ld, nbatch);
        });
        if (rc == 0 && st != CUBLAS_STATUS_SUCCESS)
            rc = rb_fail(c, RB_EDEVICE, "cuBLAS batched GEMM: status %d", (int)st);
        return rc;
    }
#endif
    int chunk = 0;
    const int nsplit = sbo_gemm_split(M, N, K, nbatch, t->gpart_cap, &chunk);
    const unsigned tiles = cdiv(M, SBO_GEMM_TM) * cdiv(N, SBO_GEMM_TN);
    const dim3 grid(tiles * (unsigned)nsplit, (unsigned)nbatch);
    rc = launch(c, t, SBO_GK_GEMM, [&] {
        sbo_gemm_batched<T><<<grid, SBO_GEMM_THREADS, 0, t->stream>>>(
            ta, tb, M, N, K, chunk, o, (const T *)A, ld, (const T *)B, ld, (T *)Cm, ld,
            (T *)t->gpart);
    });
    if (rc || nsplit == 1)
        return rc;
    const dim3 sums(cdiv((long long)M * N, SBO_GEMM_THREADS), (unsigned)nbatch);
    return launch(c, t, SBO_GK_GEMM_SUM, [&] {
        sbo_gemm_sum<T><<<sums, SBO_GEMM_THREADS, 0, t->stream>>>(
            M, N, nsplit, o, (const T *)t->gpart, (T *)Cm, ld);
    });
}

// SVD of M's first nbatch slots where need[g], then D[first + g] = U V^T
// (mode 0) or U by descending singular value (1); M is consumed.
template <typename T>
int gt_svd_product(struct rb_case *c, gtrain *t, int nbatch, int first, const int *need,
                          int mode)
{
    int rc = launch(c, t, SBO_GK_JACOBI, [&] {
        sbo_jacobi<T><<<(unsigned)nbatch, t->block, 0, t->stream>>>(
            t->p, need, (const T *)t->M, (T *)t->U, (T *)t->V, (T *)t->sig);
    });
    if (rc == 0)
        rc = launch(c, t, SBO_GK_PRODUCT, [&] {
            sbo_product<T><<<(unsigned)nbatch, t->block, 0, t->stream>>>(
                t->p, mode, first, need, (const T *)t->U, (const T *)t->V, (const T *)t->sig,
                (T *)t->M, (T *)t->W, (T *)t->D);
        });
    return rc;
}

// Newton-Schulz as this unit launches it (smem: the shared-memory form),
// for its occupancy, and that form's opt-in to `bytes` of dynamic shared
// memory (0, or -1 where the device refuses).  Both here: without
// relocatable device code every unit holds its own copy of a kernel, and an
// attribute set on another unit's copy would not reach these launches.
template <typename T> const void *polar_map(int smem)
{
    return smem ? (const void *)sbo_newton_schulz<T, 1> : (const void *)sbo_newton_schulz<T, 0>;
}

template <typename T> int polar_allow(size_t bytes)
{
    if (gpuFuncSetAttribute((const void *)sbo_newton_schulz<T, 1>,
                            gpuFuncAttributeMaxDynamicSharedMemorySize, (int)bytes)
        == gpuSuccess)
        return 0;
    (void)gpuGetLastError();
    return -1;
}

// D[first + g] = polar factor of M's slot g where cnt[g]: Newton-Schulz,
// the Jacobi SVD for the blocks it flags.  fallbacks NULL: the SVD is
// launched without reading the flags (its blocks of unflagged matrices
// return at once); else *fallbacks gets their count.
template <typename T>
int gt_polar(struct rb_case *c, gtrain *t, int nbatch, int first, int *fallbacks)
{
    int rc = launch(c, t, SBO_GK_POLAR, [&] {
        if (t->ns_smem)
            sbo_newton_schulz<T, 1><<<(unsigned)nbatch, SBO_NS_THREADS, t->ns_smem, t->stream>>>(
                t->p, first, t->cnt, (const T *)t->M, (T *)t->U, (T *)t->V, (T *)t->W,
                (T *)t->D, t->flag);
        else
            sbo_newton_schulz<T, 0><<<(unsigned)nbatch, SBO_NS_THREADS, 0, t->stream>>>(
                t->p, first, t->cnt, (const T *)t->M, (T *)t->U, (T *)t->V, (T *)t->W,
                (T *)t->D, t->flag);
    });
    if (rc)
        return rc;
    if (!fallbacks)
        return gt_svd_product<T>(c, t, nbatch, first, t->flag, 0);
    t->syncs++;
    GPU_CHECK(c, gpuMemcpyAsync(t->cnt_h + t->L, t->flag, (size_t)nbatch * sizeof(int),
                                gpuMemcpyDeviceToHost, t->stream));
    GPU_CHECK(c, gpuStreamSynchronize(t->stream));
    int n = 0;
    for (int g = 0; g < nbatch; g++)
        n += t->cnt_h[t->L + g] != 0;
    *fallbacks = n;
    return n ? gt_svd_product<T>(c, t, nbatch, first, t->flag, 0) : 0;
}

// What the other units call, for both precisions.
#define SBO_GPU_STEPS_FOR(T)                                                    \
    template const void *energy_map<T>(const gtrain *);                        \
    template fused_fn<T> fused_rep<T>(const gtrain *, int *);                  \
    template int gt_ynorm<T>(struct rb_case *, gtrain *);                      \
    template int gt_represent_enqueue<T>(struct rb_case *, gtrain *, int, int); \
    template int gt_rmse_read<T>(struct rb_case *, gtrain *, int *);           \
    template int gt_worst<T>(struct rb_case *, gtrain *, int);                 \
    template int gt_group<T>(struct rb_case *, gtrain *, int);                 \
    template int gt_gather<T>(struct rb_case *, gtrain *, const int *, int);   \
    template int gt_threshold<T>(struct rb_case *, gtrain *, int, int);        \
    template int gt_gemm<T>(struct rb_case *, gtrain *, int, int, int, int, int, const void *, \
                            const size_t *, const void *, const size_t *, void *,           \
                            const size_t *, int);                                          \
    template int gt_svd_product<T>(struct rb_case *, gtrain *, int, int, const int *, int); \
    template int gt_polar<T>(struct rb_case *, gtrain *, int, int, int *);     \
    template const void *polar_map<T>(int);                                     \
    template int polar_allow<T>(size_t);
SBO_GPU_STEPS_FOR(float)
SBO_GPU_STEPS_FOR(double)
#undef SBO_GPU_STEPS_FOR

} // namespace RB_GPU_NS
} // namespace sbo_gpu
