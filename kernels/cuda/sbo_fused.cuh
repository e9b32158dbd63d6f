// SPDX-License-Identifier: MIT
// The representation pass in one kernel (not in Irofti's paper, which
// writes every (signal, block) energy and reduces them after): nothing per
// pair leaves the chip.  Each thread owns SIG signals, their p values in
// registers; the block walks the L orthobases, staging Q^T (row r = code
// r's coefficients, column r of Q) in shared memory a chunk of rows at a
// time, double-buffered: while the threads compute on one chunk they copy
// the next into the other buffer, a slice per group of four codes, each
// slice read from global memory one group ahead of its store.  For each
// code the SIG dot products of length PMAX run as 4 x SIG independent
// chains (four codes at once), every coefficient a broadcast read shared
// by SIG signals; the square enters a sorted list of S registers only when
// it beats the smallest.  After a block's last code its energy (the list's
// sum) is compared with the best so far, ties to the lower block.
// CUDA and HIP alike: no warp intrinsic, barriers only.
#ifndef SBO_FUSED_CUH
#define SBO_FUSED_CUH

#include "kernels/cuda/sbo_common.cuh"

// Shared bytes of one staged chunk (two are held): 16 KB stage a whole
// 64 x 64 float block; 32 KB in all leave room for several blocks an SM.
#define SBO_FUSED_CHUNK_BYTES (16 * 1024)
// The most threads a block: SIG signals of PMAX values a thread sit in
// registers (about 190 of them for float at p = 64).
#define SBO_FUSED_MAX_BLOCK 256
// Staged values a thread reads one group ahead; a slice's rest (blocks
// under 4 PMAX / SBO_FUSED_PREFETCH threads) is copied as it is read.
#define SBO_FUSED_PREFETCH 4

// Rows (codes) of a chunk: the whole padded block, or what fits in
// SBO_FUSED_CHUNK_BYTES; a multiple of 4 for PMAX 64 and 256.
template <typename T, int PMAX> __host__ __device__ constexpr int sbo_fused_rows()
{
    return SBO_FUSED_CHUNK_BYTES / (PMAX * (int)sizeof(T)) < PMAX
               ? SBO_FUSED_CHUNK_BYTES / (PMAX * (int)sizeof(T)) : PMAX;
}

// Signals a thread: two share each coefficient read in float at p <= 64
// (8 FMAs a 16-byte shared load); one where 2 PMAX values would not fit.
template <typename T, int PMAX> __host__ __device__ constexpr int sbo_fused_sig()
{
    return sizeof(T) == sizeof(float) && PMAX <= SBO_GPU_PMAX_SMALL ? 2 : 1;
}

// Where chunk u of the walk lies: block j, first row row0 (RC rows a chunk,
// cpb chunks a block).
struct sbo_chunk {
    int j, row0;
};

__device__ __forceinline__ sbo_chunk sbo_chunk_at(int u, int cpb, int rc)
{
    return { u / cpb, u % cpb * rc };
}

// Element e of rows row0 + r0 onwards (PMAX a row) of block j, zero past p.
template <typename T, int PMAX>
__device__ __forceinline__ T sbo_staged(const T *__restrict__ D, int p, sbo_chunk ch, int r0,
                                        int e)
{
    const int row = ch.row0 + r0 + e / PMAX, k = e % PMAX;
    return row < p && k < p ? D[(size_t)ch.j * p * p + (size_t)row * p + k] : T(0);
}

// This thread's prefetched values of slice g (rows 4g .. 4g + 3) of chunk u.
template <typename T, int PMAX>
__device__ __forceinline__ void sbo_slice_fetch(T (&pre)[SBO_FUSED_PREFETCH],
                                                const T *__restrict__ D, int p, int u,
                                                int nchunks, int cpb, int g)
{
    constexpr int RC = sbo_fused_rows<T, PMAX>();
    if (u >= nchunks)
        return;
    const sbo_chunk ch = sbo_chunk_at(u, cpb, RC);
#pragma unroll
    for (int q = 0; q < SBO_FUSED_PREFETCH; q++) {
        const int e = threadIdx.x + q * blockDim.x;
        if (e < 4 * PMAX)
            pre[q] = sbo_staged<T, PMAX>(D, p, ch, 4 * g, e);
    }
}

// Slice g of chunk u into its buffer: the prefetched values, then the rest.
template <typename T, int PMAX>
__device__ __forceinline__ void sbo_slice_store(T *buf, const T (&pre)[SBO_FUSED_PREFETCH],
                                                const T *__restrict__ D, int p, int u,
                                                int nchunks, int cpb, int g)
{
    constexpr int RC = sbo_fused_rows<T, PMAX>();
    if (u >= nchunks)
        return;
    T *dst = buf + 4 * g * PMAX;
#pragma unroll
    for (int q = 0; q < SBO_FUSED_PREFETCH; q++) {
        const int e = threadIdx.x + q * blockDim.x;
        if (e < 4 * PMAX)
            dst[e] = pre[q];
    }
    const sbo_chunk ch = sbo_chunk_at(u, cpb, RC);
    for (int e = threadIdx.x + SBO_FUSED_PREFETCH * blockDim.x; e < 4 * PMAX; e += blockDim.x)
        dst[e] = sbo_staged<T, PMAX>(D, p, ch, 4 * g, e);
}

// Codes r .. r + 3 (rows of the staged chunk at q0) of the SIG signals,
// each square into its signal's list.
template <typename T, int PMAX, int S, int SIG>
__device__ __forceinline__ void sbo_codes4(const T *q0, const T (&y)[SIG][PMAX],
                                           T (&top)[SIG][S])
{
    T acc[SIG][4];
#pragma unroll
    for (int a = 0; a < SIG; a++)
#pragma unroll
        for (int c = 0; c < 4; c++)
            acc[a][c] = T(0);
#pragma unroll
    for (int k = 0; k < PMAX; k += 4) {
        sbo_quad<T> q[4];
#pragma unroll
        for (int c = 0; c < 4; c++)
            q[c] = sbo_quad_load(q0 + c * PMAX + k);
#pragma unroll
        for (int a = 0; a < SIG; a++)
#pragma unroll
            for (int c = 0; c < 4; c++) {
                acc[a][c] += q[c].x * y[a][k];
                acc[a][c] += q[c].y * y[a][k + 1];
                acc[a][c] += q[c].z * y[a][k + 2];
                acc[a][c] += q[c].w * y[a][k + 3];
            }
    }
#pragma unroll
    for (int a = 0; a < SIG; a++) {
        T sq[4];
#pragma unroll
        for (int c = 0; c < 4; c++)
            sq[c] = acc[a][c] * acc[a][c];
        sbo_top_insert4<T, S>(top[a], sq);
    }
}

// Grid ceil(m / (block SIG)) x block threads (block <= SBO_FUSED_MAX_BLOCK);
// thread t of block b owns signals b block SIG + t + a block, a < SIG.
// Threads past m work on signal m - 1 (they take part in the barriers)
// and write nothing.  p <= PMAX, 1 <= L.
template <typename T, int PMAX, int S>
__global__ void __launch_bounds__(SBO_FUSED_MAX_BLOCK)
sbo_fused(int p, int L, int m, const T *__restrict__ D, const T *__restrict__ Y,
          int *__restrict__ best, T *__restrict__ energy)
{
    constexpr int RC = sbo_fused_rows<T, PMAX>(), NG = RC / 4;
    constexpr int SIG = sbo_fused_sig<T, PMAX>();
    __shared__ __align__(16) T qs[2][RC * PMAX];
    const int nt = blockDim.x, first = blockIdx.x * nt * SIG + threadIdx.x;
    const int cpb = (p + RC - 1) / RC, nchunks = L * cpb;
    T y[SIG][PMAX], top[SIG][S], eb[SIG];
    int jb[SIG];
#pragma unroll
    for (int a = 0; a < SIG; a++) {
        const int i = first + a * nt;
        sbo_signal_load<T, PMAX>(y[a], Y, p, i < m ? i : m - 1);
        eb[a] = T(0);
        jb[a] = 0;
    }
    const sbo_chunk ch0 = sbo_chunk_at(0, cpb, RC);
    for (int e = threadIdx.x; e < RC * PMAX; e += nt)
        qs[0][e] = sbo_staged<T, PMAX>(D, p, ch0, 0, e);
    T pre[SBO_FUSED_PREFETCH];
    sbo_slice_fetch<T, PMAX>(pre, D, p, 1, nchunks, cpb, 0);
    for (int u = 0; u < nchunks; u++) {
        // Chunk u is whole in its buffer; chunk u - 1's is no longer read.
        __syncthreads();
        const T *cur = qs[u & 1];
        T *nxt = qs[(u + 1) & 1];
        const sbo_chunk ch = sbo_chunk_at(u, cpb, RC);
        const int rows = p - ch.row0 < RC ? p - ch.row0 : RC;
        if (ch.row0 == 0)
#pragma unroll
            for (int a = 0; a < SIG; a++)
                sbo_top_clear<T, S>(top[a]);
#pragma unroll 1
        for (int g = 0; g < NG; g++) {
            sbo_slice_store<T, PMAX>(nxt, pre, D, p, u + 1, nchunks, cpb, g);
            if (g + 1 < NG)
                sbo_slice_fetch<T, PMAX>(pre, D, p, u + 1, nchunks, cpb, g + 1);
            else
                sbo_slice_fetch<T, PMAX>(pre, D, p, u + 2, nchunks, cpb, 0);
            if (4 * g < rows)
                sbo_codes4<T, PMAX, S, SIG>(cur + 4 * g * PMAX, y, top);
        }
        if (ch.row0 + RC >= p)
#pragma unroll
            for (int a = 0; a < SIG; a++) {
                const T e = sbo_top_sum<T, S>(top[a]);
                if (ch.j == 0 || e > eb[a]) {
                    eb[a] = e;
                    jb[a] = ch.j;
                }
            }
    }
#pragma unroll
    for (int a = 0; a < SIG; a++) {
        const int i = first + a * nt;
        if (i < m) {
            best[i] = jb[a];
            energy[i] = eb[a];
        }
    }
}

#endif
