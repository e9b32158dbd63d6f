/* SPDX-License-Identifier: MIT */
/* A block for the Jacobi SVD's null floor (kernels/cuda/sbo_train_svd.cuh,
 * kernels/opencl/sbo_train_svd.cl): a column of norm below p eps |M|_F is
 * null and completed to a unit vector orthogonal to the others.  The block
 * is M = U0 diag(s) V0^T, U0 and V0 the polar factors of Gaussian
 * matrices, s_k uniform in [1, 2] but for s_p = 0.4 p eps |M|_F: below the
 * floor, yet positive and far from s_(p-1), so that M's polar factor is
 * well defined and a completion of the wrong sign (U0's last column
 * negated) moves Q = U V^T by 2 u_p v_p^T, at least 2/p in some entry.
 * The return value is the bound on max |Q - polar(M)| that
 * t/sbo_opencl_train_kernels.c derives, 2 d + 6 d |M|_F / (s_(p-1) + s_p),
 * d = 64 p u (here about 590 u p^1.5, under 2/p up to p = 64 in float);
 * -1 if sbo_polar failed.
 * f32: M rounded to float, which moves s_p by at most u |M|_2, a hundredth
 * of it. */
#ifndef RB_T_SBO_SVD_FLOOR_H
#define RB_T_SBO_SVD_FLOOR_H

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include "impl/common/rng.h"
#include "impl/sbo/sbo.h"
#include "t/tap.h"

static inline double sbo_test_below_floor(struct rb_rng *rng, int p, int f32, double *M)
{
    const size_t pp = (size_t)p * p;
    const double eps = f32 ? FLT_EPSILON : DBL_EPSILON, u = f32 ? 0x1.0p-24 : 0x1.0p-53;
    double *G = (double *)malloc(3 * pp * sizeof *G), *U0 = G + pp, *V0 = U0 + pp;
    double *s = (double *)malloc((size_t)p * sizeof *s), fro2 = 0.0, gap = 3.0;
    int rc = G && s ? 0 : -1;
    for (int f = 0; rc == 0 && f < 2; f++) {
        for (size_t k = 0; k < pp; k++)
            G[k] = rb_rng_normal(rng);
        rc = sbo_polar(p, G, f ? V0 : U0);
    }
    for (int k = 0; rc == 0 && k < p - 1; k++) {
        s[k] = 1.0 + rb_rng_uniform(rng);
        fro2 += s[k] * s[k];
        gap = fmin(gap, s[k]);
    }
    double bound = -1.0;
    if (rc == 0) {
        s[p - 1] = 0.4 * p * eps * sqrt(fro2);
        for (int r = 0; r < p; r++)
            for (int c = 0; c < p; c++) {
                double x = 0.0;
                for (int k = 0; k < p; k++)
                    x += U0[r + k * p] * s[k] * V0[c + k * p];
                M[r + c * p] = f32 ? (double)(float)x : x;
            }
        const double d = 64.0 * p * u;
        bound = 2.0 * d + 6.0 * d * sqrt(fro2) / (gap + s[p - 1]);
    }
    free(s);
    free(G);
    return bound;
}

/* Over nb such blocks M (p x p each) with their bounds: the worst
 * max |Q - polar(M)| / bound (NaN where a Q entry is NaN or a bound or
 * polar factor is missing), and in *orth the worst orthonormality error
 * of the Q (NaN likewise). */
static inline double sbo_test_floor_worst(int p, int nb, const double *M, const double *Q,
                                          const double *bound, double *orth)
{
    const size_t pp = (size_t)p * p;
    double *ref = (double *)malloc(pp * sizeof *ref), worst = ref ? 0.0 : NAN;
    *orth = 0.0;
    for (int g = 0; g < nb; g++) {
        const double *Qg = Q + g * pp;
        double qdev = NAN;
        if (bound[g] > 0 && sbo_polar(p, M + g * pp, ref) == 0) {
            qdev = 0.0;
            for (size_t k = 0; k < pp; k++)
                qdev = tap_worst(qdev, fabs(Qg[k] - ref[k]));
        }
        worst = tap_worst(worst, qdev / bound[g]);
        *orth = tap_worst(*orth, sbo_orth_error(p, 1, Qg));
    }
    free(ref);
    return worst;
}

#endif
