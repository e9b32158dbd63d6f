/* SPDX-License-Identifier: MIT */
/* The roofline's arithmetic ceiling on CUDA and HIP
 * (harness/backend/gpu_ceiling.cu): each thread runs RB_CEILING_CHAINS
 * independent multiply-add chains, so the FMA units, not their latency,
 * bound it; no memory traffic but one store per thread. */
#ifndef RB_CEILING_CUH
#define RB_CEILING_CUH

/* Independent chains per thread: enough to cover the FMA latency with a
 * few warps per scheduler, few enough to stay in registers. */
#ifndef RB_CEILING_CHAINS
#define RB_CEILING_CHAINS 8
#endif

/* Each chain runs `iters` times acc = fma(acc, a, b): 2 RB_CEILING_CHAINS
 * iters flops per thread.  a and b come from the host so nothing folds. */
template <typename T>
__global__ void rb_ceiling_fma(int iters, T a, T b, T *out)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    T acc[RB_CEILING_CHAINS];
#pragma unroll
    for (int k = 0; k < RB_CEILING_CHAINS; k++)
        acc[k] = (T)i + (T)k;
    for (int it = 0; it < iters; it++) {
#pragma unroll
        for (int k = 0; k < RB_CEILING_CHAINS; k++)
            acc[k] = fma(acc[k], a, b);
    }
    T sum = 0;
#pragma unroll
    for (int k = 0; k < RB_CEILING_CHAINS; k++)
        sum += acc[k];
    out[i] = sum;
}

#endif
