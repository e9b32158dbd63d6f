// SPDX-License-Identifier: MIT
// The paper's modified kernels (Borisov and Myasnikov, section III,
// implementations 2 and 4): d*_ij = d*_ji, so one thread per unordered pair
// computes its term once and adds it atomically to both points' sums,
// N (N - 1) / 2 evaluations plus 2 M atomics each (notes section 2.2); then
// sammon_update moves every point and clears the sums.  The pair comes from
// the linear index without conditionals (sammon_pair_of, notes section 3b);
// 64-bit indices and a grid-stride loop, since the pairs outnumber 2^31 from
// N = 65537.  No shared memory, as in the paper.
#ifndef SAMMON_MODIFIED_CUH
#define SAMMON_MODIFIED_CUH

#include "impl/sammon/sammon_pair.h"
#include "kernels/cuda/sammon_common.cuh"

// g (N x M, as y) gets sum_j w_pj (y_p - y_j), the gradient over -2/c.
template <typename T, int M, int V>
__global__ void __launch_bounds__(1024)
sammon_modified_flat(int N, int n, const T *__restrict__ x, const T *__restrict__ y,
                     T *__restrict__ g)
{
    const int64_t pairs = sammon_pair_count(N);
    const int64_t stride = (int64_t)gridDim.x * blockDim.x;
    for (int64_t k = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; k < pairs; k += stride) {
        int64_t i, j;
        sammon_pair_of(k, &i, &j);
        const T ds2 = sammon_dist2_flat<T, V>(n, x + i * n, x + j * n);
        T diff[M], d2 = T(0);
#pragma unroll
        for (int q = 0; q < M; q++) {
            diff[q] = y[i * M + q] - y[j * M + q];
            d2 += diff[q] * diff[q];
        }
        const T w = sammon_weight(ds2, d2);
#pragma unroll
        for (int q = 0; q < M; q++) {
            const T v = w * diff[q];
            atomicAdd(&g[i * M + q], v);
            atomicAdd(&g[j * M + q], -v);
        }
    }
}

template <typename T, int M>
__global__ void __launch_bounds__(1024)
sammon_modified_transposed(int N, int n, const T *__restrict__ x, const T *__restrict__ y,
                           T *__restrict__ g)
{
    const int64_t pairs = sammon_pair_count(N);
    const int64_t stride = (int64_t)gridDim.x * blockDim.x;
    for (int64_t k = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; k < pairs; k += stride) {
        int64_t i, j;
        sammon_pair_of(k, &i, &j);
        const T ds2 = sammon_dist2_transposed<T>(N, n, x, i, j);
        T diff[M], d2 = T(0);
#pragma unroll
        for (int q = 0; q < M; q++) {
            diff[q] = y[q * (int64_t)N + i] - y[q * (int64_t)N + j];
            d2 += diff[q] * diff[q];
        }
        const T w = sammon_weight(ds2, d2);
#pragma unroll
        for (int q = 0; q < M; q++) {
            const T v = w * diff[q];
            atomicAdd(&g[q * (int64_t)N + i], v);
            atomicAdd(&g[q * (int64_t)N + j], -v);
        }
    }
}

// y <- y + coef g and g <- 0 over `count` values (either layout): the GD
// step y - alpha grad E, and the sums ready for the next iteration.
template <typename T>
__global__ void __launch_bounds__(1024)
sammon_update(int64_t count, T coef, T *__restrict__ y, T *__restrict__ g)
{
    const int64_t stride = (int64_t)gridDim.x * blockDim.x;
    for (int64_t e = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; e < count; e += stride) {
        y[e] += coef * g[e];
        g[e] = T(0);
    }
}

#endif
