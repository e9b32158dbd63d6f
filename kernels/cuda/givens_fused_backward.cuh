// SPDX-License-Identifier: MIT
// Fused backward of the round-robin Givens rotations (Hamze, arXiv:2106.00003,
// Algorithm 3) in one launch.  Algorithm 3 rotates the rows of M = Gamma^T and
// of V = (U^fwd)^T by the same G_b at every step and reads, per pair,
// dtheta_e = M_i . V_j - M_j . V_i.  Both are row rotations, so the fused
// forward's engine (givens_fused_forward.cuh) runs them as one slab of 2W
// columns per block: W of M, then the same W of V.  Each block adds its
// slab's share of every pair's dot product into dP (one float4 atomic per four
// slots on sm_90); a second kernel turns dP, laid out by (step, slot), into
// the angles' order and signs.
#ifndef GIVENS_FUSED_BACKWARD_CUH
#define GIVENS_FUSED_BACKWARD_CUH

#include "kernels/cuda/givens_fused_forward.cuh"

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

// The backward's epilogue: after each step's rotations, this thread's B
// partial dot products (top holds the pair's first row, as the table's
// orientation says) go to dP[step * S + slot].
template <typename T, int B, int W>
struct givens_backward_dots {
    int t, S;
    T *dP;
    template <int R>
    __device__ __forceinline__ void rotated(const givens_slab<T, B, 2 * W> &x, int step)
    {
        T d[B];
#pragma unroll
        for (int q = 0; q < B; q++) {
            const int pt = givens_pt<B, 1>(q, R), pb = givens_pb<B, 1>(q, R);
            T a = 0;
#pragma unroll
            for (int w = 0; w < W; w++)
                a += x.top[pt][w] * x.bot[pb][W + w] - x.bot[pb][w] * x.top[pt][W + w];
            d[q] = a;
        }
        if (t * B < S)                                  // a thread with slots
            givens_add_partials<T, B>(dP + (size_t)step * S + (size_t)t * B, d);
    }
    template <int R>
    __device__ __forceinline__ void last(const givens_slab<T, B, 2 * W> &) {}
};

// Launch: grid ceil(n / W) blocks of givens_fused_threads(S, B) threads, as
// givens_fused_forward, with givens_fused_smem<T, B>(threads) dynamic shared
// bytes.  U is the
// forward's output and Gamma = dL/dU (both row-major n x n); dP ((nt-1) x S)
// must be zero before the launch.  Block b holds columns c0 = b W ... of
// M = Gamma^T and V = U^T, i.e. rows c0 ... of Gamma and U.
template <typename T, int B, int W, int MAXT>
__global__ void __launch_bounds__(MAXT)
givens_fused_backward(int n, int nt, const typename givens_vec2<T>::type *__restrict__ cs,
                      const T *__restrict__ U, const T *__restrict__ Gamma, T *__restrict__ dP)
{
    const givens_lanes l = givens_lanes_here((nt >> 1) / B);
    const int c0 = blockIdx.x * W;
    givens_slab<T, B, 2 * W> x;
#pragma unroll
    for (int q = 0; q < B; q++) {
        const int k = l.t * B + q;
        const int rt = givens_coord(nt, nt - 2, k), rb = givens_coord(nt, nt - 2, nt - 1 - k);
#pragma unroll
        for (int w = 0; w < W; w++) {
            const size_t col = (size_t)(c0 + w) * n;
            const bool in = c0 + w < n && l.t < l.nreal;
            x.top[q][w] = in && rt < n ? Gamma[col + rt] : T(0);
            x.top[q][W + w] = in && rt < n ? U[col + rt] : T(0);
            x.bot[q][w] = in && rb < n ? Gamma[col + rb] : T(0);
            x.bot[q][W + w] = in && rb < n ? U[col + rb] : T(0);
        }
    }
    givens_backward_dots<T, B, W> epi = { l.t, nt >> 1, dP };
    givens_fused_sweep<T, B, 2 * W>(x, l, epi, nt, cs);
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
