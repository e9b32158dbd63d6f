/* SPDX-License-Identifier: MIT */
/* The GPU SBO variants as C sees them: one engine per backend, the same host
 * code (sbo_gpu_*.cu) compiled for CUDA and for HIP, the tables that name
 * them (sbo_gpu_table.c, built once per backend), and the training's steps
 * on host arrays (the tests') and outside the harness (sbo-learn's).  No
 * CUDA or HIP header is needed to include this. */
#ifndef SBO_GPU_H
#define SBO_GPU_H

#include <stddef.h>
#include "harness/variant.h"

#ifdef __cplusplus
extern "C" {
#endif

struct sbo_opts;
/* A training's device side opened outside the harness's cases (open). */
struct sbo_gpu_train_dev;

struct sbo_gpu_engine {
    /* The representation variants (sbo_gpu_case.cu, sbo_gpu_launch.cu).
     * admit: sbo_admit, then RB_ESKIP with the reason where the kernels are
     * not built for the case: s outside 1, 2, 4, ..., 32, p > 256, or more
     * than 256 threads a block.  footprint: the device bytes the case
     * allocates.  setup: sbo_setup, then select the device, allocate, upload
     * and check that the kernels launch at the case's block (0, as
     * sbo_setup, RB_ENODEV / RB_ENOMEM / RB_EDEVICE, or RB_ESKIP when the
     * device gives a kernel fewer threads a block).  upload: copy the
     * state's Y and D (timed into c->transfer_ms), best and energy to the
     * device and poison the paper's energies (NaN).  run: the timed region,
     * device-timed into c->device_ms.  verify: copy best and energy back and
     * sbo_represent_verify them.  occupancy: the runtime's, of every kernel
     * run launches.  teardown: free the device state, then sbo_teardown;
     * safe after a partial setup and twice. */
    int (*admit)(struct rb_case *c);
    size_t (*footprint)(const struct rb_case *c);
    int (*setup)(struct rb_case *c);
    int (*upload)(struct rb_case *c);
    int (*run)(struct rb_case *c);
    int (*verify)(struct rb_case *c, struct rb_check *out);
    void (*occupancy)(struct rb_case *c, struct rb_occ *occ);
    void (*teardown)(struct rb_case *c);

    /* The training variants (sbo_gpu_train_case.cu), as the OpenCL
     * training's (sbo_opencl_train.h): admit skips what the kernels or the
     * build cannot do (p > 256, block outside 32..256, cublas=1 without
     * cuBLAS); run times the whole training (c->device_ms); verify reads D
     * and the assignment back, records the profile (ms_<kernel>, launches,
     * host_syncs, ms_gaps, ms_wall) and calls sbo_train_verify.
     * have_cublas: 1 when this backend was built with cuBLAS (CUDA only). */
    int (*train_admit)(struct rb_case *c);
    size_t (*train_footprint)(const struct rb_case *c);
    int (*train_setup)(struct rb_case *c);
    int (*train_run)(struct rb_case *c);
    int (*train_verify)(struct rb_case *c, struct rb_check *out);
    void (*train_teardown)(struct rb_case *c);
    void (*train_occupancy)(struct rb_case *c, struct rb_occ *occ);
    int (*have_cublas)(void);

    /* Single steps on host arrays (sbo_gpu_train_host.cu: in fp64, rounded
     * to the precision on the way), each on a device side of its own; c
     * gives the device, the precision (c->prec) and the messages.  0 or
     * RB_E*.
     * svd_host: Q[g] (nb p x p) from M[g]: polar 0 the Jacobi SVD and
     * Q = U V^T (U, V, sig, if not NULL, get the SVD), mode 1 Q = U by
     * descending singular value; polar 1 Newton-Schulz with the SVD for
     * flagged blocks, their count in *fallbacks.
     * select_host: idx[0 .. W-1] the W worst of r (sbo_worst); order and
     * cnt the grouping of best over nb blocks; Ysub = Y[:, order] (p x m).
     * threshold_host: the thresholding of nb blocks' p x n codes C (in
     * place) with counts cnt.
     * gemm_host: the two batched GEMMs of 1ONB on nb blocks (D nb p x p, Y
     * p x ny, yoff the blocks' first signals): C_g = D_g^T Y_g (p x n), then
     * M_g = Y_g C_g^T, through cuBLAS when cublas (and built with it). */
    int (*svd_host)(struct rb_case *c, int p, int nb, const double *M, int polar, int mode,
                    double *Q, double *U, double *V, double *sig, int *fallbacks);
    int (*select_host)(struct rb_case *c, int p, int m, int W, const double *r, int nb,
                       const int *best, const double *Y, int *idx, int *order, int *cnt,
                       double *Ysub);
    int (*threshold_host)(struct rb_case *c, int p, int s, int nb, int n, const int *cnt,
                          double *C);
    int (*gemm_host)(struct rb_case *c, int p, int nb, int n, int ny, const double *D,
                     const double *Y, const int *yoff, int cublas, double *C, double *M);

    /* The float training driven outside the harness's cases (sbo-learn's;
     * sbo_gpu_train_direct.cu).  open: a device side on c's device (selected
     * here from the context's device index; c->device names it) for m
     * signals of p, sparsity s and up to L blocks, `block` threads a block,
     * Newton-Schulz (polar 1) or the Jacobi SVD, the GEMMs through cuBLAS
     * when cublas, a pair of events around each launch when prof; Y (p x m)
     * uploaded, then a short warm-up training on it so that every kernel the
     * training runs is loaded before fit is timed.  c->transfer_ms gets the
     * allocations and the upload, c->build_ms the warm-up.  *out the state,
     * NULL on failure; 0 or RB_E* with the message in c (RB_ENODEV: no such
     * device; RB_ESKIP: what the kernels or the build cannot do).
     * fit: Y uploaded again, sbo_train's loop with o (o->s as opened, o->L up
     * to the L opened; o->trace after each pass), then the *nb blocks read
     * back into D (nb p^2 floats) and the assignment into best (m ints).
     * c's metrics get the loop's: ms_device (its device span, events),
     * launches and host_syncs, and with prof the variants' profile
     * (ms_<kernel>, ms_gaps, ms_wall).
     * code: one representation pass of every signal with the first nb
     * blocks, *rmse from its energies; it returns after the device is done.
     * close: free the device side; NULL is a no-op. */
    int (*open)(struct rb_case *c, int p, int s, int L, int m, int block, int polar,
                int cublas, int prof, const float *Y, struct sbo_gpu_train_dev **out);
    int (*fit)(struct rb_case *c, struct sbo_gpu_train_dev *t, const float *Y,
               const struct sbo_opts *o, int *nb, double *rmse, float *D, int *best);
    int (*code)(struct rb_case *c, struct sbo_gpu_train_dev *t, int nb, double *rmse);
    void (*close)(struct sbo_gpu_train_dev *t);
};

/* Each backend's engine (defined by sbo_gpu_engine.cu for it), and its
 * variants (sbo_gpu_table.c). */
const struct sbo_gpu_engine *sbo_cuda_engine(void);
const struct sbo_gpu_engine *sbo_hip_engine(void);
extern const struct rb_variant sbo_cuda_variants[];
extern const struct rb_variant sbo_hip_variants[];

#ifdef __cplusplus
}
#endif

#endif
