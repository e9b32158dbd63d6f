// SPDX-License-Identifier: MIT
// The batched GEMM of 1ONB steps 3 and 5 (Irofti, "Matrix multiplication";
// shared/notes/sbo.md 5.1) where cuBLAS is not used, as kernels/opencl/
// sbo_train_gemm.cl has it: for each batch entry b, C_b = op(A_b) op(B_b)
// (alpha 1, beta 0), column-major, the entries' offsets in elements from a
// device array.  Tiles of SBO_GEMM_TILE^2 in shared memory.  CUDA and HIP.
#ifndef SBO_TRAIN_GEMM_CUH
#define SBO_TRAIN_GEMM_CUH

// Tile edge: a block is SBO_GEMM_TILE^2 threads, each one element of C.
#define SBO_GEMM_TILE 16
#define SBO_GEMM_THREADS (SBO_GEMM_TILE * SBO_GEMM_TILE)

// op(X)[r, c] of a column-major X with leading dimension ld.
#define SBO_OP(X, t, ld, r, c) ((t) ? (X)[(size_t)(c) + (size_t)(r) * (ld)] \
                                    : (X)[(size_t)(r) + (size_t)(c) * (ld)])

// Grid (ceil(M / TILE) ceil(N / TILE), nbatch), SBO_GEMM_THREADS threads;
// offs holds the A, B and C offsets of every entry (all A, then all B,
// then all C).
template <typename T>
static __global__ void __launch_bounds__(SBO_GEMM_THREADS)
sbo_gemm_batched(int ta, int tb, int M, int N, int K, const unsigned long long *__restrict__ offs,
                 const T *__restrict__ A, int lda, const T *__restrict__ B, int ldb,
                 T *__restrict__ C, int ldc)
{
    __shared__ T As[SBO_GEMM_TILE][SBO_GEMM_TILE + 1];
    __shared__ T Bs[SBO_GEMM_TILE][SBO_GEMM_TILE + 1];
    const int tr = threadIdx.x % SBO_GEMM_TILE, tc = threadIdx.x / SBO_GEMM_TILE;
    const int mt = (M + SBO_GEMM_TILE - 1) / SBO_GEMM_TILE;
    const int r0 = (blockIdx.x % mt) * SBO_GEMM_TILE, c0 = (blockIdx.x / mt) * SBO_GEMM_TILE;
    const int r = r0 + tr, c = c0 + tc;
    const int b = blockIdx.y, nbatch = gridDim.y;
    const T *a = A + offs[b];
    const T *bm = B + offs[nbatch + b];
    // Thread (tr, tc) loads element (tr, tc) of each tile, the faster
    // index along the stored columns where the transpose allows.
    const int ai = ta ? tc : tr, ak = ta ? tr : tc;
    const int bk = tb ? tc : tr, bj = tb ? tr : tc;
    T acc = T(0);
    for (int k0 = 0; k0 < K; k0 += SBO_GEMM_TILE) {
        As[ak][ai] = r0 + ai < M && k0 + ak < K ? SBO_OP(a, ta, lda, r0 + ai, k0 + ak) : T(0);
        Bs[bk][bj] = k0 + bk < K && c0 + bj < N ? SBO_OP(bm, tb, ldb, k0 + bk, c0 + bj) : T(0);
        __syncthreads();
#pragma unroll
        for (int k = 0; k < SBO_GEMM_TILE; k++)
            acc += As[k][tr] * Bs[k][tc];
        __syncthreads();
    }
    if (r < M && c < N)
        C[offs[2 * nbatch + b] + (size_t)r + (size_t)c * ldc] = acc;
}

#endif
