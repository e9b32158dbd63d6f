/* SPDX-License-Identifier: MIT */
/* SBO on a planted union of orthonormal bases (p = 64, L = 4, s = 4,
 * m = 8192, 30 dB): at least 95% of the 256 planted atoms recovered
 * (|correlation| > 0.99 with some learned atom), the RMSE falls as blocks
 * are added, the blocks are orthonormal, and the final RMSE equals the one
 * recomputed explicitly in fp64.  It runs the OpenMP float version on one
 * thread: the fp64 loops take 7 to 8 s here, too close to the 10 s limit. */
#include <math.h>
#include <omp.h>
#include <stdlib.h>
#include "datasets/planted.h"
#include "impl/sbo/sbo_omp.h"
#include "t/tap.h"

#define NP 64
#define NL 4
#define NS 4
#define NM 8192

struct last {
    double rmse[NL + 1];     /* the last RMSE with each block count */
};

static void trace(int blocks, int round, double rmse, void *arg)
{
    (void)round;
    ((struct last *)arg)->rmse[blocks] = rmse;
}

int main(void)
{
    uint64_t seed = tap_seed();
    tap_plan(5);
    tap_diag("seed %llu (RB_TEST_SEED=%llu repeats it)", (unsigned long long)seed,
             (unsigned long long)seed);
    struct rb_planted pl;
    if (rb_planted_make(&pl, NP, NM, NL, NS, 30.0, seed) != 0)
        return tap_skip_all("planted data: out of memory"), 0;
    float *Y = malloc((size_t)NP * NM * sizeof *Y), *D = malloc((size_t)NL * NP * NP * sizeof *D);
    double *Dd = malloc((size_t)NL * NP * NP * sizeof *Dd);
    int *assign = malloc(NM * sizeof *assign), nb = 0;
    for (size_t k = 0; k < (size_t)NP * NM; k++)
        Y[k] = (float)pl.Y[k];
    struct sbo_opts o;
    struct last last = { { 0 } };
    sbo_opts_default(&o);
    o.s = NS;
    o.L = NL;
    o.seed = seed;
    o.trace = trace;
    o.trace_arg = &last;
    double rmse = NAN, t0 = omp_get_wtime();
    int rc = sbo_train_omp(NP, NM, Y, &o, D, &nb, assign, &rmse, 1);
    tap_diag("training: %.2f s (K %d, R %d, W %d)", omp_get_wtime() - t0, o.K, o.R,
             sbo_worst_count(&o, NM));
    tap_ok(rc == 0 && nb == NL, "trained %d blocks (rc %d)", nb, rc);
    for (size_t k = 0; k < (size_t)NL * NP * NP; k++)
        Dd[k] = D[k];
    int found = rb_planted_recovered(NP, NL, pl.D, nb, Dd, 0.99);
    tap_ok(found >= 0.95 * NL * NP, "%d of %d planted atoms recovered (>= 95%%)", found, NL * NP);
    tap_diag("RMSE by blocks: %.4f %.4f %.4f %.4f", last.rmse[1], last.rmse[2], last.rmse[3],
             last.rmse[4]);
    tap_ok(last.rmse[1] > last.rmse[2] && last.rmse[2] > last.rmse[3]
           && last.rmse[3] > last.rmse[4], "RMSE falls as blocks are added");
    double orth = sbo_orth_error(NP, nb, Dd);
    tap_ok(orth < 1e-4, "blocks orthonormal to %.2g", orth);
    double check = sbo_rmse_explicit(NP, NS, Dd, NM, pl.Y, assign);
    tap_ok(fabs(check - rmse) <= 1e-3 * check, "RMSE %.6g = explicit fp64 %.6g", rmse, check);
    free(assign);
    free(Dd);
    free(D);
    free(Y);
    rb_planted_free(&pl);
    return tap_done();
}
