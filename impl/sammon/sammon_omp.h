/* SPDX-License-Identifier: MIT */
/* The OpenMP Sammon step: y_out = y_in - alpha grad E over all points. */
#ifndef SAMMON_OMP_H
#define SAMMON_OMP_H

/* Points per block: the rows of distances each thread keeps. */
#define SAMMON_OMP_BLOCK 8

/* One step's operands, float or double per the call (flat, row-major). */
struct sammon_omp_step {
    int N, n, m;                /* m is 1, 2 or 3 */
    const void *x, *y_in;
    void *y_out;
    double coef;                /* alpha 2 / c */
    void *scratch;              /* threads x SAMMON_OMP_BLOCK x N values */
};

/* The rows [p0, p1) of a step into per-thread scratch w, by precision (_f,
 * _d) and instruction set (sammon_omp_rows.c, compiled once per precision;
 * the AVX2 + FMA clones only where GCC-style x86-64 targets exist). */
#if defined(__x86_64__) && defined(__GNUC__)
#define SAMMON_OMP_AVX2_CLONE 1
#else
#define SAMMON_OMP_AVX2_CLONE 0
#endif
typedef void sammon_omp_rows_fn(const struct sammon_omp_step *a, int p0, int p1, void *w);
sammon_omp_rows_fn sammon_omp_rows_base_f, sammon_omp_rows_base_d;
#if SAMMON_OMP_AVX2_CLONE
sammon_omp_rows_fn sammon_omp_rows_avx2_f, sammon_omp_rows_avx2_d;
#endif

/* One Jacobi step on `threads` threads, in double when f64 else float. */
void sammon_step_omp(const struct sammon_omp_step *a, int f64, int threads);
/* The instruction set the step runs with here: "avx2" or "baseline". */
const char *sammon_omp_isa(void);

#endif
