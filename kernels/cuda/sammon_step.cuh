// SPDX-License-Identifier: MIT
// The fixed rules' step on the device, for the embedding engine's map
// kept there (impl/sammon/sammon_engine_gpu.cu): each point's gradient
// and diagonal second derivative from the EMBED pass's float sums
// (sammon_stored.cuh) in double, as sammon_engine_derivatives forms them
// on the host, the map moved in double as the host's driver moves it
// (impl/sammon/sammon_peers.c), and the moved map in float, scaled, for
// the next pass.  One thread a point; CUDA and HIP alike, static so that
// the CUDA and HIP objects of one program each have their own.
#ifndef SAMMON_STEP_CUH
#define SAMMON_STEP_CUH

#include <stddef.h>
#include "impl/sammon/sammon_sums.h"

// y (N x m, double) to the pass's float map yf: y / scale, inv = 1 / scale
// a power of two, so that the scaling is exact.
static __global__ void sammon_map_to_float(int len, const double *__restrict__ y, double inv,
                                           float *__restrict__ yf)
{
    const int k = blockIdx.x * blockDim.x + threadIdx.x;
    if (k < len)
        yf[k] = (float)(y[k] * inv);
}

// One step of N points in m dimensions from sums (N x 2 m: G_q, H_q; or,
// rsum not NULL, G_q, C_q and D, whose H_q impl/sammon/sammon_sums.h forms
// with rsum's R) of the map y into y_new (another buffer, so that y stays
// for a step that is not kept) and its float form yf: g_q = gf G_q, gf =
// -2 / c, and with newton h_q = -2 H_q / hd, hd = c scale; y_q - mf g_q /
// |h_q| (no move where h_q is 0), else y_q - alpha g_q.
static __global__ void sammon_fixed_step(int N, int m, const float *__restrict__ sums,
                                         const float *__restrict__ rsum, double gf, double hd,
                                         int newton, double mf, double alpha, double inv,
                                         const double *__restrict__ y,
                                         double *__restrict__ y_new, float *__restrict__ yf)
{
    const int p = blockIdx.x * blockDim.x + threadIdx.x;
    if (p >= N)
        return;
    const float *s = sums + (size_t)p * 2 * m;
    for (int q = 0; q < m; q++) {
        const double g = gf * s[q];
        double move = alpha * g;
        if (newton) {
            const double h = -2.0 * sammon_sums_h(s, m, q, rsum, p) / hd;
            move = h != 0.0 ? mf * g / fabs(h) : 0.0;
        }
        const size_t k = (size_t)p * m + q;
        y_new[k] = y[k] - move;
        yf[k] = (float)(y_new[k] * inv);
    }
}

#endif
