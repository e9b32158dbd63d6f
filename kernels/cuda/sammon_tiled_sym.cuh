// SPDX-License-Identifier: MIT
// The tiled step in the paper's modified form (not Borisov and Myasnikov's
// kernel): d*_ij = d*_ji, so each unordered pair of tiles is visited once
// and its pair terms go to both tiles' points, half the distance work of
// sammon_tiled.  A block walks tiles j <= its tile i, summing the R x M
// gradient sums of its points i in registers (sammon_tiled's loop) and the
// opposite terms of the tile j's points beside them; those are added up
// over the block in shared memory and atomically into g once per tile j,
// and the points i's once at the end.  The diagonal tile takes the standard
// form (each point i sums over the whole tile), so no pair counts twice.
// g then holds sum_j w_pj (y_p - y_j); sammon_update moves the points and
// clears it.  Flat layout; any N and n; CUDA and HIP alike.
#ifndef SAMMON_TILED_SYM_CUH
#define SAMMON_TILED_SYM_CUH

#include "kernels/cuda/sammon_tiled.cuh"

// Grid (splits, ceil(N / TILE)), 256 threads: block (s, r) takes the tile i
// I = tiles - 1 - r (the longest rows first) and the tiles j
// s (I + 1) / splits .. (s + 1) (I + 1) / splits - 1.  g is zero or holds
// this step's sums so far.  n >= 1.
template <typename T, int M, int R>
__global__ void __launch_bounds__(SAMMON_TILED_THREADS)
sammon_tiled_sym(int N, int n, const T *__restrict__ x, const T *__restrict__ y, T *g)
{
    constexpr int S = SAMMON_TILED_SIDE, KC = SAMMON_TILED_KC, TILE = S * R;
    constexpr int LD = sammon_tiled_ld<T, R>();
    __shared__ __align__(16) T xi_s[KC * LD];
    __shared__ __align__(16) T xj_s[KC * LD];
    __shared__ T yj_s[M * TILE];

    const int tx = threadIdx.x % S, ty = threadIdx.x / S, t = threadIdx.x;
    const int tiles = (N + TILE - 1) / TILE, I = tiles - 1 - (int)blockIdx.y, i0 = I * TILE;
    const int jt_begin = (int)((long long)blockIdx.x * (I + 1) / gridDim.x);
    const int jt_end = (int)((long long)(blockIdx.x + 1) * (I + 1) / gridDim.x);
    if (jt_begin == jt_end)
        return;                         // the whole block: no barrier is left waiting
    T yi[R][M], gi[M][R];
    bool iv[R];                         // padding points i must not reach the points j
#pragma unroll
    for (int a = 0; a < R; a++) {
        const int p = i0 + sammon_tiled_slot<T, R>(ty, a);
        iv[a] = p < N;
#pragma unroll
        for (int q = 0; q < M; q++) {
            yi[a][q] = p < N ? y[(size_t)p * M + q] : T(0);
            gi[q][a] = T(0);
        }
    }
    for (int jt = jt_begin; jt < jt_end; jt++) {
        const int j0 = jt * TILE;
        T acc[R][R], gj[M][R];
        sammon_tiled_dist2<T, M, R>(acc, xi_s, xj_s, yj_s, x, y, N, n, i0, j0);
#pragma unroll
        for (int b = 0; b < R; b++) {
            const int jl = sammon_tiled_slot<T, R>(tx, b);
            T yj[M];
#pragma unroll
            for (int q = 0; q < M; q++) {
                yj[q] = yj_s[q * TILE + jl];
                gj[q][b] = T(0);
            }
#pragma unroll
            for (int a = 0; a < R; a++) {
                T diff[M], d2 = T(0);
#pragma unroll
                for (int q = 0; q < M; q++) {
                    diff[q] = yi[a][q] - yj[q];
                    d2 += diff[q] * diff[q];
                }
                const T w = sammon_tiled_weight(iv[a] && j0 + jl < N, acc[a][b], d2);
#pragma unroll
                for (int q = 0; q < M; q++) {
                    gi[q][a] += w * diff[q];
                    gj[q][b] -= w * diff[q];
                }
            }
        }
        if (jt == I)
            continue;                   // the diagonal tile's pairs were summed both ways
        // The 16 threads of a column tx hold sums over different points i.
#pragma unroll
        for (int q = 0; q < M; q++) {
            const T sum = sammon_tiled_sum<T, R>(xj_s, gj[q], ty, tx);
            if (t < TILE && j0 + t < N)
                atomicAdd(&g[(size_t)(j0 + t) * M + q], sum);
        }
    }
#pragma unroll
    for (int q = 0; q < M; q++) {
        const T sum = sammon_tiled_sum<T, R>(xi_s, gi[q], tx, ty);
        if (t < TILE && i0 + t < N)
            atomicAdd(&g[(size_t)(i0 + t) * M + q], sum);
    }
}

#endif
