/* SPDX-License-Identifier: MIT */
/* The SBO training on CUDA and HIP devices (sbo_cuda_train.cu,
 * sbo_hip_train.hip, one source: sbo_gpu_train_*.inc): the entry points the
 * variant tables name, host-array calls of single steps for the tests, and
 * a whole training on host arrays outside the harness (sbo-learn).  No
 * CUDA or HIP header is needed to include this. */
#ifndef SBO_GPU_TRAIN_H
#define SBO_GPU_TRAIN_H

#include <stddef.h>
#include "harness/variant.h"

#ifdef __cplusplus
extern "C" {
#endif

struct sbo_opts;

/* As the OpenCL training's (sbo_opencl_train.h), on the CUDA device: admit
 * skips what the kernels or the build cannot do (p > 256, block outside
 * 32..256, cublas=1 without cuBLAS); run times the whole training
 * (c->device_ms); verify reads D and the assignment back, records the
 * profile (ms_<kernel>, launches, host_syncs, ms_gaps, ms_wall) and calls
 * sbo_train_verify. */
int sbo_cuda_train_admit(struct rb_case *c);
size_t sbo_cuda_train_footprint(const struct rb_case *c);
int sbo_cuda_train_setup(struct rb_case *c);
int sbo_cuda_train_run(struct rb_case *c);
int sbo_cuda_train_verify(struct rb_case *c, struct rb_check *out);
void sbo_cuda_train_teardown(struct rb_case *c);
void sbo_cuda_train_occupancy(struct rb_case *c, struct rb_occ *occ);
/* 1 when the CUDA library was built with cuBLAS. */
int sbo_cuda_train_have_cublas(void);

/* Single steps on host arrays (in fp64, rounded to the precision on the
 * way), each on a device side of its own; c gives the device, the
 * precision (c->prec) and the messages.  0 or RB_E*.
 * Q[g] (nb p x p) from M[g]: polar 0 the Jacobi SVD and Q = U V^T (U, V,
 * sig, if not NULL, get the SVD), mode 1 Q = U by descending singular
 * value; polar 1 Newton-Schulz with the SVD for flagged blocks, their
 * count in *fallbacks. */
int sbo_cuda_train_svd_host(struct rb_case *c, int p, int nb, const double *M, int polar,
                            int mode, double *Q, double *U, double *V, double *sig,
                            int *fallbacks);
/* idx[0 .. W-1] the W worst of r (sbo_worst); order and cnt the grouping
 * of best over nb blocks; Ysub = Y[:, order] (p x m). */
int sbo_cuda_train_select_host(struct rb_case *c, int p, int m, int W, const double *r,
                               int nb, const int *best, const double *Y, int *idx,
                               int *order, int *cnt, double *Ysub);
/* The thresholding of nb blocks' p x n codes C (in place) with counts cnt. */
int sbo_cuda_train_threshold_host(struct rb_case *c, int p, int s, int nb, int n,
                                  const int *cnt, double *C);
/* The two batched GEMMs of 1ONB on nb blocks (D nb p x p, Y p x ny, yoff
 * the blocks' first signals): C_g = D_g^T Y_g (p x n), then M_g = Y_g C_g^T,
 * through cuBLAS when cublas (and built with it). */
int sbo_cuda_train_gemm_host(struct rb_case *c, int p, int nb, int n, int ny,
                             const double *D, const double *Y, const int *yoff, int cublas,
                             double *C, double *M);

/* The float training driven outside the harness's cases (sbo-learn's;
 * sbo_gpu_train_direct.inc).  open: a device side on c's device (selected
 * here from c->ctx->cuda_device; c->device names it) for m signals of p,
 * sparsity s and up to L blocks, `block` threads a block, Newton-Schulz
 * (polar 1) or the Jacobi SVD, the GEMMs through cuBLAS when cublas, a
 * pair of events around each launch when prof; Y (p x m) uploaded, then a
 * short warm-up training on it so that every kernel the training runs is
 * loaded before fit is timed.  c->transfer_ms
 * gets the allocations and the upload, c->build_ms the warm-up.  *out the
 * state, NULL on failure; 0 or RB_E* with the message in c (RB_ENODEV: no
 * such device; RB_ESKIP: what the kernels or the build cannot do). */
struct sbo_cuda_train_dev;
int sbo_cuda_train_open(struct rb_case *c, int p, int s, int L, int m, int block, int polar,
                        int cublas, int prof, const float *Y,
                        struct sbo_cuda_train_dev **out);
/* Y uploaded again, sbo_train's loop with o (o->s as opened, o->L up to
 * the L opened; o->trace after each pass), then the *nb blocks read back
 * into D (nb p^2 floats) and the assignment into best (m ints).  c's
 * metrics get the loop's: ms_device (its device span, events), launches
 * and host_syncs, and with prof the variants' profile (ms_<kernel>, ms_gaps,
 * ms_wall).  0 or RB_E*. */
int sbo_cuda_train_fit(struct rb_case *c, struct sbo_cuda_train_dev *t, const float *Y,
                       const struct sbo_opts *o, int *nb, double *rmse, float *D, int *best);
/* One representation pass of every signal with the first nb blocks, *rmse
 * from its energies; it returns after the device is done.  0 or RB_E*. */
int sbo_cuda_train_code(struct rb_case *c, struct sbo_cuda_train_dev *t, int nb,
                        double *rmse);
/* Free the device side; NULL is a no-op. */
void sbo_cuda_train_close(struct sbo_cuda_train_dev *t);

/* The same on the HIP device (no cuBLAS: cublas must be 0). */
int sbo_hip_train_admit(struct rb_case *c);
size_t sbo_hip_train_footprint(const struct rb_case *c);
int sbo_hip_train_setup(struct rb_case *c);
int sbo_hip_train_run(struct rb_case *c);
int sbo_hip_train_verify(struct rb_case *c, struct rb_check *out);
void sbo_hip_train_teardown(struct rb_case *c);
void sbo_hip_train_occupancy(struct rb_case *c, struct rb_occ *occ);
int sbo_hip_train_have_cublas(void);
int sbo_hip_train_svd_host(struct rb_case *c, int p, int nb, const double *M, int polar,
                           int mode, double *Q, double *U, double *V, double *sig,
                           int *fallbacks);
int sbo_hip_train_select_host(struct rb_case *c, int p, int m, int W, const double *r, int nb,
                              const int *best, const double *Y, int *idx, int *order,
                              int *cnt, double *Ysub);
int sbo_hip_train_threshold_host(struct rb_case *c, int p, int s, int nb, int n,
                                 const int *cnt, double *C);
int sbo_hip_train_gemm_host(struct rb_case *c, int p, int nb, int n, int ny, const double *D,
                            const double *Y, const int *yoff, int cublas, double *C,
                            double *M);
struct sbo_hip_train_dev;
int sbo_hip_train_open(struct rb_case *c, int p, int s, int L, int m, int block, int polar,
                       int cublas, int prof, const float *Y, struct sbo_hip_train_dev **out);
int sbo_hip_train_fit(struct rb_case *c, struct sbo_hip_train_dev *t, const float *Y,
                      const struct sbo_opts *o, int *nb, double *rmse, float *D, int *best);
int sbo_hip_train_code(struct rb_case *c, struct sbo_hip_train_dev *t, int nb, double *rmse);
void sbo_hip_train_close(struct sbo_hip_train_dev *t);

#ifdef __cplusplus
}
#endif

#endif
