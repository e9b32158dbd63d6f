/* SPDX-License-Identifier: MIT */
/* Helpers of the OpenCL Sammon kernels (Borisov and Myasnikov; facts in
 * shared/notes/sammon.md): precision, sizes and layout defines, the pair
 * weight and the pair index inversion of impl/sammon/sammon_pair.h, in
 * OpenCL C 1.2.  Joined before each kernel file. */

/* Element type: float or double (the host adds -D SAMMON_FP64=1 with double). */
#ifndef REAL
#define REAL float
#endif

/* 1 when REAL is double: enables cl_khr_fp64 (the host checks the device has it). */
#ifndef SAMMON_FP64
#define SAMMON_FP64 0
#endif

#if SAMMON_FP64
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#endif

/* Input dimension n and output dimension m of the case, >= 1: compile-time
 * so that a point's coordinates live in registers. */
#ifndef SAMMON_DIM
#define SAMMON_DIM 2
#endif
#ifndef SAMMON_OUTDIM
#define SAMMON_OUTDIM 2
#endif

/* The layout of x, y and g: 0 flat (row-major, point i's coordinates
 * contiguous), 1 transposed (column-major, coordinate k of all points
 * contiguous, so neighbouring work-items read neighbouring cells). */
#ifndef SAMMON_TRANSPOSED
#define SAMMON_TRANSPOSED 0
#endif

/* Element (point i, coordinate k) of an array of N points of w coordinates. */
#if SAMMON_TRANSPOSED
#define SAMMON_AT(a, N, w, i, k) ((a)[(size_t)(k) * (size_t)(N) + (size_t)(i)])
#else
#define SAMMON_AT(a, N, w, i, k) ((a)[(size_t)(i) * (size_t)(w) + (size_t)(k)])
#endif

/* The pair term's weight from the squared distances: 1/d - 1/d*, which is
 * (d* - d) / (d* d) without a division or a square root; 0 for coincident
 * outputs (d = 0), which contribute nothing (impl/sammon/sammon.h).  The
 * point paired with itself has d = 0 too. */
REAL sammon_weight(REAL ds2, REAL d2)
{
    return d2 > (REAL)0 ? rsqrt(d2) - rsqrt(ds2) : (REAL)0;
}

/* (i, j), j < i, of pair k in the lower triangle, i-major: k = i (i - 1) / 2
 * + j.  sammon_pair_of of impl/sammon/sammon_pair.h: a float estimate of i,
 * then one integer correction either way, so exact for 64-bit k as long as
 * the estimate is off by at most one (OpenCL allows sqrt 3 ulp: still within
 * one for i up to several million). */
void sammon_pair_of(long k, long *i, long *j)
{
    long r = (long)((1.0f + sqrt(1.0f + 8.0f * (float)k)) * 0.5f);

    r -= (long)(r * (r - 1) / 2 > k);       /* the estimate was one too large */
    r += (long)((r + 1) * r / 2 <= k);      /* or one too small */
    *i = r;
    *j = k - r * (r - 1) / 2;
}
