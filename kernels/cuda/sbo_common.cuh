// SPDX-License-Identifier: MIT
// What the SBO representation kernels share (Irofti; shared/notes/sbo.md,
// sections 2 and 5.1): a signal loaded into registers, the sorted list of
// the s largest squared codes, and four values from shared memory in one
// load.  CUDA and HIP alike: no warp-size assumption, no warp intrinsic.
// Conventions of impl/sbo/sbo.h: column-major, signal i at Y + i p, block j
// at D + j p p, column r of a block (code r's coefficients) contiguous.
#ifndef SBO_COMMON_CUH
#define SBO_COMMON_CUH

// The signal dimensions the kernels are built for: p is padded with zeros
// to PMAX, 64 (the paper's 8 x 8 patches) or 256 (the axis's maximum).
#define SBO_GPU_PMAX_SMALL 64
#define SBO_GPU_PMAX_LARGE 256

// Four consecutive values at a 16-byte-aligned address, in one load (two
// for double).  In shared memory every thread of a block reads the same
// address: a broadcast.
template <typename T> struct sbo_quad {
    T x, y, z, w;
};

__device__ __forceinline__ sbo_quad<float> sbo_quad_load(const float *a)
{
    const float4 v = *reinterpret_cast<const float4 *>(a);
    return { v.x, v.y, v.z, v.w };
}

__device__ __forceinline__ sbo_quad<double> sbo_quad_load(const double *a)
{
    const double2 u = *reinterpret_cast<const double2 *>(a);
    const double2 v = *reinterpret_cast<const double2 *>(a + 2);
    return { u.x, u.y, v.x, v.y };
}

// Values k0 .. k0 + PMAX - 1 of signal i into y, zero from p on (zero
// codes add nothing to a top-s energy, since every square is >= 0).  Four
// at a time where they are 16-byte aligned (p and k0 multiples of 4).
template <typename T, int PMAX>
__device__ __forceinline__ void sbo_signal_load(T (&y)[PMAX], const T *__restrict__ Y, int p,
                                                int i, int k0 = 0)
{
    const T *src = Y + (size_t)i * p + k0;
    if (p % 4 == 0 && k0 % 4 == 0) {
#pragma unroll
        for (int k = 0; k < PMAX; k += 4) {
            const sbo_quad<T> v = k0 + k < p ? sbo_quad_load(src + k) : sbo_quad<T>{};
            y[k] = v.x;
            y[k + 1] = v.y;
            y[k + 2] = v.z;
            y[k + 3] = v.w;
        }
        return;
    }
#pragma unroll
    for (int k = 0; k < PMAX; k++)
        y[k] = k0 + k < p ? src[k] : T(0);
}

// Put a (a square, >= 0) into top, the S largest seen so far in descending
// order, if it beats the smallest; list entries start at 0, which a value
// left out would not have changed the sum by.  The branch is mostly not
// taken once the list holds large values; when it is, a bubble of max and
// min keeps every index a compile-time one (registers, not local memory).
template <typename T, int S> __device__ __forceinline__ void sbo_top_insert(T (&top)[S], T a)
{
    if (a > top[S - 1]) {
#pragma unroll
        for (int q = 0; q < S; q++) {
            const T hi = fmax(top[q], a);
            a = fmin(top[q], a);
            top[q] = hi;
        }
    }
}

// a, b <- the larger, the smaller.
template <typename T> __device__ __forceinline__ void sbo_top_exchange(T &a, T &b)
{
    const T hi = fmax(a, b);
    b = fmin(a, b);
    a = hi;
}

// Put four values (squares) into top at once.  Where S is a power of two
// of at least 4, without branches: the four sorted (five exchanges), the S
// largest of both lists taken by comparing top's last four with them in
// reverse order (which leaves a sequence falling then rising), and that
// sequence sorted by a bitonic merge (log2 S rounds of S / 2 exchanges):
// for S = 8, 38 instructions for four values against up to 72 for four
// bubbles, which a warp runs whenever any of its lanes inserts.  The list
// ends the same as after four sbo_top_insert calls.
template <typename T, int S>
__device__ __forceinline__ void sbo_top_insert4(T (&top)[S], T (&v)[4])
{
    if constexpr (S < 4 || (S & (S - 1)) != 0) {
#pragma unroll
        for (int c = 0; c < 4; c++)
            sbo_top_insert<T, S>(top, v[c]);
    } else {
        sbo_top_exchange(v[0], v[1]);
        sbo_top_exchange(v[2], v[3]);
        sbo_top_exchange(v[0], v[2]);
        sbo_top_exchange(v[1], v[3]);
        sbo_top_exchange(v[1], v[2]);
#pragma unroll
        for (int c = 0; c < 4; c++)
            top[S - 4 + c] = fmax(top[S - 4 + c], v[3 - c]);
#pragma unroll
        for (int d = S / 2; d >= 1; d /= 2)
#pragma unroll
            for (int q = 0; q < S; q++)
                if ((q & d) == 0)
                    sbo_top_exchange(top[q], top[q + d]);
    }
}

template <typename T, int S> __device__ __forceinline__ void sbo_top_clear(T (&top)[S])
{
#pragma unroll
    for (int q = 0; q < S; q++)
        top[q] = T(0);
}

// The retained energy: the list summed from the largest down, as the
// serial reference does.
template <typename T, int S> __device__ __forceinline__ T sbo_top_sum(const T (&top)[S])
{
    T e = T(0);
#pragma unroll
    for (int q = 0; q < S; q++)
        e += top[q];
    return e;
}

#endif
