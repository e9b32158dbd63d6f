/* SPDX-License-Identifier: MIT */
/* The reference a Sammon case is verified against, with the rounding budget
 * its tolerance follows from.  Points are spread over OpenMP threads when
 * there are some; each point's sums run in a fixed order, so the results do
 * not depend on the thread count.
 *
 * The budget.  A variant computes, in arithmetic of unit roundoff u (2^-24
 * for float, 2^-53 for double), for each point p and coordinate q,
 *     y'_pq = y_pq - alpha g_pq,   g_pq = -(2/c) sum_{j != p} t_pjq,
 *     t_pjq = r_pj e_pjq,   r = (d* - d) / d*,   e = (y_p - y_j) / d,
 * or an algebraically equal form, from inputs that are exactly x and y
 * (setup rounds them first).  To first order in u:
 *  - d* = sqrt(sum_k (x_pk - x_jk)^2) has relative error <= (n/2 + 3) u
 *    (a rounded difference, square and n-term sum of non-negative terms,
 *    then sqrt halves it), and d likewise <= (m/2 + 3) u;
 *  - so r, whose |r| <= 1 + d/d*, has absolute error
 *    <= (n + m + 11) u (1 + d/d*), and t, |e_q| <= 1 with relative error
 *    <= (m/2 + 6) u, has absolute error <= P u (1 + d/d*) with
 *    P = n + 2m + 20;
 *  - summing the N - 1 terms: the worst case is (N - 2) u sum_j |t_pjq|
 *    (Higham, Accuracy and Stability, eq. 4.4), but independent rounding
 *    errors grow like sqrt(N) (Higham and Mary, SIAM J. Sci. Comput. 41,
 *    2019: lambda sqrt(N) u sum |t| with high probability); OpenMP's vector
 *    lanes and the GPUs' tree reductions and atomics only do better.  We
 *    take SAMMON_CHECK_LAMBDA sqrt(N - 1) u sum_j |t_pjq|;
 *  - alpha and 2/c rounded, their product with the sum, and the update add
 *    u (|y'_pq| + 4 |alpha g_pq|).
 * So one step's error is at most u times
 *     alpha (2/c) max_p [P A_p + lambda sqrt(N - 1) max_q B_pq]
 *       + max_pq (|y'_pq| + 4 |alpha g_pq|),
 * A_p = sum_j (1 + d_pj/d*_pj), B_pq = sum_j |t_pjq|, all from the
 * reference iterate.  An error already in y moves through the step as
 * (I - alpha H) does; with the scale-free step lambda = 0.3 that stays near
 * 1 over a few steps, so the budgets of the steps add up, and the safety
 * factor SAMMON_CHECK_K covers the first-order terms and the propagation.
 *
 * Is it tight?  The displacement of the most-moved point, against which
 * sammon_verify measures, is about alpha (2/c) 0.3 (N - 1) for random data
 * (every t of a point on the cloud's edge points outward); the sum term over
 * it is about lambda sqrt(N) u sum|t| / (0.3 N), i.e. K lambda u sqrt(N) x 5:
 * 1.5e-4 at N = 1024 and 1.2e-3 at N = 65536 in float, while float runs
 * measure 3e-3 to 2e-2 of that.  A 1 % error in alpha (1e-2), a sign error
 * or a lost factor fails at every N the benchmarks run; one pair left out
 * of a sum (about 1.5 / N) fails up to N ~ 4000. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "harness/error.h"
#include "impl/sammon/sammon_check.h"
#include "impl/sammon/sammon_dist.h"

enum { MAX_M = 16 };

/* One reference step for point p: y_out's row, and the point's budget
 * terms: A_p and max_q B_pq (both before the factor alpha (2/c)). */
static void point_step(int N, int n, int m, const double *x, const double *y, double coef,
                       int p, double *y_out, double *a_out, double *b_out)
{
    const double *xp = x + (size_t)p * n, *yp = y + (size_t)p * m;
    double sum[MAX_M] = { 0 }, mag[MAX_M] = { 0 }, a = 0.0;
    for (int j = 0; j < N; j++) {
        if (j == p)
            continue;
        const double *yj = y + (size_t)j * m;
        double ds = sammon_dist(n, xp, x + (size_t)j * n), d = sammon_dist(m, yp, yj);
        if (d == 0.0)
            continue;
        double r = (ds - d) / ds;
        a += 1.0 + d / ds;
        for (int q = 0; q < m; q++) {
            double t = r * (yp[q] - yj[q]) / d;
            sum[q] += t;
            mag[q] += fabs(t);
        }
    }
    double b = 0.0;
    for (int q = 0; q < m; q++) {
        y_out[q] = yp[q] + coef * sum[q];   /* y - alpha g, g = -(2/c) sum */
        b = fmax(b, mag[q]);
    }
    *a_out = a;
    *b_out = b;
}

int sammon_check_reference(int N, int n, int m, int iters, const double *x, const double *y0,
                           double c, double alpha, double *y_ref, double *budget)
{
    size_t len = (size_t)N * m;
    double *ya = malloc(len * sizeof *ya), *ab = malloc(2 * (size_t)N * sizeof *ab);
    int rc = m > MAX_M ? RB_EINVAL : RB_ENOMEM;
    if (!ya || !ab || m > MAX_M)
        goto out_free;
    double coef = alpha * 2.0 / c, P = n + 2.0 * m + 20.0;
    double root = SAMMON_CHECK_LAMBDA * sqrt(N - 1.0);
    *budget = 0.0;
    /* The last step writes y_ref: start in whichever buffer makes it so. */
    double *cur = iters % 2 ? ya : y_ref, *next = iters % 2 ? y_ref : ya;
    memcpy(cur, y0, len * sizeof *cur);
    for (int t = 0; t < iters; t++) {
        SAMMON_PARALLEL_FOR
        for (int p = 0; p < N; p++)
            point_step(N, n, m, x, cur, coef, p, next + (size_t)p * m, &ab[2 * (size_t)p],
                       &ab[2 * (size_t)p + 1]);
        double sums = 0.0, upd = 0.0;
        for (int p = 0; p < N; p++)
            sums = fmax(sums, coef * (P * ab[2 * (size_t)p] + root * ab[2 * (size_t)p + 1]));
        for (size_t k = 0; k < len; k++)
            upd = fmax(upd, fabs(next[k]) + 4.0 * fabs(next[k] - cur[k]));
        *budget += sums + upd;
        double *tmp = cur;
        cur = next;
        next = tmp;
    }
    rc = 0;
out_free:
    free(ab);
    free(ya);
    return rc;
}

int sammon_check_rows(int N, int n, int m, const double *x, const double *y0, double c,
                      double alpha, const int *rows, int k, double *y_rows, double *budget)
{
    double *ab = malloc(2 * (size_t)k * sizeof *ab);
    if (m > MAX_M || !ab) {
        free(ab);
        return m > MAX_M ? RB_EINVAL : RB_ENOMEM;
    }
    double coef = alpha * 2.0 / c, P = n + 2.0 * m + 20.0;
    double root = SAMMON_CHECK_LAMBDA * sqrt(N - 1.0), sums = 0.0, upd = 0.0;
    SAMMON_PARALLEL_FOR
    for (int i = 0; i < k; i++)
        point_step(N, n, m, x, y0, coef, rows[i], y_rows + (size_t)i * m, &ab[2 * (size_t)i],
                   &ab[2 * (size_t)i + 1]);
    for (int i = 0; i < k; i++) {
        sums = fmax(sums, coef * (P * ab[2 * (size_t)i] + root * ab[2 * (size_t)i + 1]));
        for (int q = 0; q < m; q++) {
            const double next = y_rows[(size_t)i * m + q];
            upd = fmax(upd, fabs(next) + 4.0 * fabs(next - y0[(size_t)rows[i] * m + q]));
        }
    }
    *budget = sums + upd;
    free(ab);
    return 0;
}
