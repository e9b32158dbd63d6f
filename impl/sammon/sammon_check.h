/* SPDX-License-Identifier: MIT */
/* What sammon_verify compares against: the fp64 reference iterate of a case
 * with the rounding budget of a lower-precision run of the same steps. */
#ifndef SAMMON_CHECK_H
#define SAMMON_CHECK_H

#ifdef __cplusplus
extern "C" {
#endif

/* The probabilistic summation factor and the safety factor of the
 * tolerance (derivation in sammon_check.c). */
#define SAMMON_CHECK_LAMBDA 4.0
#define SAMMON_CHECK_K 4.0

/* `iters` Jacobi GD steps y <- y - alpha grad E from y0 (N x m) into y_ref.
 * *budget gets the bound, in units of the unit roundoff u, on the absolute
 * error of each coordinate of a run of the same steps in arithmetic of
 * roundoff u (derivation in sammon_check.c).  0, RB_ENOMEM, or RB_EINVAL
 * for m > 16. */
int sammon_check_reference(int N, int n, int m, int iters, const double *x, const double *y0,
                           double c, double alpha, double *y_ref, double *budget);

/* One step, as sammon_check_reference's with iters 1, for the k rows
 * `rows` of y only: their reference rows into y_rows (k x m), *budget over
 * those rows.  A step's row depends on y0 alone, so a sample of rows is
 * checked exactly in O(k N n) instead of O(N^2 n). */
int sammon_check_rows(int N, int n, int m, const double *x, const double *y0, double c,
                      double alpha, const int *rows, int k, double *y_rows, double *budget);

#ifdef __cplusplus
}
#endif

#endif
