/* SPDX-License-Identifier: MIT */
/* The circle-method round-robin schedule (notes/givens.md section 3): n - 1
 * blocks of n/2 disjoint pairs covering every pair once.  The schedule is part
 * of the Givens parametrization; rb_rr_hash guards it against change.  Also
 * the Brent-Luk ordering of parallel Jacobi sweeps. */
#ifndef RB_ROUNDROBIN_H
#define RB_ROUNDROBIN_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* CUDA and HIP device code include this header for rb_rr_pair. */
#if defined(__CUDACC__) || defined(__HIPCC__)
#define RB_RR_HOSTDEV __host__ __device__
#else
#define RB_RR_HOSTDEV
#endif

/* The pair (i, j), i < j, of `slot` (0 .. nt/2 - 1) in `step` (0 .. nt - 2)
 * for the padded size nt (even; see rb_rr_padded).  This is the official
 * closed form (determineRowIndexPair of microsoft/Givens-Orthogonal-Backprop):
 * coordinate 0 stays put and the others shift left by one per step, so
 * step 0 pairs (0, nt-1), (1, nt-2), ..., (nt/2-1, nt/2).  For odd n the pair
 * may hold the dummy coordinate j = n; rb_rr_keep drops it. */
static inline RB_RR_HOSTDEV void rb_rr_pair(int nt, int step, int slot, int *i, int *j)
{
    int a = slot == 0 ? 0 : ((slot - 1 + step) % (nt - 1)) + 1;
    int b = ((nt - 1 - slot - 1 + step) % (nt - 1)) + 1;
    *i = a < b ? a : b;
    *j = a < b ? b : a;
}

/* 1 if the pair (i, j), i < j, of the padded schedule is a real rotation of
 * the n-dimensional problem restricted to rows m: j < n (odd n pads with a
 * dummy coordinate n) and i < m (paper section 5 drops the pairs inside
 * m..n-1).  m == 0 means all rows (m = n), as does any m <= 0; m >= n - 1
 * keeps every pair too. */
static inline RB_RR_HOSTDEV int rb_rr_keep(int n, int m, int i, int j)
{
    return j < n && i < (m <= 0 ? n : m);
}

/* The padded size: n if n is even, n + 1 if odd. */
int rb_rr_padded(int n);
/* Steps (blocks) of the schedule: padded - 1. */
int rb_rr_steps(int n);
/* Slots (pairs) per step: padded / 2. */
int rb_rr_slots(int n);

/* FNV-1a 64 over the kept pairs in schedule order (step-major, slot-minor),
 * each pair hashed as i then j, four little-endian bytes each.  A change of
 * this value for a given (n, m) is a change of the parametrization. */
uint64_t rb_rr_hash(int n, int m);

#ifdef __cplusplus
}
#endif

#endif
