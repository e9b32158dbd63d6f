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

/* One Jacobi step on `threads` threads, in double when f64 else float. */
void sammon_step_omp(const struct sammon_omp_step *a, int f64, int threads);
/* The instruction set the step runs with here: "avx2" or "baseline". */
const char *sammon_omp_isa(void);

#endif
