// SPDX-License-Identifier: MIT
// The rotation table of the fused Givens kernels (Hamze, arXiv:2106.00003,
// section 3): one (c, s) per (step, slot) of the circle-method schedule,
// computed once per call instead of once per column slab.
#ifndef GIVENS_TABLE_CUH
#define GIVENS_TABLE_CUH

#include "impl/common/roundrobin.h"

template <typename T> struct givens_vec2;
template <> struct givens_vec2<float> { typedef float2 type; };
template <> struct givens_vec2<double> { typedef double2 type; };

__device__ inline void givens_sincos(float x, float *s, float *c) { sincosf(x, s, c); }
__device__ inline void givens_sincos(double x, double *s, double *c) { sincos(x, s, c); }

// The coordinate at circle position p (0 .. nt-1) in `step`: position 0 is
// fixed, the others shift by one per step (notes/givens.md section 3).
__device__ __forceinline__ int givens_coord(int nt, int step, int p)
{
    return p == 0 ? 0 : ((p - 1 + step) % (nt - 1)) + 1;
}

// The pair of `slot` in `step`: its top and bottom coordinates, and (i, j)
// with i < j.
struct givens_slot_pair {
    int top, bot, i, j;
};

__device__ __forceinline__ givens_slot_pair givens_pair_at(int nt, int step, int slot)
{
    givens_slot_pair p;
    p.top = givens_coord(nt, step, slot);
    p.bot = givens_coord(nt, step, nt - 1 - slot);
    p.i = min(p.top, p.bot);
    p.j = max(p.top, p.bot);
    return p;
}

// cs[step * S + slot] = (c, s') for the pair of that slot, S = nt / 2.  The
// slot's top position is k and its bottom nt-1-k; s' = s when the top holds
// the smaller coordinate i, else -s, so that every kernel rotates
//   top' = c top - s' bot,  bot' = s' top + c bot
// without knowing the orientation.  Dropped pairs (the dummy coordinate of odd
// n, or i >= m) are the identity (1, 0).
template <typename T>
__global__ void givens_rotation_table(int n, int m, int nt, const T *__restrict__ theta,
                                      typename givens_vec2<T>::type *__restrict__ cs)
{
    const int S = nt / 2;
    const long long total = (long long)(nt - 1) * S;
    for (long long idx = blockIdx.x * (long long)blockDim.x + threadIdx.x; idx < total;
         idx += (long long)gridDim.x * blockDim.x) {
        const givens_slot_pair p = givens_pair_at(nt, (int)(idx / S), (int)(idx % S));
        const int top = p.top, i = p.i, j = p.j;
        typename givens_vec2<T>::type v;
        v.x = 1;
        v.y = 0;
        if (rb_rr_keep(n, m, i, j)) {
            T s, c;
            givens_sincos(theta[(size_t)i * n - (size_t)i * (i + 1) / 2 + j - i - 1], &s, &c);
            v.x = c;
            v.y = top == i ? s : -s;
        }
        cs[idx] = v;
    }
}

#endif
