/* SPDX-License-Identifier: MIT */
/* The block choice (largest retained energy) equals the brute-force one
 * (smallest explicit residual, codes from a full sort) for many signals and
 * random blocks, except where two blocks' residuals tie to rounding; the
 * energies equal |y|^2 minus that residual; the worst-W selection. */
#include <math.h>
#include <stdlib.h>
#include "datasets/planted.h"
#include "impl/common/rng.h"
#include "impl/sbo/sbo.h"
#include "t/tap.h"

/* 2 results. */
static void check_choice(int p, int s, int nb, int m, struct rb_rng *r, int planted)
{
    double *D = malloc((size_t)nb * p * p * sizeof *D), *Y = malloc((size_t)p * m * sizeof *Y);
    double *all = malloc((size_t)nb * m * sizeof *all), *e = malloc((size_t)m * sizeof *e);
    int *best = malloc((size_t)m * sizeof *best);
    for (int j = 0; j < nb; j++)
        rb_planted_orth(r, p, D + (size_t)j * p * p);
    for (int i = 0; i < m; i++) {
        double *y = Y + (size_t)i * p;
        if (planted) {      /* s atoms of one block and a little noise */
            const double *Q = D + (size_t)(rb_rng_u64(r) % nb) * p * p;
            for (int k = 0; k < p; k++)
                y[k] = 0.01 * rb_rng_normal(r);
            for (int a = 0; a < s; a++) {
                double c = rb_rng_normal(r);
                const double *q = Q + (rb_rng_u64(r) % p) * p;
                for (int k = 0; k < p; k++)
                    y[k] += c * q[k];
            }
        } else {
            for (int k = 0; k < p; k++)
                y[k] = rb_rng_normal(r);
        }
    }
    sbo_represent(p, s, nb, D, m, Y, best, e, all);
    int agree = 0, ties = 0;
    double worst = 0.0;
    for (int i = 0; i < m; i++) {
        const double *y = Y + (size_t)i * p;
        double yy = 0.0, resid;
        for (int k = 0; k < p; k++)
            yy += y[k] * y[k];
        int jb = sbo_best_block_brute(p, s, nb, D, y, &resid);
        worst = tap_worst(worst, fabs(yy - e[i] - resid) / yy);
        if (jb == best[i])
            agree++;
        else if (fabs(all[(size_t)i * nb + jb] - e[i]) <= 1e-12 * yy)
            ties++;
    }
    tap_ok(agree + ties == m, "p=%d s=%d blocks=%d %s: %d of %d signals choose the brute-force "
           "block, %d ties", p, s, nb, planted ? "planted" : "gaussian", agree, m, ties);
    tap_ok(worst < 1e-12, "energies = |y|^2 - brute-force residual (worst %.2g)", worst);
    free(best);
    free(e);
    free(all);
    free(Y);
    free(D);
}

int main(void)
{
    uint64_t seed = tap_seed();
    tap_plan(2 * 4 + 2);
    tap_diag("seed %llu (RB_TEST_SEED=%llu repeats it)", (unsigned long long)seed,
             (unsigned long long)seed);
    struct rb_rng r;
    rb_rng_seed(&r, seed);
    check_choice(16, 3, 5, 4000, &r, 0);
    check_choice(8, 1, 7, 4000, &r, 0);
    check_choice(64, 8, 4, 1000, &r, 0);
    check_choice(32, 4, 6, 2000, &r, 1);

    double res[] = { 1.0, 5.0, 3.0, 5.0, 0.5, 2.0 };
    int idx[3];
    sbo_worst(6, res, 3, idx);
    tap_ok(idx[0] == 1 && idx[1] == 3 && idx[2] == 2, "worst 3 by residual, ties to the lower "
           "index: %d %d %d", idx[0], idx[1], idx[2]);
    struct sbo_opts o;
    sbo_opts_default(&o);
    tap_ok(sbo_worst_count(&o, 8192) == 2048 && sbo_worst_count(&o, 3) == 1,
           "W defaults to m / 4, at least 1");
    return tap_done();
}
