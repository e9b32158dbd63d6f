/* SPDX-License-Identifier: MIT */
/* The second derivative's sums H_q of one point from the EMBED pass run
 * without the test for coinciding outputs (kernels/cuda/sammon_stored.cuh),
 * which sums C_q = sum_j (y_iq - y_jq)^2 / d^3 for q < m - 1 and D = sum_j
 * 1/d in their place: with R = sum_j 1/d* (the fill's rsum),
 *     H_q = sum_j (1/d - 1/d* - (y_iq - y_jq)^2 / d^3) = D - R - C_q,
 * and, the (y_iq - y_jq)^2 / d^2 of all q adding up to 1,
 *     H_{m-1} = sum_j ((sum_{q < m-1} (y_iq - y_jq)^2 / d^2) / d - 1/d*)
 *             = sum_q C_q - R;
 * in double, from the pass's float sums s (G_q, then C_q and D) of point
 * p; rsum NULL: s holds the H_q themselves (the tested pass).  The step
 * kernel (kernels/cuda/sammon_step.cuh) and the host
 * (sammon_engine_derivatives) take it alike. */
#ifndef SAMMON_SUMS_H
#define SAMMON_SUMS_H

#include "impl/sammon/sammon_pair.h"

SAMMON_HD double sammon_sums_h(const float *s, int m, int q, const float *rsum, int p)
{
    if (!rsum)
        return s[m + q];
    const double R = rsum[p];
    if (q + 1 < m)
        return (double)s[2 * m - 1] - R - s[m + q];
    double cs = 0.0;
    for (int k = 0; k + 1 < m; k++)
        cs += s[m + k];
    return cs - R;
}

#endif
