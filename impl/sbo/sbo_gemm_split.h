/* SPDX-License-Identifier: MIT */
/* How the SBO training's batched GEMM splits its K (kernels/cuda/
 * sbo_train_gemm.cuh, kernels/opencl/sbo_train_gemm.cl): the tile sizes the
 * kernels are built with, and the number of K chunks for a shape.  C, C++,
 * CUDA and HIP. */
#ifndef SBO_GEMM_SPLIT_H
#define SBO_GEMM_SPLIT_H

#include <stddef.h>

/* A block (work-group) computes a TM x TN tile of C, each of its
 * SBO_GEMM_THREADS threads 4 x 4 of it, stepping K by SBO_GEMM_KT. */
#define SBO_GEMM_TM 64
#define SBO_GEMM_TN 64
#define SBO_GEMM_KT 16
#define SBO_GEMM_THREADS 256

/* Split K until a GEMM has about SBO_GEMM_WANT blocks (a few per SM of a
 * large GPU), in chunks of at least SBO_GEMM_CHUNK_MIN: a p x p result is
 * one tile per batch entry, far too few blocks to hide a long K. */
#define SBO_GEMM_WANT 512
#define SBO_GEMM_CHUNK_MIN 128

/* Elements of partial-product scratch that cover every split
 * sbo_gemm_split chooses for M, N <= p and at most L batch entries:
 * splits * nbatch <= WANT / tiles + nbatch, each M N <= tiles TM TN. */
static inline size_t sbo_gemm_scratch(int p, int L)
{
    return (size_t)SBO_GEMM_WANT * SBO_GEMM_TM * SBO_GEMM_TN + (size_t)L * p * p;
}

/* The number of K chunks for op(A) op(B) of M x N, inner size K, nbatch
 * entries, with `cap` elements of scratch; *chunk gets the chunk's length
 * (a multiple of SBO_GEMM_KT).  1: no split, the result written directly. */
static inline int sbo_gemm_split(int M, int N, int K, int nbatch, size_t cap, int *chunk)
{
    const long long tiles = (long long)((M + SBO_GEMM_TM - 1) / SBO_GEMM_TM)
                            * ((N + SBO_GEMM_TN - 1) / SBO_GEMM_TN) * nbatch;
    long long n = (SBO_GEMM_WANT + tiles - 1) / (tiles > 0 ? tiles : 1);
    const long long most = ((long long)K + SBO_GEMM_CHUNK_MIN - 1) / SBO_GEMM_CHUNK_MIN;
    const long long room = (long long)(cap / ((size_t)M * N * nbatch + 1));
    n = n < most ? n : most;
    n = n < room ? n : room;
    if (n < 1)
        n = 1;
    long long len = (K + n - 1) / n;
    len = (len + SBO_GEMM_KT - 1) / SBO_GEMM_KT * SBO_GEMM_KT;
    if (len < SBO_GEMM_KT)
        len = SBO_GEMM_KT;
    *chunk = (int)len;
    return (int)((K + len - 1) / len > 0 ? (K + len - 1) / len : 1);
}

#endif
