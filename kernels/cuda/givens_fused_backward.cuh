// SPDX-License-Identifier: MIT
// The gradient's bookkeeping shared by the apply-mode backward
// (givens_fused_apply.cuh) and the fused backward (givens_slab_kernels.cuh):
// blocks add their share of every pair's dot product into dP, laid out by
// (step, slot), with vector atomics; a second kernel turns dP into the
// angles' order and signs (Hamze, arXiv:2106.00003, Algorithm 3).
#ifndef GIVENS_FUSED_BACKWARD_CUH
#define GIVENS_FUSED_BACKWARD_CUH

#include "kernels/cuda/givens_table.cuh"

// dst[q] += d[q] for q < B, atomically: blocks of every slab add into dP.
// On sm_90 four floats go in one vector atomic (dst is 16-byte aligned when
// B is a multiple of 4, as S then is too).
template <typename T, int B>
__device__ __forceinline__ void givens_add_partials(T *dst, const T (&d)[B])
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    constexpr bool vec4 = sizeof(T) == sizeof(float) && B % 4 == 0;
#else
    constexpr bool vec4 = false;
#endif
    if constexpr (vec4) {
#pragma unroll
        for (int q = 0; q < B; q += 4)
            atomicAdd(reinterpret_cast<float4 *>(dst + q),
                      make_float4(d[q], d[q + 1], d[q + 2], d[q + 3]));
    } else {
#pragma unroll
        for (int q = 0; q < B; q++)
            atomicAdd(dst + q, d[q]);
    }
}

// dtheta from dP: the angle of the pair at (step, slot), negated when the
// slot's top held the larger coordinate (givens_rotation_table's
// orientation).  Dropped pairs have no angle.  Grid-stride.
template <typename T>
__global__ void givens_fused_backward_finish(int n, int m, int nt, const T *__restrict__ dP,
                                             T *__restrict__ dtheta)
{
    const int S = nt / 2;
    const long long total = (long long)(nt - 1) * S;
    for (long long idx = blockIdx.x * (long long)blockDim.x + threadIdx.x; idx < total;
         idx += (long long)gridDim.x * blockDim.x) {
        const givens_slot_pair p = givens_pair_at(nt, (int)(idx / S), (int)(idx % S));
        if (rb_rr_keep(n, m, p.i, p.j))
            dtheta[(size_t)p.i * n - (size_t)p.i * (p.i + 1) / 2 + p.j - p.i - 1] =
                p.top == p.i ? dP[idx] : -dP[idx];
    }
}

#endif
