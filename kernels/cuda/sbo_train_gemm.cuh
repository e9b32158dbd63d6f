// SPDX-License-Identifier: MIT
// The batched GEMM of 1ONB steps 3 and 5 (Irofti, "Matrix multiplication";
// shared/notes/sbo.md 5.1) where cuBLAS is not used, as kernels/opencl/
// sbo_train_gemm.cl has it: for each batch entry b, C_b = op(A_b) op(B_b)
// (alpha 1, beta 0), column-major, the entries' offsets in elements from a
// device array.  A block computes a 64 x 64 tile, each thread 4 x 4 of it
// (register tiling: the wide C = Q^T Y).  A long K (the p x p M = Y C^T)
// is split into chunks (impl/sbo/sbo_gemm_split.h) whose partial tiles
// sbo_gemm_sum adds in a fixed order: deterministic, no atomics.  CUDA and HIP.
#ifndef SBO_TRAIN_GEMM_CUH
#define SBO_TRAIN_GEMM_CUH

#include "impl/sbo/sbo_gemm_split.h"

// op(X)[r, c] of a column-major X with leading dimension ld.
#define SBO_OP(X, t, ld, r, c) ((t) ? (X)[(size_t)(c) + (size_t)(r) * (ld)] \
                                    : (X)[(size_t)(r) + (size_t)(c) * (ld)])

// Threads per row of the 4 x 4 thread grid of a tile: thread (tx, ty)
// holds rows tx + 16 u and columns ty + 16 v, so that a warp's reads of
// the staged tiles are consecutive or broadcast.
#define SBO_GEMM_TX 16

// Stage op(X)[i0 .. i0 + 63, k0 .. k0 + KT - 1] (t == 0: X is rows x k;
// 1: X is k x rows) as S[k][i], zero outside rows x [k0, kend): the
// faster thread index along X's stored columns.
template <typename T>
static __device__ __forceinline__ void
sbo_gemm_stage(T (*S)[SBO_GEMM_TM + 1], const T *__restrict__ X, int t, int ld, int rows,
               int i0, int k0, int kend)
{
#pragma unroll
    for (int q = 0; q < SBO_GEMM_TM * SBO_GEMM_KT / SBO_GEMM_THREADS; q++) {
        const int e = (int)threadIdx.x + q * SBO_GEMM_THREADS;
        const int i = t ? e / SBO_GEMM_KT : e % SBO_GEMM_TM;
        const int k = t ? e % SBO_GEMM_KT : e / SBO_GEMM_TM;
        S[k][i] = i0 + i < rows && k0 + k < kend ? SBO_OP(X, t, ld, i0 + i, k0 + k) : T(0);
    }
}

// Grid (tiles * nsplit, nbatch) with tiles = ceil(M / TM) ceil(N / TN),
// SBO_GEMM_THREADS threads; block x covers tile x % tiles and K chunk
// x / tiles of length `chunk`.  offs holds the A, B and C offsets of
// every entry (all A, then all B, then all C).  One chunk (nsplit 1):
// C written; more: entry b's chunk s to P + (b nsplit + s) M N (M x N,
// leading dimension M), for sbo_gemm_sum.
template <typename T>
static __global__ void __launch_bounds__(SBO_GEMM_THREADS)
sbo_gemm_batched(int ta, int tb, int M, int N, int K, int chunk,
                 const unsigned long long *__restrict__ offs, const T *__restrict__ A, int lda,
                 const T *__restrict__ B, int ldb, T *__restrict__ C, int ldc,
                 T *__restrict__ P)
{
    __shared__ T As[SBO_GEMM_KT][SBO_GEMM_TM + 1];
    __shared__ T Bs[SBO_GEMM_KT][SBO_GEMM_TN + 1];
    const int mt = (M + SBO_GEMM_TM - 1) / SBO_GEMM_TM;
    const int tiles = mt * ((N + SBO_GEMM_TN - 1) / SBO_GEMM_TN);
    const int tile = (int)blockIdx.x % tiles, split = (int)blockIdx.x / tiles;
    const int nsplit = (int)gridDim.x / tiles;
    const int r0 = (tile % mt) * SBO_GEMM_TM, c0 = (tile / mt) * SBO_GEMM_TN;
    const int b = (int)blockIdx.y, nbatch = (int)gridDim.y;
    const int kbeg = split * chunk, kend = min(K, kbeg + chunk);
    const int tx = (int)threadIdx.x % SBO_GEMM_TX, ty = (int)threadIdx.x / SBO_GEMM_TX;
    const T *a = A + offs[b];
    const T *bm = B + offs[nbatch + b];
    T acc[4][4];
#pragma unroll
    for (int u = 0; u < 4; u++)
#pragma unroll
        for (int v = 0; v < 4; v++)
            acc[u][v] = T(0);
    for (int k0 = kbeg; k0 < kend; k0 += SBO_GEMM_KT) {
        sbo_gemm_stage<T>(As, a, ta, lda, M, r0, k0, kend);
        // op(B)[k, j] = op(B^T)[j, k]: staged as op(B^T)'s rows.
        sbo_gemm_stage<T>(Bs, bm, !tb, ldb, N, c0, k0, kend);
        __syncthreads();
#pragma unroll
        for (int k = 0; k < SBO_GEMM_KT; k++) {
            T x[4], y[4];
#pragma unroll
            for (int u = 0; u < 4; u++) {
                x[u] = As[k][tx + SBO_GEMM_TX * u];
                y[u] = Bs[k][ty + SBO_GEMM_TX * u];
            }
#pragma unroll
            for (int u = 0; u < 4; u++)
#pragma unroll
                for (int v = 0; v < 4; v++)
                    acc[u][v] += x[u] * y[v];
        }
        __syncthreads();
    }
    T *out = nsplit > 1 ? P + ((size_t)b * nsplit + split) * M * N : C + offs[2 * nbatch + b];
    const int ld = nsplit > 1 ? M : ldc;
#pragma unroll
    for (int u = 0; u < 4; u++)
#pragma unroll
        for (int v = 0; v < 4; v++) {
            const int r = r0 + tx + SBO_GEMM_TX * u, c = c0 + ty + SBO_GEMM_TX * v;
            if (r < M && c < N)
                out[(size_t)r + (size_t)c * ld] = acc[u][v];
        }
}

// C_b = the sum of entry b's nsplit partial products in P, in chunk order.
// Grid (ceil(M N / SBO_GEMM_THREADS), nbatch), SBO_GEMM_THREADS threads;
// offs as sbo_gemm_batched's.
template <typename T>
static __global__ void __launch_bounds__(SBO_GEMM_THREADS)
sbo_gemm_sum(int M, int N, int nsplit, const unsigned long long *__restrict__ offs,
             const T *__restrict__ P, T *__restrict__ C, int ldc)
{
    const int e = (int)(blockIdx.x * blockDim.x + threadIdx.x);
    const int b = (int)blockIdx.y, nbatch = (int)gridDim.y;
    if (e >= M * N)
        return;
    const size_t mn = (size_t)M * N;
    const T *p = P + (size_t)b * nsplit * mn + e;
    T s = p[0];
    for (int k = 1; k < nsplit; k++)
        s += p[k * mn];
    C[offs[2 * nbatch + b] + (size_t)(e % M) + (size_t)(e / M) * ldc] = s;
}

#endif
