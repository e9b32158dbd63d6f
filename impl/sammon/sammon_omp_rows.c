/* SPDX-License-Identifier: MIT */
/* The typed half of the OpenMP step, compiled once per precision
 * (-DRB_PREC=32 for the float functions, 64 for the double ones) into
 * sammon_step_omp's rows.  The reasoning behind each loop is at the top of
 * sammon_omp.c. */
#include <math.h>
#include <stddef.h>
#include "impl/sammon/sammon_omp.h"

#if RB_PREC == 32
#define REAL float
#define FN(name) name##_f
#define SQRT sqrtf
#define TINY 1e-30f
#elif RB_PREC == 64
#define REAL double
#define FN(name) name##_d
#define SQRT sqrt
#define TINY 1e-300
#else
#error "RB_PREC must be 32 or 64"
#endif

#define INLINE static inline __attribute__((always_inline))
#define BLOCK SAMMON_OMP_BLOCK

/* Pass 1: the squared input distances of the BLOCK points from p0 to all N
 * into ds2 (BLOCK rows of N).  Each x_j is loaded once for the whole block,
 * so a block costs one sweep of x through the cache instead of BLOCK; the k
 * loop is the vector loop. */
INLINE void FN(block_dist)(int N, int n, const REAL *restrict x, int p0, REAL *restrict ds2)
{
    const REAL *restrict xp = x + (size_t)p0 * n;
    for (int j = 0; j < N; j++) {
        const REAL *restrict xj = x + (size_t)j * n;
        REAL a0 = 0, a1 = 0, a2 = 0, a3 = 0, a4 = 0, a5 = 0, a6 = 0, a7 = 0;
#pragma omp simd reduction(+:a0, a1, a2, a3, a4, a5, a6, a7)
        for (int k = 0; k < n; k++) {
            REAL v = xj[k], t0 = xp[k] - v, t1 = xp[n + k] - v, t2 = xp[2 * n + k] - v;
            REAL t3 = xp[3 * n + k] - v, t4 = xp[4 * n + k] - v, t5 = xp[5 * n + k] - v;
            REAL t6 = xp[6 * n + k] - v, t7 = xp[7 * n + k] - v;
            a0 += t0 * t0;
            a1 += t1 * t1;
            a2 += t2 * t2;
            a3 += t3 * t3;
            a4 += t4 * t4;
            a5 += t5 * t5;
            a6 += t6 * t6;
            a7 += t7 * t7;
        }
        ds2[j] = a0;
        ds2[(size_t)N + j] = a1;
        ds2[2 * (size_t)N + j] = a2;
        ds2[3 * (size_t)N + j] = a3;
        ds2[4 * (size_t)N + j] = a4;
        ds2[5 * (size_t)N + j] = a5;
        ds2[6 * (size_t)N + j] = a6;
        ds2[7 * (size_t)N + j] = a7;
    }
}

/* Pass 1 for one point (the last, partial block). */
INLINE void FN(point_dist)(int N, int n, const REAL *restrict x, int p, REAL *restrict ds2)
{
    const REAL *restrict xp = x + (size_t)p * n;
    for (int j = 0; j < N; j++) {
        const REAL *restrict xj = x + (size_t)j * n;
        REAL acc = (REAL)0.0;
#pragma omp simd reduction(+:acc)
        for (int k = 0; k < n; k++)
            acc += (xp[k] - xj[k]) * (xp[k] - xj[k]);
        ds2[j] = acc;
    }
}

/* Pass 2: point p's update from its row of squared input distances. */
INLINE void FN(point_step)(const int m, int N, const REAL *restrict y, REAL coef, int p,
                         const REAL *restrict ds2, REAL *restrict out)
{
    REAL y0 = y[(size_t)p * m], y1 = m > 1 ? y[(size_t)p * m + 1] : (REAL)0.0;
    REAL y2 = m > 2 ? y[(size_t)p * m + 2] : (REAL)0.0;
    REAL g0 = (REAL)0.0, g1 = (REAL)0.0, g2 = (REAL)0.0;
#pragma omp simd reduction(+:g0, g1, g2)
    for (int j = 0; j < N; j++) {
        REAL a = y0 - y[(size_t)j * m];
        REAL b = m > 1 ? y1 - y[(size_t)j * m + 1] : (REAL)0.0;
        REAL e = m > 2 ? y2 - y[(size_t)j * m + 2] : (REAL)0.0;
        REAL d = SQRT(a * a + b * b + e * e), ds = SQRT(ds2[j]);
        REAL w = (ds - d) / (ds * d + TINY);
        g0 += w * a;
        g1 += w * b;
        g2 += w * e;
    }
    out[(size_t)p * m] = y0 + coef * g0;
    if (m > 1)
        out[(size_t)p * m + 1] = y1 + coef * g1;
    if (m > 2)
        out[(size_t)p * m + 2] = y2 + coef * g2;
}

/* Points [p0, p1), p1 - p0 <= BLOCK, with m made a constant in each
 * branch.  Blocks start at multiples of BLOCK whatever the threads, so the
 * result does not depend on the thread count. */
INLINE void FN(rows)(const struct sammon_omp_step *a, int p0, int p1, REAL *ds2)
{
    const REAL *x = a->x, *y = a->y_in;
    REAL *out = a->y_out, coef = (REAL)a->coef;
    if (p1 - p0 == BLOCK)
        FN(block_dist)(a->N, a->n, x, p0, ds2);
    else
        for (int p = p0; p < p1; p++)
            FN(point_dist)(a->N, a->n, x, p, ds2 + (size_t)(p - p0) * a->N);
    for (int p = p0; p < p1; p++) {
        const REAL *row = ds2 + (size_t)(p - p0) * a->N;
        if (a->m == 1)
            FN(point_step)(1, a->N, y, coef, p, row, out);
        else if (a->m == 2)
            FN(point_step)(2, a->N, y, coef, p, row, out);
        else
            FN(point_step)(3, a->N, y, coef, p, row, out);
    }
}

/* The same body compiled for AVX2 + FMA and for the baseline; the functions
 * above inline into each (sammon_omp.c says why not AVX-512). */
#if SAMMON_OMP_AVX2_CLONE
__attribute__((target("avx2,fma")))
void FN(sammon_omp_rows_avx2)(const struct sammon_omp_step *a, int p0, int p1, void *w)
{
    FN(rows)(a, p0, p1, w);
}
#endif

void FN(sammon_omp_rows_base)(const struct sammon_omp_step *a, int p0, int p1, void *w)
{
    FN(rows)(a, p0, p1, w);
}
