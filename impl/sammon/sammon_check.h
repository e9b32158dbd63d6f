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

#ifdef __cplusplus
}
#endif

#endif
