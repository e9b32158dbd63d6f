/* SPDX-License-Identifier: MIT */
/* The modified variants' linear pair index k <-> (i, j), j < i, in the lower
 * triangle i-major (notes section 3b): k = i (i - 1) / 2 + j.  The inverse
 * takes a float estimate of i and corrects it by at most one either way with
 * integer predicates, so it is exact for every k a 64-bit index can hold and
 * has no branches (notes section 3: sqrtf alone fails from N = 4609).
 * Host and CUDA/HIP device code include this; kernels/opencl/sammon_common.cl
 * spells the same arithmetic in OpenCL C. */
#ifndef SAMMON_PAIR_H
#define SAMMON_PAIR_H

#include <math.h>
#include <stdint.h>

#if defined(__CUDACC__) || defined(__HIPCC__)
#define SAMMON_HD __host__ __device__ __forceinline__
#else
#define SAMMON_HD static inline
#endif

/* The number of unordered pairs of N points. */
SAMMON_HD int64_t sammon_pair_count(int64_t N)
{
    return N * (N - 1) / 2;
}

SAMMON_HD int64_t sammon_pair_index(int64_t i, int64_t j)
{
    return i * (i - 1) / 2 + j;
}

/* (i, j), j < i, of pair k. */
SAMMON_HD void sammon_pair_of(int64_t k, int64_t *i, int64_t *j)
{
    int64_t r = (int64_t)((1.0f + sqrtf(1.0f + 8.0f * (float)k)) * 0.5f);

    r -= (int64_t)(r * (r - 1) / 2 > k);        /* the estimate was one too large */
    r += (int64_t)((r + 1) * r / 2 <= k);       /* or one too small */
    *i = r;
    *j = k - r * (r - 1) / 2;
}

#endif
