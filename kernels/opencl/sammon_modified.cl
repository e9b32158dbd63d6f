/* SPDX-License-Identifier: MIT */
/* The paper's modified approach (Borisov and Myasnikov, section III; notes
 * section 2.2): one work-item per unordered pair, found from the linear
 * index without conditionals, adds the pair term to both points' gradient
 * atomically; then an update kernel moves every point and clears the
 * gradient.  Flat or transposed by SAMMON_TRANSPOSED.  Needs
 * sammon_common.cl before it. */

/* OpenCL 1.2 has no floating-point atomic add: a compare-and-swap loop on the
 * value's bits, 32-bit for float and 64-bit (cl_khr_int64_base_atomics, which
 * the host checks) for double. */
#if SAMMON_FP64
#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable

void sammon_atomic_add(volatile __global REAL *p, REAL v)
{
    volatile __global ulong *bits = (volatile __global ulong *)p;
    ulong seen = *bits, want;
    do {
        want = seen;
        seen = atom_cmpxchg(bits, want, as_ulong(as_double(want) + v));
    } while (seen != want);
}
#else
void sammon_atomic_add(volatile __global REAL *p, REAL v)
{
    volatile __global uint *bits = (volatile __global uint *)p;
    uint seen = *bits, want;
    do {
        want = seen;
        seen = atomic_cmpxchg(bits, want, as_uint(as_float(want) + v));
    } while (seen != want);
}
#endif

/* Consecutive work-items taking consecutive k share i, so the
 * compare-and-swap loops of a warp on g_i collide and retry in turn; instead
 * the SAMMON_SPREAD work-items of a warp take pairs a global size /
 * SAMMON_SPREAD apart, in different rows.  On H200 that ran 2.5 to 3 times
 * faster at N = 4096 and 16384, flat or transposed, though y_j no longer
 * comes coalesced.  A power of two: the warp or wavefront width. */
#ifndef SAMMON_SPREAD
#define SAMMON_SPREAD 32
#endif

/* g_i += v_ij and g_j -= v_ij, v_ij = w_ij (y_i - y_j), for every pair k of
 * the P = N (N - 1) / 2 (64-bit: P exceeds INT32_MAX from N = 65537), in a
 * grid-stride loop so that any global size covers them; the first k of each
 * work-item is a permutation of 0 .. global size - 1 (the spread divides the
 * group size, which divides the global size).  g is -(c / 2) times the
 * gradient; sammon_modified_update applies the factor. */
__kernel void sammon_modified_pairs(const int N, const long P, __global const REAL *x,
                                    __global const REAL *y, __global REAL *g)
{
    const long stride = (long)get_global_size(0), t = (long)get_global_id(0);
    const int wg = (int)get_local_size(0);
    const long spread = min(SAMMON_SPREAD, wg & -wg);
    const long first = (t % spread) * (stride / spread) + t / spread;
    for (long k = first; k < P; k += stride) {
        long i, j;
        sammon_pair_of(k, &i, &j);
        REAL ds2 = (REAL)0, d2 = (REAL)0, dy[SAMMON_OUTDIM];
        for (int a = 0; a < SAMMON_DIM; a++) {
            const REAL t = SAMMON_AT(x, N, SAMMON_DIM, i, a) - SAMMON_AT(x, N, SAMMON_DIM, j, a);
            ds2 += t * t;
        }
        for (int q = 0; q < SAMMON_OUTDIM; q++) {
            dy[q] = SAMMON_AT(y, N, SAMMON_OUTDIM, i, q) - SAMMON_AT(y, N, SAMMON_OUTDIM, j, q);
            d2 += dy[q] * dy[q];
        }
        const REAL w = sammon_weight(ds2, d2);
        for (int q = 0; q < SAMMON_OUTDIM; q++) {
            const REAL v = w * dy[q];
            sammon_atomic_add(&SAMMON_AT(g, N, SAMMON_OUTDIM, i, q), v);
            sammon_atomic_add(&SAMMON_AT(g, N, SAMMON_OUTDIM, j, q), -v);
        }
    }
}

/* y <- y - alpha grad E = y + scale g (scale = 2 alpha / c), in place since
 * the pair kernel has finished reading y; g <- 0 for the next iteration.
 * Elementwise over the count = N m values, whatever the layout. */
__kernel void sammon_modified_update(const int count, __global REAL *y, __global REAL *g,
                                     const REAL scale)
{
    const int e = (int)get_global_id(0);
    if (e >= count)
        return;
    y[e] += scale * g[e];
    g[e] = (REAL)0;
}
