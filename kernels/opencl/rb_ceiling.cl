/* SPDX-License-Identifier: MIT */
/* The roofline's arithmetic ceiling (harness/backend/opencl_ceiling.c): each
 * work-item runs RB_CEILING_CHAINS independent multiply-add chains, so the
 * FMA units, not their latency, bound it; no memory traffic but one store.
 * rb_ceiling_fma_f always, rb_ceiling_fma_d when the host defines
 * RB_CEILING_FP64 (devices with cl_khr_fp64). */

/* Independent chains per work-item: enough to cover the FMA latency with a
 * few warps per unit, few enough to stay in registers. */
#ifndef RB_CEILING_CHAINS
#define RB_CEILING_CHAINS 8
#endif

/* Each chain runs `iters` times acc = fma(acc, a, b): 2 RB_CEILING_CHAINS
 * iters flops per work-item.  a and b come from the host so nothing folds. */
__kernel void rb_ceiling_fma_f(const int iters, const float a, const float b,
                               __global float *out)
{
    float acc[RB_CEILING_CHAINS];
    for (int k = 0; k < RB_CEILING_CHAINS; k++)
        acc[k] = (float)get_global_id(0) + (float)k;
    for (int it = 0; it < iters; it++) {
#pragma unroll
        for (int k = 0; k < RB_CEILING_CHAINS; k++)
            acc[k] = fma(acc[k], a, b);
    }
    float sum = 0;
    for (int k = 0; k < RB_CEILING_CHAINS; k++)
        sum += acc[k];
    out[get_global_id(0)] = sum;
}

#ifdef RB_CEILING_FP64
#pragma OPENCL EXTENSION cl_khr_fp64 : enable

/* The same in double. */
__kernel void rb_ceiling_fma_d(const int iters, const double a, const double b,
                               __global double *out)
{
    double acc[RB_CEILING_CHAINS];
    for (int k = 0; k < RB_CEILING_CHAINS; k++)
        acc[k] = (double)get_global_id(0) + (double)k;
    for (int it = 0; it < iters; it++) {
#pragma unroll
        for (int k = 0; k < RB_CEILING_CHAINS; k++)
            acc[k] = fma(acc[k], a, b);
    }
    double sum = 0;
    for (int k = 0; k < RB_CEILING_CHAINS; k++)
        sum += acc[k];
    out[get_global_id(0)] = sum;
}
#endif
