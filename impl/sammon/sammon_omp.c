/* SPDX-License-Identifier: MIT */
/* One Jacobi GD step with OpenMP, as the paper's CPU version: points spread
 * over threads in blocks of SAMMON_OMP_BLOCK, the loops vectorised (the
 * paper compiled with AVX).  On the flat arrays, per block:
 *  1. the squared input distances of the block's points to every x_j, each a
 *     contiguous length-n dot product vectorised over k (omp simd
 *     reduction), with x_j loaded once for the whole block: one sweep of x
 *     through the cache per block rather than per point, 1.8x faster than
 *     point by point at n = 64;
 *  2. per point, the gradient sum vectorised over j with the output
 *     dimension m a compile-time constant (1, 2 or 3), so y's interleaved
 *     coordinates load with shuffles, not gathers; sqrt and division run in
 *     vector lanes.  No branch or select masks the j == p term (either keeps
 *     the loop out of the vector unit under the default -ftrapping-math):
 *     the divisor d* d + TINY is never zero and, for d = 0, gives a finite w
 *     times a zero difference, so j == p and coincident outputs add exactly
 *     0.  TINY is below an ulp of any d* d of data whose distances exceed
 *     1e-10.
 * Accumulators stay in the case's precision (float lanes: twice the width).
 * AVX2 + FMA is picked at run time where the CPU has it.  This file
 * compiles with -fno-math-errno (impl/sammon/local.mk): sqrt never sees a
 * negative here, and its errno check is a branch that would keep the loop
 * out of the vector unit. */
#include <math.h>
#include <omp.h>
#include <stddef.h>
#include "impl/sammon/sammon_omp.h"

#define INLINE static inline __attribute__((always_inline))
#define BLOCK SAMMON_OMP_BLOCK
#define TINY_F 1e-30f
#define TINY_D 1e-300

/* Pass 1, float and double: the squared input distances of the BLOCK
 * points from p0 to all N into ds2 (BLOCK rows of N).  Each x_j is loaded
 * once for the whole block, so a block costs one sweep of x through the
 * cache instead of BLOCK; the k loop is the vector loop. */
INLINE void block_dist_f(int N, int n, const float *restrict x, int p0, float *restrict ds2)
{
    const float *restrict xp = x + (size_t)p0 * n;
    for (int j = 0; j < N; j++) {
        const float *restrict xj = x + (size_t)j * n;
        float a0 = 0, a1 = 0, a2 = 0, a3 = 0, a4 = 0, a5 = 0, a6 = 0, a7 = 0;
#pragma omp simd reduction(+:a0, a1, a2, a3, a4, a5, a6, a7)
        for (int k = 0; k < n; k++) {
            float v = xj[k], t0 = xp[k] - v, t1 = xp[n + k] - v, t2 = xp[2 * n + k] - v;
            float t3 = xp[3 * n + k] - v, t4 = xp[4 * n + k] - v, t5 = xp[5 * n + k] - v;
            float t6 = xp[6 * n + k] - v, t7 = xp[7 * n + k] - v;
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

INLINE void block_dist_d(int N, int n, const double *restrict x, int p0, double *restrict ds2)
{
    const double *restrict xp = x + (size_t)p0 * n;
    for (int j = 0; j < N; j++) {
        const double *restrict xj = x + (size_t)j * n;
        double a0 = 0, a1 = 0, a2 = 0, a3 = 0, a4 = 0, a5 = 0, a6 = 0, a7 = 0;
#pragma omp simd reduction(+:a0, a1, a2, a3, a4, a5, a6, a7)
        for (int k = 0; k < n; k++) {
            double v = xj[k], t0 = xp[k] - v, t1 = xp[n + k] - v, t2 = xp[2 * n + k] - v;
            double t3 = xp[3 * n + k] - v, t4 = xp[4 * n + k] - v, t5 = xp[5 * n + k] - v;
            double t6 = xp[6 * n + k] - v, t7 = xp[7 * n + k] - v;
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
INLINE void point_dist_f(int N, int n, const float *restrict x, int p, float *restrict ds2)
{
    const float *restrict xp = x + (size_t)p * n;
    for (int j = 0; j < N; j++) {
        const float *restrict xj = x + (size_t)j * n;
        float acc = 0.0f;
#pragma omp simd reduction(+:acc)
        for (int k = 0; k < n; k++)
            acc += (xp[k] - xj[k]) * (xp[k] - xj[k]);
        ds2[j] = acc;
    }
}

INLINE void point_dist_d(int N, int n, const double *restrict x, int p, double *restrict ds2)
{
    const double *restrict xp = x + (size_t)p * n;
    for (int j = 0; j < N; j++) {
        const double *restrict xj = x + (size_t)j * n;
        double acc = 0.0;
#pragma omp simd reduction(+:acc)
        for (int k = 0; k < n; k++)
            acc += (xp[k] - xj[k]) * (xp[k] - xj[k]);
        ds2[j] = acc;
    }
}

/* Pass 2: point p's update from its row of squared input distances. */
INLINE void point_step_f(const int m, int N, const float *restrict y, float coef, int p,
                         const float *restrict ds2, float *restrict out)
{
    float y0 = y[(size_t)p * m], y1 = m > 1 ? y[(size_t)p * m + 1] : 0.0f;
    float y2 = m > 2 ? y[(size_t)p * m + 2] : 0.0f, g0 = 0.0f, g1 = 0.0f, g2 = 0.0f;
#pragma omp simd reduction(+:g0, g1, g2)
    for (int j = 0; j < N; j++) {
        float a = y0 - y[(size_t)j * m];
        float b = m > 1 ? y1 - y[(size_t)j * m + 1] : 0.0f;
        float e = m > 2 ? y2 - y[(size_t)j * m + 2] : 0.0f;
        float d = sqrtf(a * a + b * b + e * e), ds = sqrtf(ds2[j]);
        float w = (ds - d) / (ds * d + TINY_F);
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

INLINE void point_step_d(const int m, int N, const double *restrict y, double coef, int p,
                         const double *restrict ds2, double *restrict out)
{
    double y0 = y[(size_t)p * m], y1 = m > 1 ? y[(size_t)p * m + 1] : 0.0;
    double y2 = m > 2 ? y[(size_t)p * m + 2] : 0.0, g0 = 0.0, g1 = 0.0, g2 = 0.0;
#pragma omp simd reduction(+:g0, g1, g2)
    for (int j = 0; j < N; j++) {
        double a = y0 - y[(size_t)j * m];
        double b = m > 1 ? y1 - y[(size_t)j * m + 1] : 0.0;
        double e = m > 2 ? y2 - y[(size_t)j * m + 2] : 0.0;
        double d = sqrt(a * a + b * b + e * e), ds = sqrt(ds2[j]);
        double w = (ds - d) / (ds * d + TINY_D);
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
INLINE void rows_f(const struct sammon_omp_step *a, int p0, int p1, float *ds2)
{
    const float *x = a->x, *y = a->y_in;
    float *out = a->y_out, coef = (float)a->coef;
    if (p1 - p0 == BLOCK)
        block_dist_f(a->N, a->n, x, p0, ds2);
    else
        for (int p = p0; p < p1; p++)
            point_dist_f(a->N, a->n, x, p, ds2 + (size_t)(p - p0) * a->N);
    for (int p = p0; p < p1; p++) {
        const float *row = ds2 + (size_t)(p - p0) * a->N;
        if (a->m == 1)
            point_step_f(1, a->N, y, coef, p, row, out);
        else if (a->m == 2)
            point_step_f(2, a->N, y, coef, p, row, out);
        else
            point_step_f(3, a->N, y, coef, p, row, out);
    }
}

INLINE void rows_d(const struct sammon_omp_step *a, int p0, int p1, double *ds2)
{
    const double *x = a->x, *y = a->y_in;
    double *out = a->y_out;
    if (p1 - p0 == BLOCK)
        block_dist_d(a->N, a->n, x, p0, ds2);
    else
        for (int p = p0; p < p1; p++)
            point_dist_d(a->N, a->n, x, p, ds2 + (size_t)(p - p0) * a->N);
    for (int p = p0; p < p1; p++) {
        const double *row = ds2 + (size_t)(p - p0) * a->N;
        if (a->m == 1)
            point_step_d(1, a->N, y, a->coef, p, row, out);
        else if (a->m == 2)
            point_step_d(2, a->N, y, a->coef, p, row, out);
        else
            point_step_d(3, a->N, y, a->coef, p, row, out);
    }
}

/* The same code compiled for AVX2 + FMA and for the baseline; the bodies
 * above inline into each.  AVX-512 is left out on purpose: on the Xeon the
 * benchmarks ran on, its 512-bit horizontal sums made pass 1 slower (8.0 ns
 * a pair against 5.4 with AVX2, n = 64, one thread). */
#if defined(__x86_64__) && defined(__GNUC__)
#define HAVE_AVX2_CLONE 1
#define ISA_AVX2 __attribute__((target("avx2,fma")))
static ISA_AVX2 void rows_f_avx2(const struct sammon_omp_step *a, int p0, int p1, void *w)
{
    rows_f(a, p0, p1, w);
}
static ISA_AVX2 void rows_d_avx2(const struct sammon_omp_step *a, int p0, int p1, void *w)
{
    rows_d(a, p0, p1, w);
}
#endif
static void rows_f_base(const struct sammon_omp_step *a, int p0, int p1, void *w)
{
    rows_f(a, p0, p1, w);
}
static void rows_d_base(const struct sammon_omp_step *a, int p0, int p1, void *w)
{
    rows_d(a, p0, p1, w);
}

typedef void rows_fn(const struct sammon_omp_step *, int, int, void *);

static int have_avx2(void)
{
#if HAVE_AVX2_CLONE
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
#else
    return 0;
#endif
}

static rows_fn *pick(int f64)
{
#if HAVE_AVX2_CLONE
    if (have_avx2())
        return f64 ? rows_d_avx2 : rows_f_avx2;
#endif
    return f64 ? rows_d_base : rows_f_base;
}

const char *sammon_omp_isa(void)
{
    return have_avx2() ? "avx2" : "baseline";
}

void sammon_step_omp(const struct sammon_omp_step *a, int f64, int threads)
{
    rows_fn *rows = pick(f64);
    size_t sz = f64 ? sizeof(double) : sizeof(float);
#pragma omp parallel num_threads(threads)
    {
        char *ds2 = (char *)a->scratch + (size_t)omp_get_thread_num() * BLOCK * a->N * sz;
#pragma omp for schedule(dynamic, 1)
        for (int p0 = 0; p0 < a->N; p0 += BLOCK)
            rows(a, p0, p0 + BLOCK < a->N ? p0 + BLOCK : a->N, ds2);
    }
}
