// SPDX-License-Identifier: MIT
// The paper's standard kernels (Borisov and Myasnikov, section III,
// implementations 1 and 3): one thread per point p sums the pair terms over
// all other points, N (N - 1) pair evaluations per iteration, and writes
// p's next position (Jacobi: y in, y_next out).  As in the paper, nothing is
// staged in shared memory and the input distances are recomputed from x.
// Flat: x[p n + k], y[p M + q], rows read V values per load; transposed:
// x[k N + p], y[q N + p], so neighbouring threads read neighbouring values.
#ifndef SAMMON_STANDARD_CUH
#define SAMMON_STANDARD_CUH

#include "kernels/cuda/sammon_common.cuh"

// Grid ceil(N / block) x block threads, any block up to 1024.
template <typename T, int M, int V>
__global__ void __launch_bounds__(1024)
sammon_standard_flat(int N, int n, T coef, const T *__restrict__ x, const T *__restrict__ y,
                     T *__restrict__ y_next)
{
    const int p = blockIdx.x * blockDim.x + threadIdx.x;
    if (p >= N)
        return;
    const T *xp = x + (size_t)p * n;
    T yp[M], g[M];
#pragma unroll
    for (int q = 0; q < M; q++) {
        yp[q] = y[(size_t)p * M + q];
        g[q] = T(0);
    }
    for (int j = 0; j < N; j++) {
        const T ds2 = sammon_dist2_flat<T, V>(n, xp, x + (size_t)j * n);
        T diff[M], d2 = T(0);
#pragma unroll
        for (int q = 0; q < M; q++) {
            diff[q] = yp[q] - y[(size_t)j * M + q];
            d2 += diff[q] * diff[q];
        }
        const T w = sammon_weight(ds2, d2);
#pragma unroll
        for (int q = 0; q < M; q++)
            g[q] += w * diff[q];
    }
#pragma unroll
    for (int q = 0; q < M; q++)
        y_next[(size_t)p * M + q] = yp[q] + coef * g[q];
}

template <typename T, int M>
__global__ void __launch_bounds__(1024)
sammon_standard_transposed(int N, int n, T coef, const T *__restrict__ x,
                           const T *__restrict__ y, T *__restrict__ y_next)
{
    const int p = blockIdx.x * blockDim.x + threadIdx.x;
    if (p >= N)
        return;
    T yp[M], g[M];
#pragma unroll
    for (int q = 0; q < M; q++) {
        yp[q] = y[(size_t)q * N + p];
        g[q] = T(0);
    }
    for (int j = 0; j < N; j++) {
        const T ds2 = sammon_dist2_transposed<T>(N, n, x, p, j);
        T diff[M], d2 = T(0);
#pragma unroll
        for (int q = 0; q < M; q++) {
            diff[q] = yp[q] - y[(size_t)q * N + j];
            d2 += diff[q] * diff[q];
        }
        const T w = sammon_weight(ds2, d2);
#pragma unroll
        for (int q = 0; q < M; q++)
            g[q] += w * diff[q];
    }
#pragma unroll
    for (int q = 0; q < M; q++)
        y_next[(size_t)q * N + p] = yp[q] + coef * g[q];
}

#endif
