/* SPDX-License-Identifier: MIT */
/* SBO in float with OpenMP and OpenBLAS: the conventions of sbo.h, the
 * GEMMs through cblas_sgemm, the SVD through LAPACKE_sgesvd.  `threads`
 * OpenMP threads each take chunks of signals and run one-thread SGEMMs and
 * the selection on them (OpenBLAS is set to one thread, sbo_omp.c says
 * why); regions with one chunk run on the calling thread. */
#ifndef SBO_OMP_H
#define SBO_OMP_H

#include "impl/sbo/sbo.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Signals per GEMM chunk of the representation pass: its scratch holds
 * nb p SBO_OMP_CHUNK floats per thread. */
#define SBO_OMP_CHUNK 256

/* sbo_represent in float (energy may be NULL).  0 or RB_ENOMEM. */
int sbo_represent_omp(int p, int s, int nb, const float *D, int m, const float *Y, int *best,
                      float *energy, int threads);
/* sbo_1onb in float; err as there, accumulated in double. */
int sbo_1onb_omp(int p, int m, const float *Y, int s, int K, float *Q, double *err,
                 int threads);
/* sbo_init_basis in float (svd_of_data through Y Y^T by ssyrk and sgesvd;
 * random_orth drawn in double, then rounded). */
int sbo_init_basis_omp(int p, int m, const float *Y, enum sbo_init how, uint64_t seed,
                       float *Q, int threads);
/* sbo_train in float; *rmse and the trace's RMSE summed in double. */
int sbo_train_omp(int p, int m, const float *Y, const struct sbo_opts *o, float *D, int *nb,
                  int *assign, double *rmse, int threads);

#ifdef __cplusplus
}
#endif

#endif
