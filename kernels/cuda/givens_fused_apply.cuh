// SPDX-License-Identifier: MIT
// Apply mode of the round-robin Givens rotations (notes/givens.md sections 5
// and 11): Y = U X for X of n x nb without forming U, and its backward, the
// batched JVP: sweep the blocks b_1 ... b_{n-1} applying G_b^T to the rows of
// Y and G_Y, read dtheta_e = sum_b (Y_ib GY_jb - Y_jb GY_ib) after each
// block, and G_Y ends as dL/dX = U^T G_Y.  O(n^2 nb) each, on the fused
// engine of givens_fused_forward.cuh: the forward sweeps the steps down, the
// backward up with transposed rotations.
#ifndef GIVENS_FUSED_APPLY_CUH
#define GIVENS_FUSED_APPLY_CUH

#include "kernels/cuda/givens_fused_backward.cuh"
#include "kernels/cuda/givens_fused_forward.cuh"

// Y = U X: block b owns columns c0 = b W ... of X (n x nb, row-major) and
// starts from the rows held at step nt-2.  Launch: grid ceil(nb / W) blocks
// of givens_fused_threads(S, B) threads (S / B at most MAXT) with
// givens_fused_smem<T, B>(threads) bytes of dynamic shared memory.
template <typename T, int B, int W, int MAXT>
__global__ void __launch_bounds__(MAXT)
givens_fused_apply(int n, int nt, int nb, const typename givens_vec2<T>::type *__restrict__ cs,
                   const T *__restrict__ X, T *__restrict__ Y)
{
    const givens_lanes l = givens_lanes_here((nt >> 1) / B);
    const int c0 = blockIdx.x * W;
    givens_slab<T, B, W> x;
#pragma unroll
    for (int q = 0; q < B; q++) {
        const int k = l.t * B + q;
        const int rt = givens_coord(nt, nt - 2, k), rb = givens_coord(nt, nt - 2, nt - 1 - k);
#pragma unroll
        for (int w = 0; w < W; w++) {
            const bool in = c0 + w < nb && l.t < l.nreal;
            x.top[q][w] = in && rt < n ? X[(size_t)rt * nb + c0 + w] : T(0);
            x.bot[q][w] = in && rb < n ? X[(size_t)rb * nb + c0 + w] : T(0);
        }
    }
    givens_forward_store<T, B, W> epi = { l.t, n, nt, c0, nb, nb, Y };
    givens_fused_sweep<T, B, W, 1>(x, l, epi, nt, cs);
}

// The apply backward's epilogue: after each step the pairs' partial dot
// products over this slab's columns of Y and G_Y (slab columns 0..W-1 and
// W..2W-1) go to dP; after the last step (nt-2) G_Y's rows, held by
// position, are written to dX.
template <typename T, int B, int W>
struct givens_apply_backward_out {
    int t, n, nt, c0, nb;
    T *dP, *dX;
    template <int R>
    __device__ __forceinline__ void rotated(const givens_slab<T, B, 2 * W> &x, int step)
    {
        const int S = nt >> 1;
        T d[B];
#pragma unroll
        for (int q = 0; q < B; q++) {
            const int pt = givens_pt<B, -1>(q, R), pb = givens_pb<B, -1>(q, R);
            T a = 0;
#pragma unroll
            for (int w = 0; w < W; w++) {
                // Two fused multiply-adds (the difference as one expression
                // took a multiply, a fused multiply-add and an add).
                a = fma(x.top[pt][w], x.bot[pb][W + w], a);
                a = fma(-x.bot[pb][w], x.top[pt][W + w], a);
            }
            d[q] = a;
        }
        if (t * B < S)
            givens_add_partials<T, B>(dP + (size_t)step * S + (size_t)t * B, d);
    }
    template <int R>
    __device__ __forceinline__ void last(const givens_slab<T, B, 2 * W> &x)
    {
        if (t * B >= nt / 2)
            return;
#pragma unroll
        for (int q = 0; q < B; q++) {
            const int k = t * B + q;
            const int rt = givens_coord(nt, nt - 2, k), rb = givens_coord(nt, nt - 2, nt - 1 - k);
            const int pt = givens_pt<B, -1>(q, R), pb = givens_pb<B, -1>(q, R);
#pragma unroll
            for (int w = 0; w < W; w++) {
                if (c0 + w >= nb)
                    continue;
                if (rt < n)
                    dX[(size_t)rt * nb + c0 + w] = x.top[pt][W + w];
                if (rb < n)
                    dX[(size_t)rb * nb + c0 + w] = x.bot[pb][W + w];
            }
        }
    }
};

// dP += the apply-form JVP's partial sums, dX = U^T GY, from Y = U X and
// GY = dL/dY (n x nb).  Block b owns columns c0 = b W ... of both; at step 0
// position p holds coordinate p.  Launch as givens_fused_backward (dP zeroed
// first); givens_fused_backward_finish then orders and signs the angles.
template <typename T, int B, int W, int MAXT>
__global__ void __launch_bounds__(MAXT)
givens_fused_apply_backward(int n, int nt, int nb,
                            const typename givens_vec2<T>::type *__restrict__ cs,
                            const T *__restrict__ Y, const T *__restrict__ GY,
                            T *__restrict__ dP, T *__restrict__ dX)
{
    const givens_lanes l = givens_lanes_here((nt >> 1) / B);
    const int c0 = blockIdx.x * W;
    givens_slab<T, B, 2 * W> x;
#pragma unroll
    for (int q = 0; q < B; q++) {
        const int k = l.t * B + q, kb = nt - 1 - k;
#pragma unroll
        for (int w = 0; w < W; w++) {
            const bool in = c0 + w < nb && l.t < l.nreal;
            const size_t col = (size_t)c0 + w;
            x.top[q][w] = in && k < n ? Y[(size_t)k * nb + col] : T(0);
            x.top[q][W + w] = in && k < n ? GY[(size_t)k * nb + col] : T(0);
            x.bot[q][w] = in && kb < n ? Y[(size_t)kb * nb + col] : T(0);
            x.bot[q][W + w] = in && kb < n ? GY[(size_t)kb * nb + col] : T(0);
        }
    }
    givens_apply_backward_out<T, B, W> epi = { l.t, n, nt, c0, nb, dP, dX };
    givens_fused_sweep<T, B, 2 * W, -1>(x, l, epi, nt, cs);
}

#endif
