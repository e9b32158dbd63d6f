// SPDX-License-Identifier: MIT
// The rotation table of the fused engine (givens_slab.cuh): each rotation as
// three shears, (t, s) with t = tan(theta' / 2), s = sin(theta'), so that
//   a = top - t bot,  bot' = bot + s a,  top' = a - t bot'
// rotates (top, bot) by theta'.  The shears are accurate only for
// |theta'| <= pi/2 (|t| <= 1), so a rotation whose cosine is negative runs as
// the rotation by theta -/+ pi, which is the wanted one negated.  Rather than
// negating the two rows, the engine lets them carry the sign: every
// coordinate x has a sign sigma_x, the product of the flips it has been
// through, and holds sigma_x times its true row.  A rotation of rows with
// signs sigma_a, sigma_b is then the rotation by (c, s sigma_a sigma_b) of
// the held rows, flipped when c < 0.  The flips depend on theta alone, so the
// signs are prefix parities over each coordinate's steps:
//   1. givens_lift_parity: P, bit k of coordinate x set when x has been
//      through an odd number of flips before step k (steps run from nt - 2
//      down to 0), and sign[x] = (-1)^(all of x's flips): the engine's output
//      times sign[x] is the true row x;
//   2. givens_lift_coeffs: (t, s) of every (step, slot), rows nt - 1 ..
//      nsteps - 1 the identity (0, 0), padding the sweep to whole chunks;
//      each row in the order the engine reads it for B slots per thread.
#ifndef GIVENS_LIFT_TABLE_CUH
#define GIVENS_LIFT_TABLE_CUH

#include "kernels/cuda/givens_table.cuh"
#include "kernels/cuda/rb_warp.cuh"

// The ballot of the 32 lanes of this thread's group of 32 (a warp, or half
// of a wavefront of 64): bit l set where lane l's v holds.
__device__ __forceinline__ unsigned givens_lift_ballot32(bool v)
{
#if defined(__HIP_PLATFORM_AMD__) && RB_WARP == 64
    return (unsigned)(__ballot(v) >> (threadIdx.x & 32));
#elif defined(__HIP_PLATFORM_AMD__)
    return (unsigned)__ballot(v);
#else
    return __ballot_sync(0xffffffffu, v);
#endif
}

// Warps (coordinates) per block of givens_lift_parity.
#define GIVENS_LIFT_PARITY_WARPS 8

// The angle of pair (i, j), i < j, in the row-major triangle.
template <typename T>
__device__ __forceinline__ T givens_lift_theta(const T *theta, int n, int i, int j)
{
    return theta[(size_t)i * n - (size_t)i * (i + 1) / 2 + j - i - 1];
}

// Whether the rotation of pair (i, j) runs flipped (c < 0; dropped pairs
// are the identity and never flip); its (c, s) in *c, *s.
template <typename T>
__device__ __forceinline__ bool givens_lift_cs(const T *theta, int n, int m, int i, int j, T *c,
                                               T *s)
{
    *c = 1;
    *s = 0;
    if (!rb_rr_keep(n, m, i, j))
        return false;
    givens_sincos(givens_lift_theta(theta, n, i, j), s, c);
    return *c < T(0);
}

// Bit k % 32 of word P[(k / 32) * nt + x]: whether coordinate x has been
// through an odd number of flips before step k.
__device__ __forceinline__ bool givens_lift_parity_at(const unsigned *P, int nt, int x, int k)
{
    return (P[(size_t)(k >> 5) * nt + x] >> (k & 31)) & 1u;
}

// P and sign: one warp per coordinate x, its steps from the last down in
// runs of 32 (a lane per step), the flips of a run gathered by a ballot.
// Warps are RB_WARP lanes, 32 or 64: a run is then 32 steps per half-wave.
template <typename T>
__global__ void __launch_bounds__(GIVENS_LIFT_PARITY_WARPS * 32)
givens_lift_parity(int n, int m, int nt, const T *__restrict__ theta, unsigned *__restrict__ P,
                   T *__restrict__ sign)
{
    const int lane = threadIdx.x & 31, K = nt - 1;
    const int x = blockIdx.x * GIVENS_LIFT_PARITY_WARPS + (threadIdx.x >> 5);
    if (x >= nt)
        return;
    unsigned carry = 0;                 // flips of the steps above this run
    for (int run = (K - 1) >> 5; run >= 0; run--) {
        const int k = run * 32 + lane;
        bool flip = false;
        if (k < K) {
            // x's position in step k, and the coordinate paired with it.
            const int p = x == 0 ? 0 : ((x - 1 - k) % K + K) % K + 1;
            const int y = givens_coord(nt, k, nt - 1 - p);
            T c, s;
            flip = givens_lift_cs(theta, n, m, min(x, y), max(x, y), &c, &s);
        }
        const unsigned flips = givens_lift_ballot32(flip);
        const unsigned above = lane == 31 ? 0u : flips >> (lane + 1);
        const unsigned par = (carry + __popc(above)) & 1u;
        const unsigned word = givens_lift_ballot32(par != 0);
        if (lane == 0)
            P[(size_t)run * nt + x] = word;
        carry += __popc(flips);
    }
    if (lane == 0)
        sign[x] = carry & 1u ? T(-1) : T(1);
}

// The (t, s) table: nsteps rows of S pairs.  A row holds the pairs in
// chunks of `per` (givens_slab_per), chunk h of slot group g (slots g * B
// ... g * B + B - 1) at h * (S / B) + g, so that the engine's threads read
// consecutive chunks and stage the row verbatim.  Grid-stride, in the
// table's order.
template <typename T>
__global__ void givens_lift_coeffs(int n, int m, int nt, int nsteps, int B, int per,
                                   const T *__restrict__ theta, const unsigned *__restrict__ P,
                                   typename givens_vec2<T>::type *__restrict__ cs)
{
    const int S = nt / 2, K = nt - 1, NG = S / B;
    const long long total = (long long)nsteps * S;
    for (long long idx = blockIdx.x * (long long)blockDim.x + threadIdx.x; idx < total;
         idx += (long long)gridDim.x * blockDim.x) {
        const int k = (int)(idx / S), at = (int)(idx % S);
        const int chunk = at / per, h = chunk / NG, g = chunk % NG;
        const int slot = g * B + h * per + at % per;
        typename givens_vec2<T>::type v;
        v.x = 0;
        v.y = 0;
        if (k < K) {
            const givens_slot_pair p = givens_pair_at(nt, k, slot);
            T c, s;
            if (givens_lift_cs(theta, n, m, p.i, p.j, &c, &s)) {
                c = -c;
                s = -s;
            }
            // The table's orientation (givens_table.cuh), then the signs.
            if (p.top != p.i)
                s = -s;
            if (givens_lift_parity_at(P, nt, p.top, k) != givens_lift_parity_at(P, nt, p.bot, k))
                s = -s;
            v.x = s / (T(1) + c);
            v.y = s;
        }
        cs[idx] = v;
    }
}

#endif
