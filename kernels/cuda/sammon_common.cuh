// SPDX-License-Identifier: MIT
// What the Sammon kernels share (Borisov and Myasnikov, section II; notes
// sections 2 and 4): square roots in T, the pair weight of the gradient and
// the squared distances in both layouts.  CUDA and HIP alike: no warp-size
// assumption, no CUDA-only intrinsic.
//
// Every kernel computes the Jacobi step of plain gradient descent,
//     y_p <- y_p + coef sum_{j != p} w_pj (y_p - y_j),
//     w_pj = (d*_pj - d_pj) / (d*_pj d_pj) = 1 / d_pj - 1 / d*_pj,
// with coef = 2 alpha / c (the -2/c of grad E folded in) and w = 0 where the
// outputs coincide (d_pj = 0: j = p, or two points mapped to one).
#ifndef SAMMON_COMMON_CUH
#define SAMMON_COMMON_CUH

#include <stdint.h>

__device__ __forceinline__ float sammon_sqrt(float v) { return sqrtf(v); }
__device__ __forceinline__ double sammon_sqrt(double v) { return sqrt(v); }
// rsqrtf is within 2 ulp on NVIDIA and AMD; the double one is IEEE-close.
__device__ __forceinline__ float sammon_rsqrt(float v) { return rsqrtf(v); }
__device__ __forceinline__ double sammon_rsqrt(double v) { return rsqrt(v); }

// V consecutive values, aligned so that one load instruction moves them (the
// flat layout's vector loads, paper section III).
template <typename T, int V> struct alignas(sizeof(T) * V) sammon_vec {
    T v[V];
};

// The vector width of the flat kernels: 16 bytes, or 1 where rows of n
// values do not keep that alignment.
template <typename T> __host__ __device__ constexpr int sammon_vec_width()
{
    return (int)(16 / sizeof(T));
}

// The paper's weight from the squared distances, as the textbook writes it:
// two square roots and a division.
template <typename T> __device__ __forceinline__ T sammon_weight(T ds2, T d2)
{
    const T ds = sammon_sqrt(ds2), d = sammon_sqrt(d2);
    return d2 > T(0) ? (ds - d) / (ds * d) : T(0);
}

// |a - b|^2 over n values of two flat rows, V at a time (n % V == 0 and
// both rows aligned to V values).
template <typename T, int V>
__device__ __forceinline__ T sammon_dist2_flat(int n, const T *__restrict__ a,
                                               const T *__restrict__ b)
{
    T s = T(0);
    for (int k = 0; k < n; k += V) {
        const sammon_vec<T, V> va = *reinterpret_cast<const sammon_vec<T, V> *>(a + k);
        const sammon_vec<T, V> vb = *reinterpret_cast<const sammon_vec<T, V> *>(b + k);
#pragma unroll
        for (int l = 0; l < V; l++) {
            const T d = va.v[l] - vb.v[l];
            s += d * d;
        }
    }
    return s;
}

// |x_i - x_j|^2 over n coordinates of the transposed layout (x[k N + i]).
template <typename T>
__device__ __forceinline__ T sammon_dist2_transposed(int64_t N, int n, const T *__restrict__ x,
                                                     int64_t i, int64_t j)
{
    T s = T(0);
    for (int k = 0; k < n; k++) {
        const T d = x[k * N + i] - x[k * N + j];
        s += d * d;
    }
    return s;
}

#endif
