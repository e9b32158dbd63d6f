/* SPDX-License-Identifier: MIT */
/* Round-robin Givens rotations (Hamze, arXiv:2106.00003): build the
 * orthogonal U from its angles and back-propagate to the angles, on the CPU.
 * Facts and conventions: shared/notes/givens.md.
 *
 * Conventions (frozen; changing any changes the parametrization):
 *  - Rotation e = (i, j), i < j: G_ii = G_jj = c, G_ij = -s, G_ji = +s with
 *    c = cos(theta_e), s = sin(theta_e).  Left-multiplying by G touches rows
 *    i and j only: u_i <- c u_i - s u_j, u_j <- s u_i + c u_j.
 *  - U = G^{e_1} ... G^{e_N}: G^{e_N} is applied first, G^{e_1} last.
 *  - E is the circle-method schedule of impl/common/roundrobin.h flattened
 *    step-major: block b_1 = step 0 is the leftmost factor, applied LAST, so
 *    the forward loops step = steps-1 ... 0.
 *  - Odd n: a dummy coordinate n pads the schedule; its pairs are skipped.
 *  - Restricted m (paper section 5): pairs with i >= m are skipped; m == 0
 *    (or any m <= 0) means all rows.  The same blocks are kept.
 *  - theta layout: the official row-major strict upper triangle,
 *    tri(n, i, j) = i n - i(i+1)/2 + j - i - 1.  With m rows the kept pairs
 *    (i < m) take indices 0 .. N - 1, N = m n - m(m+1)/2; the dropped pairs
 *    would sit at the tail, so theta holds exactly N values.
 *  - Matrices are row-major, n x n (U, Gamma) or n x B (X, Y).
 *
 * The algorithms neither allocate nor fail: callers pass valid sizes
 * (n >= 2, m <= n) and buffers of the sizes documented.  Only the checks
 * allocate. */
#ifndef GIVENS_H
#define GIVENS_H

#include <stddef.h>
#include <stdint.h>
#include "harness/variant.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Number of angles N = m n - m(m+1)/2 (m == 0 or m >= n - 1: n(n-1)/2). */
size_t givens_theta_count(int n, int m);
/* Index of the angle of pair (i, j), i < j, in theta. */
size_t givens_theta_index(int n, int i, int j);

/* Algorithm 1: U <- I, then one rotation at a time over reversed(E).  The
 * paper's sequential CPU baseline.  U is n x n, overwritten. */
void givens_forward_seq_f(int n, int m, const float *theta, float *U);
void givens_forward_seq_d(int n, int m, const double *theta, double *U);

/* Algorithm 2, serial: U <- I, then blocks b_{n-1} ... b_1, the pairs of a
 * block in slot order.  Bit-identical to Algorithm 1. */
void givens_forward_rr_f(int n, int m, const float *theta, float *U);
void givens_forward_rr_d(int n, int m, const double *theta, double *U);

/* Algorithm 2 with OpenMP (givens_omp.c): one parallel region, the pairs of
 * a block (and column chunks of them when a block has few pairs) shared by
 * `threads` threads, a barrier between blocks.  Bit-identical to serial. */
void givens_forward_rr_omp_f(int n, int m, const float *theta, float *U, int threads);
void givens_forward_rr_omp_d(int n, int m, const double *theta, double *U, int threads);

/* Workspace of the backward, in elements of its precision: 2 n^2. */
size_t givens_backward_work_count(int n);

/* Algorithm 3 (notes section 5): the JVP dtheta = (dU/dtheta)^T Gamma for
 * Gamma = dL/dU, given U from the forward.  U^fwd <- U, M <- Gamma^T; for
 * blocks b_{n-1} ... b_1: U^fwd <- U^fwd G_b^T, M <- G_b M, then
 * dtheta_e = M_{i:} . u_j - M_{j:} . u_i with u the columns of U^fwd.
 * U^fwd is kept transposed so both updates are row rotations.  work holds
 * givens_backward_work_count(n) elements; dtheta holds N values.  O(n^3). */
void givens_backward_rr_f(int n, int m, const float *theta, const float *U,
                          const float *Gamma, float *dtheta, float *work);
void givens_backward_rr_d(int n, int m, const double *theta, const double *U,
                          const double *Gamma, double *dtheta, double *work);

/* Algorithm 3 with OpenMP (givens_omp.c): the pairs of each block shared by
 * `threads` threads (each pair's dot products stay with its thread, so the
 * result is bit-identical to serial); barriers between blocks. */
void givens_backward_rr_omp_f(int n, int m, const float *theta, const float *U,
                              const float *Gamma, float *dtheta, float *work, int threads);
void givens_backward_rr_omp_d(int n, int m, const double *theta, const double *U,
                              const double *Gamma, double *dtheta, double *work,
                              int threads);

/* Apply mode: X <- U X in place (X is n x B) without forming U, O(n^2 B). */
void givens_apply_d(int n, int m, const double *theta, double *X, int B);

/* The batched apply-form JVP (notes section 5, the official CUDA backward):
 * given Y = U X and GY = dL/dY (both n x B), sweep the blocks b_1 ... b_{n-1}
 * applying G_b^T to the rows of Y and GY, and read
 * dtheta_e = sum_b (Y_ib GY_jb - Y_jb GY_ib) after each block's update.
 * On return Y holds X and GY holds dL/dX = U^T GY.  O(n^2 B).  When dscale
 * is not NULL it receives, per angle, the sum of the magnitudes of the terms
 * of its dot products: the size rounding errors scale with, which unlike
 * dtheta itself does not vanish by cancellation. */
void givens_apply_backward_d(int n, int m, const double *theta, double *Y, double *GY,
                             int B, double *dtheta, double *dscale);

/* Verification shared by every Givens variant, any backend (givens_check.c).
 * Each returns 0 with the verdict in *out, or RB_ENOMEM.  NaN anywhere fails. */

/* U (n x n, float or double per prec) against theta_d: Y = U X for k = 8
 * probe columns X drawn from `seed`, against givens_apply_d in double.  The
 * error is the largest entry error over the RMS of the reference (a norm would
 * hide one wrong entry); tolerance 4 n eps(prec).  O(8 n^2). */
int givens_check_forward(int n, int m, const double *theta_d, const void *U,
                         enum rb_prec prec, uint64_t seed, struct rb_check *out);

/* dtheta (N values, float or double per prec) against the JVP for the
 * low-rank cotangent Gamma = G X^T (G, X n x r, row-major): since
 * tr(Gamma^T U) = <G, U X>, the reference is givens_apply_backward_d on
 * (U X, G), O(n^2 r).  Largest entry error over the RMS of the terms' sizes
 * (dscale of givens_apply_backward_d; the reference's own RMS can cancel to
 * nearly zero when there are few angles), tolerance 8 n eps(prec). */
int givens_check_backward(int n, int m, const double *theta_d, const void *dtheta,
                          enum rb_prec prec, const double *G, const double *X, int r,
                          struct rb_check *out);

/* Apply mode, Y = U X (X, Y n x nb, row-major; Y float or double per prec)
 * against givens_apply_d on X in fp64: largest entry error over the
 * reference's RMS, tolerance 4 n eps(prec). */
int givens_check_apply(int n, int m, const double *theta_d, const double *X, const void *Y,
                       int nb, enum rb_prec prec, struct rb_check *out);

/* The apply-form backward: dtheta (N values) and dX = U^T GY (n x nb) from
 * X and GY (fp64, n x nb) against givens_apply_backward_d in fp64.  The error
 * is the larger of the angles' (over the terms' sizes, as
 * givens_check_backward) and dX's (over its RMS); tolerance 8 n eps(prec). */
int givens_check_apply_backward(int n, int m, const double *theta_d, const double *X,
                                const double *GY, const void *dtheta, const void *dX, int nb,
                                enum rb_prec prec, struct rb_check *out);

#ifdef __cplusplus
}
#endif

#endif
