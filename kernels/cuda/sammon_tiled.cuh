// SPDX-License-Identifier: MIT
// A faster standard step than the paper's (not in Borisov and Myasnikov):
// the pair loop blocked like a matrix product.  A block of 16 x 16 threads
// owns a tile of TILE = 16 R points i and walks tiles of TILE points j;
// each thread owns R x R pairs, R points i and R points j.  The input
// coordinates of both tiles pass through shared memory KC at a time, so one
// staged value serves R pairs from registers, and each thread sums the
// squared input distances of its R x R pairs in registers
// (2 operations per pair and coordinate, the floor of the direct form);
// the next coordinates are read from global memory meanwhile.
// Then the output distances, 1/d - 1/d* with two reciprocal square roots,
// and the R x M gradient sums of its points i, kept in registers from the
// first tile j to the last and added across the row's 16 threads at the
// end, in shared memory: no atomics, nothing N^2 stored.
// For small N the tiles j are split over gridDim.y blocks, each writing its
// partial sums; sammon_tiled_update adds them and moves the points.
// Flat layout (x[p n + k], y[p M + q]); any N and n; CUDA and HIP alike.
#ifndef SAMMON_TILED_CUH
#define SAMMON_TILED_CUH

#include "kernels/cuda/sammon_common.cuh"

// Threads per block side, and input coordinates staged at a time.
#define SAMMON_TILED_SIDE 16
#define SAMMON_TILED_THREADS (SAMMON_TILED_SIDE * SAMMON_TILED_SIDE)
#define SAMMON_TILED_KC 16

// The points per tile side for R points per thread side.
__host__ __device__ constexpr int sammon_tiled_tile(int R)
{
    return SAMMON_TILED_SIDE * R;
}

// A thread's points lie in groups of VL (one 16-byte shared load), the
// groups SIDE * VL apart, so that neighbouring threads read neighbouring
// words: point `a` of thread t is at this offset in the tile.
template <typename T, int R> __device__ __forceinline__ int sammon_tiled_slot(int t, int a)
{
    constexpr int VL = R < sammon_vec_width<T>() ? R : sammon_vec_width<T>();
    return a / VL * (SAMMON_TILED_SIDE * VL) + t * VL + a % VL;
}

// R staged values of one coordinate: the thread's points.
template <typename T, int R>
__device__ __forceinline__ void sammon_tiled_row(T *out, const T *row, int t)
{
    constexpr int VL = R < sammon_vec_width<T>() ? R : sammon_vec_width<T>();
#pragma unroll
    for (int gi = 0; gi < R / VL; gi++) {
        const sammon_vec<T, VL> v = *reinterpret_cast<const sammon_vec<T, VL> *>(
            row + sammon_tiled_slot<T, R>(t, gi * VL));
#pragma unroll
        for (int l = 0; l < VL; l++)
            out[gi * VL + l] = v.v[l];
    }
}

// Values of the tile's staged coordinates each thread moves.
template <int TILE> __host__ __device__ constexpr int sammon_tiled_per_thread()
{
    return TILE * SAMMON_TILED_KC / SAMMON_TILED_THREADS;
}

// This thread's share of coordinates k0 .. k0 + KC - 1 of points
// r0 .. r0 + TILE - 1, zero beyond N and n so that they add nothing;
// neighbouring threads read neighbouring coordinates of a point.
template <typename T, int TILE>
__device__ __forceinline__ void sammon_tiled_fetch(T (&v)[sammon_tiled_per_thread<TILE>()],
                                                   const T *__restrict__ x, int N, int n,
                                                   int r0, int k0)
{
    constexpr int KC = SAMMON_TILED_KC;
#pragma unroll
    for (int it = 0; it < sammon_tiled_per_thread<TILE>(); it++) {
        const int e = it * SAMMON_TILED_THREADS + threadIdx.x;
        const int r = r0 + e / KC, k = k0 + e % KC;
        v[it] = r < N && k < n ? x[(size_t)r * n + k] : T(0);
    }
}

// The fetched share into dst[k][r] (LD values a row).
template <typename T, int TILE, int LD>
__device__ __forceinline__ void sammon_tiled_put(T *dst,
                                                 const T (&v)[sammon_tiled_per_thread<TILE>()])
{
    constexpr int KC = SAMMON_TILED_KC;
#pragma unroll
    for (int it = 0; it < sammon_tiled_per_thread<TILE>(); it++) {
        const int e = it * SAMMON_TILED_THREADS + threadIdx.x;
        dst[e % KC * LD + e / KC] = v[it];
    }
}

// Shared-memory row length of a tile: a 16-byte pad keeps rows aligned for
// the vector loads and staggers the banks of the transposing stores.
template <typename T, int R> __host__ __device__ constexpr int sammon_tiled_ld()
{
    return SAMMON_TILED_SIDE * R + sammon_vec_width<T>();
}

// acc[a][b] = |x_i - x_j|^2 for the thread's pairs of the tiles at points
// i0 and j0, through xi_s and xj_s (KC rows of LD); yj_s (M rows of TILE)
// gets tile j's outputs.  Starts with a barrier, so the buffers may still
// be read when it is called; ends with them in use.
template <typename T, int M, int R>
__device__ __forceinline__ void sammon_tiled_dist2(T (&acc)[R][R], T *xi_s, T *xj_s, T *yj_s,
                                                   const T *__restrict__ x,
                                                   const T *__restrict__ y, int N, int n,
                                                   int i0, int j0)
{
    constexpr int S = SAMMON_TILED_SIDE, KC = SAMMON_TILED_KC, TILE = S * R;
    constexpr int LD = sammon_tiled_ld<T, R>();
    const int tx = threadIdx.x % S, ty = threadIdx.x / S;
#pragma unroll
    for (int a = 0; a < R; a++)
#pragma unroll
        for (int b = 0; b < R; b++)
            acc[a][b] = T(0);
    // The next stage's coordinates are read while this one's are summed.
    T vi[sammon_tiled_per_thread<TILE>()], vj[sammon_tiled_per_thread<TILE>()];
    sammon_tiled_fetch<T, TILE>(vi, x, N, n, i0, 0);
    sammon_tiled_fetch<T, TILE>(vj, x, N, n, j0, 0);
    for (int k0 = 0; k0 < n; k0 += KC) {
        __syncthreads();                // the last stage and yj_s are read by all
        sammon_tiled_put<T, TILE, LD>(xi_s, vi);
        sammon_tiled_put<T, TILE, LD>(xj_s, vj);
        if (k0 == 0)
            for (int e = threadIdx.x; e < TILE * M; e += SAMMON_TILED_THREADS) {
                const int j = j0 + e / M;
                yj_s[e % M * TILE + e / M] = j < N ? y[(size_t)j * M + e % M] : T(0);
            }
        __syncthreads();
        if (k0 + KC < n) {
            sammon_tiled_fetch<T, TILE>(vi, x, N, n, i0, k0 + KC);
            sammon_tiled_fetch<T, TILE>(vj, x, N, n, j0, k0 + KC);
        }
#pragma unroll
        for (int kk = 0; kk < KC; kk++) {
            T xa[R], xb[R];
            sammon_tiled_row<T, R>(xa, xi_s + kk * LD, ty);
            sammon_tiled_row<T, R>(xb, xj_s + kk * LD, tx);
#pragma unroll
            for (int a = 0; a < R; a++)
#pragma unroll
                for (int b = 0; b < R; b++) {
                    const T d = xa[a] - xb[b];
                    acc[a][b] += d * d;
                }
        }
    }
}

// The pair weight from the squared distances: 1/d - 1/d* = (d* - d) / (d* d),
// 0 where the outputs coincide (j = p) or j is padding.
template <typename T> __device__ __forceinline__ T sammon_tiled_weight(bool valid, T ds2, T d2)
{
    return valid && d2 > T(0) ? sammon_rsqrt(d2) - sammon_rsqrt(ds2) : T(0);
}

// The sum over the 16 threads c = 0 .. 15 of v[a] held at tile slot
// slot(r, a), through buf (16 rows of LD): thread t < TILE gets slot t's.
// Starts with a barrier, so buf may still be read when it is called.
template <typename T, int R>
__device__ __forceinline__ T sammon_tiled_sum(T *buf, const T (&v)[R], int c, int r)
{
    constexpr int S = SAMMON_TILED_SIDE, LD = sammon_tiled_ld<T, R>();
    static_assert(SAMMON_TILED_KC >= S, "a staging buffer holds a row per thread");
    __syncthreads();
#pragma unroll
    for (int a = 0; a < R; a++)
        buf[c * LD + sammon_tiled_slot<T, R>(r, a)] = v[a];
    __syncthreads();
    T sum = T(0);
    if (threadIdx.x < S * R)
#pragma unroll
        for (int k = 0; k < S; k++)
            sum += buf[k * LD + threadIdx.x];
    return sum;
}

// part[blockIdx.y][p][q] = sum over the split's points j of w_pj (y_p - y_j)
// for the block's points p.  Grid (ceil(N / TILE), splits), 256 threads;
// split s takes tiles j s * per_split .. (s + 1) * per_split - 1.  n >= 1.
template <typename T, int M, int R>
__global__ void __launch_bounds__(SAMMON_TILED_THREADS)
sammon_tiled(int N, int n, int per_split, const T *__restrict__ x, const T *__restrict__ y,
             T *__restrict__ part)
{
    constexpr int S = SAMMON_TILED_SIDE, KC = SAMMON_TILED_KC, TILE = S * R;
    constexpr int LD = sammon_tiled_ld<T, R>();
    __shared__ __align__(16) T xi_s[KC * LD];
    __shared__ __align__(16) T xj_s[KC * LD];
    __shared__ T yj_s[M * TILE];

    const int tx = threadIdx.x % S, ty = threadIdx.x / S;
    const int i0 = blockIdx.x * TILE, tiles = (N + TILE - 1) / TILE;
    const int jt_begin = blockIdx.y * per_split;
    const int jt_end = min(tiles, jt_begin + per_split);
    T yi[R][M], g[M][R];
#pragma unroll
    for (int a = 0; a < R; a++) {
        const int p = i0 + sammon_tiled_slot<T, R>(ty, a);
#pragma unroll
        for (int q = 0; q < M; q++) {
            yi[a][q] = p < N ? y[(size_t)p * M + q] : T(0);
            g[q][a] = T(0);
        }
    }
    for (int jt = jt_begin; jt < jt_end; jt++) {
        const int j0 = jt * TILE;
        T acc[R][R];
        sammon_tiled_dist2<T, M, R>(acc, xi_s, xj_s, yj_s, x, y, N, n, i0, j0);
#pragma unroll
        for (int b = 0; b < R; b++) {
            const int jl = sammon_tiled_slot<T, R>(tx, b);
            T yj[M];
#pragma unroll
            for (int q = 0; q < M; q++)
                yj[q] = yj_s[q * TILE + jl];
#pragma unroll
            for (int a = 0; a < R; a++) {
                T diff[M], d2 = T(0);
#pragma unroll
                for (int q = 0; q < M; q++) {
                    diff[q] = yi[a][q] - yj[q];
                    d2 += diff[q] * diff[q];
                }
                const T w = sammon_tiled_weight(j0 + jl < N, acc[a][b], d2);
#pragma unroll
                for (int q = 0; q < M; q++)
                    g[q][a] += w * diff[q];
            }
        }
    }
    // The 16 threads of a row ty hold sums over different points j.
    T *out = part + (size_t)blockIdx.y * N * M;
#pragma unroll
    for (int q = 0; q < M; q++) {
        const T sum = sammon_tiled_sum<T, R>(xi_s, g[q], tx, ty);
        if (threadIdx.x < TILE && i0 + (int)threadIdx.x < N)
            out[(size_t)(i0 + threadIdx.x) * M + q] = sum;
    }
}

// y <- y + coef sum_s part[s] over `count` values.
template <typename T>
__global__ void __launch_bounds__(1024)
sammon_tiled_update(int64_t count, int splits, T coef, T *__restrict__ y,
                    const T *__restrict__ part)
{
    const int64_t stride = (int64_t)gridDim.x * blockDim.x;
    for (int64_t e = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; e < count; e += stride) {
        T s = T(0);
        for (int sp = 0; sp < splits; sp++)
            s += part[sp * count + e];
        y[e] += coef * s;
    }
}

#endif
