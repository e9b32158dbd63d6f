// SPDX-License-Identifier: MIT
// The fused forward and backward kernels on the engine of givens_slab.cuh,
// with the shear table of givens_lift_table.cuh.
//
// Forward (Algorithm 2): U = G_{b_1} ... G_{b_{n-1}} applied to I; a block
// owns WG groups of WT columns of U.
// Backward (Algorithm 3): the rows of M = Gamma^T and V = (U^fwd)^T rotated
// by the same G_b at every step, dtheta_e = M_i . V_j - M_j . V_i read after
// each step; a block owns WG groups of WT columns of both (rows of Gamma and
// U), sums its groups' partial dot products in shared memory and adds them
// into dP[step][slot] (one float4 atomic per four slots on sm_90); a second
// kernel puts dP into the angles' order with their signs.
#ifndef GIVENS_SLAB_KERNELS_CUH
#define GIVENS_SLAB_KERNELS_CUH

#include "kernels/cuda/givens_fused_backward.cuh"
#include "kernels/cuda/givens_lift_table.cuh"
#include "kernels/cuda/givens_slab.cuh"

// The dynamic shared buffer (t/gpu_emu.h defines its own).
#ifndef RB_DYN_SHARED
#define RB_DYN_SHARED(name) extern __shared__ __align__(16) unsigned char name[]
#endif

// Launch shape: NG = S / B slot groups times WG column groups.
__host__ __device__ inline int givens_slab_threads(int S, int B, int WG)
{
    return S / B * WG;
}

// Steps of the padded table: nt - 1 rounded up to a multiple of B.
__host__ __device__ inline int givens_slab_nsteps(int nt, int B)
{
    return (nt - 1 + B - 1) / B * B;
}

// Words of the parity table P of givens_lift_parity.
__host__ __device__ inline size_t givens_lift_parity_words(int nt)
{
    return (size_t)(nt - 1 + 31) / 32 * nt;
}

// Nothing per step; at the end the rows sit at step nt - 2's positions and
// go to U times their coordinate's sign.
template <typename T, int B, int W>
struct givens_slab_store {
    static constexpr bool shares_rotated = false;
    static constexpr bool split_interior = false;   // nothing to cover the barrier
    int n, nt, g, c0;
    const T *sign;
    T *U;
    template <int R>
    __device__ __forceinline__ void rotated(const givens_slab_regs<T, B, W> &, int) {}
    __device__ __forceinline__ void after_barrier(int) {}
    __device__ __forceinline__ void store(const givens_slab_regs<T, B, W> &x)
    {
#pragma unroll
        for (int q = 0; q < B; q++) {
            const int k = g * B + q;
            const int rt = givens_coord(nt, nt - 2, k), rb = givens_coord(nt, nt - 2, nt - 1 - k);
            const T st = sign[rt], sb = sign[rb];
#pragma unroll
            for (int w = 0; w < W; w++) {
                if (c0 + w >= n)
                    continue;
                if (rt < n)
                    U[(size_t)rt * n + c0 + w] = st * x.top[q][w];
                if (rb < n)
                    U[(size_t)rb * n + c0 + w] = sb * x.bot[q][w];
            }
        }
    }
};

// Launch: grid ceil(n / (WT * WG)) blocks of givens_slab_threads(S, B, WG)
// threads (at most 256) and givens_slab_smem<T, B, WT>(S / B, threads) bytes
// of dynamic shared memory; cs and sign from givens_lift_coeffs (for B) and
// givens_lift_parity (nsteps = givens_slab_nsteps(nt, B)); U row-major n x n.
template <typename T, int B, int WT, int WG>
__global__ void __launch_bounds__(256)
givens_slab_forward(int n, int nt, int nsteps, const typename givens_vec2<T>::type *__restrict__ cs,
                    const T *__restrict__ sign, T *__restrict__ U)
{
    RB_DYN_SHARED(givens_slab_dyn);
    const int S = nt / 2;
    const givens_slab_ctx c = givens_slab_here<T, B, WT>(S);
    const int c0 = (blockIdx.x * WG + c.w) * WT;
    givens_slab_regs<T, B, WT> x;
#pragma unroll
    for (int q = 0; q < B; q++) {
        const int k = c.g * B + q;
        const int rt = givens_coord(nt, nsteps - 1, k);
        const int rb = givens_coord(nt, nsteps - 1, nt - 1 - k);
#pragma unroll
        for (int w = 0; w < WT; w++) {
            x.top[q][w] = rt == c0 + w ? T(1) : T(0);
            x.bot[q][w] = rb == c0 + w ? T(1) : T(0);
        }
    }
    givens_slab_store<T, B, WT> epi = { n, nt, c.g, c0, sign, U };
    givens_slab_sweep<T, B, WT, WG>(
        x, c, epi, nsteps, reinterpret_cast<const typename givens_slab_cs<T, B>::chunk *>(cs),
        givens_slab_dyn);
    epi.store(x);
}

// After each real step: the thread's partial dot products of its B slots
// over its WT columns go to red (by parity, [WG][S]); after the barrier,
// thread (g, w) sums slots w * B / WG ... of group g over the WG groups and
// adds them into dP.  Padding steps (>= nt - 1) add nothing.
template <typename T, int B, int WT, int WG>
struct givens_slab_dots {
    static constexpr int MINE = B / WG;
    // With column groups the partial sums go through shared memory to be
    // read after the barrier.
    static constexpr bool shares_rotated = WG > 1;
    // The dot products cover the barrier's latency (givens_slab_step).
    static constexpr bool split_interior = true;
    int K, S, g, w;
    T *red, *dP;
    template <int R>
    __device__ __forceinline__ void rotated(const givens_slab_regs<T, B, 2 * WT> &x, int step)
    {
        if (step >= K)
            return;
        T d[B];
#pragma unroll
        for (int q = 0; q < B; q++) {
            const int pt = givens_slab_pt<B>(q, R), pb = givens_slab_pb<B>(q, R);
            // Two fused multiply-adds a column (written as one expression,
            // the difference took a multiply, a fused multiply-add and an add).
            T a = 0;
#pragma unroll
            for (int v = 0; v < WT; v++) {
                a = fma(x.top[pt][v], x.bot[pb][WT + v], a);
                a = fma(-x.bot[pb][v], x.top[pt][WT + v], a);
            }
            d[q] = a;
        }
        if (WG == 1)
            givens_add_partials<T, B>(dP + (size_t)step * S + (size_t)g * B, d);
        else
            givens_slab_put<T, B>(red + (size_t)(step & 1) * WG * S + (size_t)w * S + g * B, d);
    }
    __device__ __forceinline__ void after_barrier(int step)
    {
        if (WG == 1 || step >= K)
            return;
        const T *src = red + (size_t)(step & 1) * WG * S + g * B + w * MINE;
        T d[MINE];
#pragma unroll
        for (int q = 0; q < MINE; q++)
            d[q] = 0;
#pragma unroll
        for (int h = 0; h < WG; h++) {
            T part[MINE];
            givens_slab_get<T, MINE>(src + (size_t)h * S, part);
#pragma unroll
            for (int q = 0; q < MINE; q++)
                d[q] += part[q];
        }
        givens_add_partials<T, MINE>(dP + (size_t)step * S + g * B + w * MINE, d);
    }
};

// Shared memory of the backward: the engine's, then the partial sums.
template <typename T, int B, int WT, int WG>
__host__ __device__ inline size_t givens_slab_backward_smem(int S)
{
    const int NG = S / B;
    return givens_slab_smem<T, B, 2 * WT>(NG, NG * WG)
           + (WG > 1 ? 2 * (size_t)WG * S * sizeof(T) : 0);
}

// Launch: grid ceil(n / (WT * WG)) blocks of givens_slab_threads(S, B, WG)
// threads, givens_slab_backward_smem<T, B, WT, WG>(S) bytes of dynamic
// shared memory.  U is the forward's output and Gamma = dL/dU (row-major
// n x n); dP ((nt - 1) x S) must be zero before the launch.  Block b holds
// columns c0 = ... of M = Gamma^T and V = U^T, i.e. rows c0 ... of Gamma and U.
template <typename T, int B, int WT, int WG>
__global__ void __launch_bounds__(256)
givens_slab_backward(int n, int nt, int nsteps,
                     const typename givens_vec2<T>::type *__restrict__ cs,
                     const T *__restrict__ U, const T *__restrict__ Gamma, T *__restrict__ dP)
{
    RB_DYN_SHARED(givens_slab_dyn);
    const int S = nt / 2;
    const givens_slab_ctx c = givens_slab_here<T, B, 2 * WT>(S);
    const int c0 = (blockIdx.x * WG + c.w) * WT;
    givens_slab_regs<T, B, 2 * WT> x;
#pragma unroll
    for (int q = 0; q < B; q++) {
        const int k = c.g * B + q;
        const int rt = givens_coord(nt, nsteps - 1, k);
        const int rb = givens_coord(nt, nsteps - 1, nt - 1 - k);
#pragma unroll
        for (int v = 0; v < WT; v++) {
            const size_t col = (size_t)(c0 + v) * n;
            const bool in = c0 + v < n;
            x.top[q][v] = in && rt < n ? Gamma[col + rt] : T(0);
            x.top[q][WT + v] = in && rt < n ? U[col + rt] : T(0);
            x.bot[q][v] = in && rb < n ? Gamma[col + rb] : T(0);
            x.bot[q][WT + v] = in && rb < n ? U[col + rb] : T(0);
        }
    }
    const size_t engine = givens_slab_smem<T, B, 2 * WT>(c.NG, c.nthr);
    givens_slab_dots<T, B, WT, WG> epi = { nt - 1, S, c.g, c.w,
                                           reinterpret_cast<T *>(givens_slab_dyn + engine), dP };
    givens_slab_sweep<T, B, 2 * WT, WG>(
        x, c, epi, nsteps, reinterpret_cast<const typename givens_slab_cs<T, B>::chunk *>(cs),
        givens_slab_dyn);
}

// dtheta from dP: the pair of (step, slot), negated when the slot's top
// held the larger coordinate (the table's orientation) and when the two
// held rows carried opposite signs (P of givens_lift_parity).  Dropped pairs
// have no angle.  Grid-stride.
template <typename T>
__global__ void givens_slab_backward_finish(int n, int m, int nt, const unsigned *__restrict__ P,
                                            const T *__restrict__ dP, T *__restrict__ dtheta)
{
    const int S = nt / 2, K = nt - 1;
    const long long total = (long long)K * S;
    for (long long idx = blockIdx.x * (long long)blockDim.x + threadIdx.x; idx < total;
         idx += (long long)gridDim.x * blockDim.x) {
        const int k = (int)(idx / S);
        const givens_slot_pair p = givens_pair_at(nt, k, (int)(idx % S));
        if (!rb_rr_keep(n, m, p.i, p.j))
            continue;
        const bool neg = (p.top != p.i)
                         != (givens_lift_parity_at(P, nt, p.top, k)
                             != givens_lift_parity_at(P, nt, p.bot, k));
        dtheta[(size_t)p.i * n - (size_t)p.i * (p.i + 1) / 2 + p.j - p.i - 1] =
            neg ? -dP[idx] : dP[idx];
    }
}

#endif
