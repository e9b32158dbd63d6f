/* SPDX-License-Identifier: MIT */
/* The GPU SBO training's units (sbo_gpu_train_steps.cu, _loop.cu, _case.cu,
 * _host.cu, _direct.cu), each compiled once for CUDA and once for HIP: the
 * device side of a training (struct sbo_state's backend; the buffers of the
 * OpenCL training, sbo_opencl_train.h, as device pointers, the stream, the
 * deferred RMSEs, the GEMMs' offset uploads and the profile's events) and
 * the functions one unit calls in another, all in namespace
 * sbo_gpu::RB_GPU_NS (impl/common/gpu_api.h), so that the two compilations
 * link side by side.  Templates one unit calls in another are instantiated
 * for float and double where they are defined.  C sees the engine
 * (sbo_gpu.h).  C++ for the CUDA and HIP compilers only. */
#ifndef SBO_GPU_TRAIN_STATE_H
#define SBO_GPU_TRAIN_STATE_H

#include <stddef.h>
#include "impl/common/gpu_api.h"
#include "impl/sbo/sbo_gpu.h"
#include "impl/sbo/sbo_gpu_kernels.h"
#include "kernels/cuda/sbo_train_gemm.cuh"
#include "kernels/cuda/sbo_train_polar.cuh"
#include "kernels/cuda/sbo_train_select.cuh"
#include "kernels/cuda/sbo_train_svd.cuh"

#if defined(RB_HAVE_CUBLAS) && !defined(RB_GPU_HIP)
#include "impl/sbo/sbo_cublas.h"
#define SBO_GPU_CUBLAS 1
#else
#define SBO_GPU_CUBLAS 0
#endif

namespace sbo_gpu {
inline namespace RB_GPU_NS {

/* The kernels, in the OpenCL training's order and names (sbo_tk), then
 * the fused representation of `polar`; a record gets the occupancy of every
 * one the variant runs. */
enum sbo_gk {
    SBO_GK_ENERGY, SBO_GK_ARGMAX, SBO_GK_THRESHOLD, SBO_GK_GEMM, SBO_GK_JACOBI,
    SBO_GK_PRODUCT, SBO_GK_UPDATE, SBO_GK_POLAR,
    SBO_GK_YNORM, SBO_GK_COUNT, SBO_GK_SCATTER, SBO_GK_GATHER,
    SBO_GK_GEMM_SUM, SBO_GK_FUSED,
    SBO_GK_N
};

/* Representation passes whose RMSE partial sums wait on the device. */
#define SBO_GPU_PASSES 32

struct gtrain {
    int p, s, L, m;
    int block;                  /* threads per block of the 1-D and per-matrix kernels */
    int cublas;                 /* 1: the GEMMs through cuBLAS */
    int polar;                  /* 1: Newton-Schulz for steps 6-7 (Jacobi fallback) */
    int f64;
    size_t sz;
    int ntiles, chunk;          /* the sort's chunks and positions per chunk */
    int npart;                  /* RMSE partial sums */
    size_t ns_smem;             /* Newton-Schulz's dynamic shared bytes; 0: global */
    gpuStream_t stream;
    void *Y, *D, *E, *energy, *ynorm, *r, *part, *Ysub, *C, *M, *U, *V, *W, *sig;
    int *best, *idx, *order, *seq, *tiles, *cnt, *flag;
    void *gpart;                /* the split GEMM's partial products, gpart_cap elements */
    size_t gpart_cap;
    unsigned long long *offs;   /* device, 6 L: two halves of 3 L offsets or pointers */
    unsigned long long *offs_h; /* pinned, 9 L: the halves as written, then scratch */
    int offs_n[2], offs_next;
    gpuEvent_t offs_ev[2];      /* each half's upload */
    int offs_pending[2];        /* 1: its event is recorded and not known done */
    int *cnt_h;                 /* pinned, 2 L: counts, then the polar flags */
    void *part_h;               /* pinned: the pending passes' sums */
    int npend;
    double rmse_h[SBO_GPU_PASSES];
    int defer_trace;
    /* The profile of the last run: a pair of events around each launch. */
    int prof;
    gpuEvent_t *ev;             /* 2 ev_cap, created as needed, kept across runs */
    unsigned char *ev_kind;
    size_t nev, ev_cap, ev_made;
    gpuEvent_t run_start, run_stop;
    long launches, syncs;
    double wall_ms;
#if SBO_GPU_CUBLAS
    cublasHandle_t blas;
#endif
};


/* The kernels' names in sbo_gk order (sbo_gpu_train_steps.cu). */
extern const char *const gk_names[SBO_GK_N];

static inline unsigned cdiv(long long a, long long b)
{
    return (unsigned)((a > 0 ? a + b - 1 : b) / b);
}

/* The steps (sbo_gpu_train_steps.cu), each one or a few launches. */
template <typename T> const void *energy_map(const gtrain *t);
template <typename T> fused_fn<T> fused_rep(const gtrain *t, int *sig);
template <typename T> int gt_ynorm(struct rb_case *c, gtrain *t);
template <typename T> int gt_represent_enqueue(struct rb_case *c, gtrain *t, int nb, int keep);
template <typename T> int gt_rmse_read(struct rb_case *c, gtrain *t, int *n);
template <typename T> int gt_worst(struct rb_case *c, gtrain *t, int W);
template <typename T> int gt_group(struct rb_case *c, gtrain *t, int nb);
template <typename T> int gt_gather(struct rb_case *c, gtrain *t, const int *list, int n);
template <typename T> int gt_threshold(struct rb_case *c, gtrain *t, int nbatch, int ncols);
template <typename T>
int gt_gemm(struct rb_case *c, gtrain *t, int ta, int tb, int M, int N, int K, const void *A,
            const size_t *aoff, const void *B, const size_t *boff, void *Cm, const size_t *coff,
            int nbatch);
template <typename T>
int gt_svd_product(struct rb_case *c, gtrain *t, int nbatch, int first, const int *need,
                   int mode);
template <typename T> int gt_polar(struct rb_case *c, gtrain *t, int nbatch, int first,
                                   int *fallbacks);
template <typename T> const void *polar_map(int smem);
template <typename T> int polar_allow(size_t bytes);

/* sbo_train's loop on the device (sbo_gpu_train_loop.cu). */
template <typename T>
int train_loop(struct rb_case *c, gtrain *t, const struct sbo_opts *o, int *nb, double *rmse);

/* The device side's making and release, admission and profile
 * (sbo_gpu_train_case.cu). */
int gt_prepare(struct rb_case *c, gtrain *t, const void *Y, const void *D);
void gt_release(gtrain *t);
int gt_admits(struct rb_case *c);
int gt_metrics(struct rb_case *c, gtrain *t);

/* The engine's training entry points: the cases (sbo_gpu_train_case.cu),
 * the steps on host arrays (sbo_gpu_train_host.cu), the training outside
 * the harness (sbo_gpu_train_direct.cu); sbo_gpu.h says what each does. */
int have_cublas(void);
int train_admit(struct rb_case *c);
size_t train_footprint(const struct rb_case *c);
int train_setup(struct rb_case *c);
int train_run(struct rb_case *c);
int train_verify(struct rb_case *c, struct rb_check *out);
void train_teardown(struct rb_case *c);
void train_occupancy(struct rb_case *c, struct rb_occ *occ);
int svd_host(struct rb_case *c, int p, int nb, const double *M, int polar, int mode, double *Q,
             double *U, double *V, double *sig, int *fallbacks);
int select_host(struct rb_case *c, int p, int m, int W, const double *r, int nb,
                const int *best, const double *Y, int *idx, int *order, int *cnt, double *Ysub);
int threshold_host(struct rb_case *c, int p, int s, int nb, int n, const int *cnt, double *C);
int gemm_host(struct rb_case *c, int p, int nb, int n, int ny, const double *D, const double *Y,
              const int *yoff, int cublas, double *C, double *M);
int direct_open(struct rb_case *c, int p, int s, int L, int m, int block, int polar,
                int cublas, int prof, const float *Y, struct sbo_gpu_train_dev **out);
int direct_fit(struct rb_case *c, struct sbo_gpu_train_dev *t, const float *Y,
               const struct sbo_opts *o, int *nb, double *rmse, float *D, int *best);
int direct_code(struct rb_case *c, struct sbo_gpu_train_dev *t, int nb, double *rmse);
void direct_close(struct sbo_gpu_train_dev *t);

} // namespace RB_GPU_NS
} // namespace sbo_gpu

#endif
