/* SPDX-License-Identifier: MIT */
/* The OpenMP float SBO agrees with the fp64 reference: the representation
 * pass (the same block except fp32 ties, energies within the fp32 bound),
 * 1ONB's error trace, and a one-block training's RMSE.  Trainings of more
 * blocks are not compared: rounding changes the worst-W sets and the
 * trajectories part for different local minima (seen: 0.036 against 0.060
 * at 3 blocks), so t/sbo_planted checks their quality instead. */
#include <math.h>
#include <stdlib.h>
#include "datasets/planted.h"
#include "harness/backend/cpu.h"
#include "impl/sbo/sbo_omp.h"
#include "t/tap.h"

struct trace {
    double rmse[8];
};

static void keep(int blocks, int round, double rmse, void *arg)
{
    (void)round;
    ((struct trace *)arg)->rmse[blocks] = rmse;
}

int main(void)
{
    uint64_t seed = tap_seed();
    int threads = rb_omp_max_threads() > 1 ? 2 : 1;
    tap_plan(5);
    tap_diag("seed %llu (RB_TEST_SEED=%llu repeats it), %d threads", (unsigned long long)seed,
             (unsigned long long)seed, threads);
    enum { P = 32, L = 3, S = 3, M = 3000 };
    struct rb_planted pl;
    if (rb_planted_make(&pl, P, M, L, S, 25.0, seed) != 0)
        return tap_skip_all("planted data: out of memory"), 0;
    size_t nd = (size_t)L * P * P;
    float *Y = malloc((size_t)P * M * sizeof *Y), *D = malloc(nd * sizeof *D);
    float *e = malloc(M * sizeof *e);
    double *Yd = malloc((size_t)P * M * sizeof *Yd), *Dd = malloc(nd * sizeof *Dd);
    double *all = malloc((size_t)L * M * sizeof *all);
    int *best = malloc(M * sizeof *best), *ref = malloc(M * sizeof *ref);
    for (size_t k = 0; k < (size_t)P * M; k++)
        Yd[k] = Y[k] = (float)pl.Y[k];
    for (size_t k = 0; k < nd; k++)
        Dd[k] = D[k] = (float)pl.D[k];

    sbo_represent(P, S, L, Dd, M, Yd, ref, NULL, all);
    for (int i = 0; i < M; i++) {
        best[i] = -1;
        e[i] = NAN;
    }
    int rc = sbo_represent_omp(P, S, L, D, M, Y, best, e, threads), same = 0, ties = 0;
    double worst = 0.0;
    for (int i = 0; i < M; i++) {
        double yy = 0.0;
        for (int k = 0; k < P; k++)
            yy += Yd[(size_t)i * P + k] * Yd[(size_t)i * P + k];
        double tol = 2.0 * (2.0 * P * sqrt(S) + S) * 0x1.0p-24 * yy;
        if (best[i] < 0 || best[i] >= L) {
            worst = INFINITY;
            continue;
        }
        worst = tap_worst(worst, fabs(e[i] - all[(size_t)i * L + best[i]]) / tol);
        same += best[i] == ref[i];
        ties += best[i] != ref[i]
                && all[(size_t)i * L + ref[i]] - all[(size_t)i * L + best[i]] <= 2 * tol;
    }
    tap_ok(rc == 0 && same + ties == M, "represent: %d same block, %d fp32 ties of %d", same,
           ties, M);
    tap_ok(worst <= 1.0, "represent: energies within the fp32 bound (%.3g of it)", worst);

    /* 1ONB from the same start, 10 iterations. */
    double errd[11], errf[11];
    float *Qf = malloc(P * P * sizeof *Qf);
    double *Qd = malloc(P * P * sizeof *Qd);
    rc = sbo_init_basis(P, M, Yd, SBO_INIT_SVD_OF_DATA, seed, Qd);
    rc |= sbo_init_basis_omp(P, M, Y, SBO_INIT_SVD_OF_DATA, seed, Qf, threads);
    rc |= sbo_1onb(P, M, Yd, S, 10, Qd, errd);
    rc |= sbo_1onb_omp(P, M, Y, S, 10, Qf, errf, threads);
    double dev = 0.0;
    for (int k = 0; k <= 10; k++)
        dev = tap_worst(dev, fabs(errf[k] - errd[k]) / errd[0]);
    /* Hard thresholding is discontinuous: where a signal's s-th and
     * (s+1)-th coefficients nearly tie, float rounding picks the other one
     * and the traces part by more than rounding (seen: 2e-3 of the start in
     * one CI run); 1% still catches a wrong step, which moves them by far
     * more. */
    tap_ok(rc == 0 && dev < 1e-2, "1ONB error traces agree to %.2g of the start "
           "(%.6g -> %.6g vs %.6g -> %.6g)", dev, errd[0], errd[10], errf[0], errf[10]);

    /* A one-block training (initial basis and K 1ONB iterations on all
     * signals), fp64 and float, from the same data. */
    struct sbo_opts o;
    struct trace td = { { 0 } }, tf = { { 0 } };
    sbo_opts_default(&o);
    o.s = S;
    o.L = 1;
    o.seed = seed;
    o.trace = keep;
    o.trace_arg = &td;
    int nbd = 0, nbf = 0;
    double rd = NAN, rf = NAN;
    rc = sbo_train(P, M, Yd, &o, Dd, &nbd, ref, &rd);
    o.trace_arg = &tf;
    rc |= sbo_train_omp(P, M, Y, &o, D, &nbf, best, &rf, threads);
    tap_ok(rc == 0 && nbd == 1 && nbf == 1 && td.rmse[1] == rd && tf.rmse[1] == rf,
           "both trained one block, traced the final RMSE");
    /* Not a rounding bound: over the K iterations the float and fp64 runs
     * part ways where a coefficient sits at the top-s threshold and settle
     * in nearby local optima of the same objective (100 seeds: within 0.9%
     * either way).  2% still fails a training that stops improving the
     * basis: its RMSE stays some 20% above (the square root of test 3's
     * error traces, 5238 -> 3557 in 10 iterations on one seed). */
    tap_ok(fabs(rf - rd) <= 2e-2 * rd, "one-block RMSE %.6f vs fp64 %.6f", rf, rd);
    free(Qd);
    free(Qf);
    free(ref);
    free(best);
    free(all);
    free(Dd);
    free(Yd);
    free(e);
    free(D);
    free(Y);
    rb_planted_free(&pl);
    return tap_done();
}
