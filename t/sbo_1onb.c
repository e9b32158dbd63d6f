/* SPDX-License-Identifier: MIT */
/* 1ONB never increases the error |Y - QX|_F over its iterations (fp64, on
 * Gaussian and on planted data, from each initial basis), its bases stay
 * orthonormal, and coding in one block is exact: the energy sbo_code keeps
 * equals |y|^2 minus the explicit residual. */
#include <math.h>
#include <stdlib.h>
#include "datasets/planted.h"
#include "harness/error.h"
#include "impl/common/rng.h"
#include "impl/sbo/sbo.h"
#include "t/tap.h"

#define K 25

/* 3 results. */
static void check_1onb(const char *what, int p, int m, int s, const double *Y,
                       enum sbo_init how, uint64_t seed)
{
    double *Q = malloc((size_t)p * p * sizeof *Q), err[K + 1];
    int rc = sbo_init_basis(p, m, Y, how, seed, Q);
    tap_ok(rc == 0 && sbo_orth_error(p, 1, Q) < 1e-12, "%s: initial basis orthonormal (%.2g)",
           what, sbo_orth_error(p, 1, Q));
    if (rc == 0)
        rc = sbo_1onb(p, m, Y, s, K, Q, err);
    double worst = -INFINITY;
    for (int k = 1; k <= K; k++)
        worst = tap_worst(worst, (err[k] - err[k - 1]) / err[0]);
    tap_ok(rc == 0 && worst <= 1e-12 && err[K] < err[0],
           "%s: error never rises (largest step %.2g of the start), %.6g -> %.6g", what,
           worst, err[0], err[K]);
    tap_ok(sbo_orth_error(p, 1, Q) < 1e-12, "%s: 1ONB's basis orthonormal (%.2g)", what,
           sbo_orth_error(p, 1, Q));
    free(Q);
}

int main(void)
{
    uint64_t seed = tap_seed();
    tap_plan(3 * 6 + 2);
    tap_diag("seed %llu (RB_TEST_SEED=%llu repeats it)", (unsigned long long)seed,
             (unsigned long long)seed);
    struct rb_rng r;
    rb_rng_seed(&r, seed);
    int p = 16, m = 600, s = 3;
    double *Y = malloc((size_t)p * m * sizeof *Y);
    for (int k = 0; k < p * m; k++)
        Y[k] = rb_rng_normal(&r);
    check_1onb("gaussian, svd_of_data", p, m, s, Y, SBO_INIT_SVD_OF_DATA, seed);
    check_1onb("gaussian, identity", p, m, s, Y, SBO_INIT_IDENTITY, seed);
    check_1onb("gaussian, random_orth", p, m, s, Y, SBO_INIT_RANDOM_ORTH, seed);

    /* Coding: kept energy = |y|^2 - |y - Q x|^2, x s-sparse. */
    double *Q = malloc((size_t)p * p * sizeof *Q), x[16], worst = 0.0;
    int sparse = 1;
    rb_planted_orth(&r, p, Q);
    for (int i = 0; i < 50; i++) {
        const double *y = Y + (size_t)i * p;
        double e = sbo_code(p, s, Q, y, x), yy = 0.0, rr = 0.0;
        int nz = 0;
        for (int k = 0; k < p; k++) {
            nz += x[k] != 0.0;
            yy += y[k] * y[k];
        }
        for (int row = 0; row < p; row++) {
            double a = y[row];
            for (int k = 0; k < p; k++)
                a -= Q[(size_t)k * p + row] * x[k];
            rr += a * a;
        }
        sparse &= nz == s;
        worst = tap_worst(worst, fabs(yy - e - rr) / yy);
    }
    tap_ok(sparse, "codes have exactly s = %d nonzeros", s);
    tap_ok(worst < 1e-13, "kept energy = |y|^2 - residual (worst %.2g relative)", worst);
    free(Q);
    free(Y);

    struct rb_planted pl;
    if (rb_planted_make(&pl, 64, 2048, 2, 4, 30.0, seed) != 0)
        return tap_ok(0, "planted data"), tap_done();
    check_1onb("planted, svd_of_data", 64, 2048, 4, pl.Y, SBO_INIT_SVD_OF_DATA, seed);
    check_1onb("planted, identity", 64, 2048, 4, pl.Y, SBO_INIT_IDENTITY, seed);
    check_1onb("planted, random_orth", 64, 2048, 4, pl.Y, SBO_INIT_RANDOM_ORTH, seed);
    rb_planted_free(&pl);
    return tap_done();
}
