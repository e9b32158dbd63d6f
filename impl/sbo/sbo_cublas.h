// SPDX-License-Identifier: MIT
// cuBLAS opened the first time the training asks for it (dlopen of the
// library configure found), not linked: its start-up (static initialisers
// that fault in about 100 MB) would otherwise cost every command of the
// program about 0.1 s, though only the SBO training's batched GEMMs call
// it.  The five entry points the training uses, as cuBLAS spells them.
#ifndef SBO_CUBLAS_H
#define SBO_CUBLAS_H

#include <stddef.h>
#include <cublas_v2.h>

// 0 once the library and its entry points are there (the first call opens
// it, later ones answer at once), or -1 with the reason in why.
int sbo_cublas_open(char *why, size_t len);

// cublasCreate, cublasDestroy, cublasSetStream, cublasSgemmBatched and
// cublasDgemmBatched; CUBLAS_STATUS_NOT_INITIALIZED where the library
// could not be opened.
cublasStatus_t sbo_cublas_create(cublasHandle_t *h);
cublasStatus_t sbo_cublas_destroy(cublasHandle_t h);
cublasStatus_t sbo_cublas_set_stream(cublasHandle_t h, cudaStream_t s);
cublasStatus_t sbo_cublas_sgemm_batched(cublasHandle_t h, cublasOperation_t ta,
                                        cublasOperation_t tb, int m, int n, int k,
                                        const float *alpha, const float *const A[], int lda,
                                        const float *const B[], int ldb, const float *beta,
                                        float *const C[], int ldc, int count);
cublasStatus_t sbo_cublas_dgemm_batched(cublasHandle_t h, cublasOperation_t ta,
                                        cublasOperation_t tb, int m, int n, int k,
                                        const double *alpha, const double *const A[], int lda,
                                        const double *const B[], int ldb, const double *beta,
                                        double *const C[], int ldc, int count);

#endif
