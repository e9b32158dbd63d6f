/* SPDX-License-Identifier: MIT */
/* The OpenMP Givens code equals the serial code bit for bit: forward
 * (pairs, and column chunks when a block has fewer pairs than threads want)
 * and backward, float and double, even, odd and restricted sizes. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "impl/common/rng.h"
#include "impl/givens/givens.h"
#include "t/tap.h"

static void nan_d(double *a, size_t len)
{
    for (size_t k = 0; k < len; k++)
        a[k] = NAN;
}

static void nan_f(float *a, size_t len)
{
    for (size_t k = 0; k < len; k++)
        a[k] = NAN;
}

static void check(struct rb_rng *r, int n, int m, int threads)
{
    size_t nn = (size_t)n * n, count = givens_theta_count(n, m);
    size_t wc = givens_backward_work_count(n);
    double *td = malloc(count * sizeof *td), *Gd = malloc(nn * sizeof *Gd);
    double *U1 = malloc(nn * sizeof *U1), *U2 = malloc(nn * sizeof *U2);
    double *d1 = malloc(count * sizeof *d1), *d2 = malloc(count * sizeof *d2);
    double *wd = malloc(wc * sizeof *wd);
    float *tf = malloc(count * sizeof *tf), *Gf = malloc(nn * sizeof *Gf);
    float *F1 = malloc(nn * sizeof *F1), *F2 = malloc(nn * sizeof *F2);
    float *e1 = malloc(count * sizeof *e1), *e2 = malloc(count * sizeof *e2);
    float *wf = malloc(wc * sizeof *wf);
    for (size_t e = 0; e < count; e++)
        td[e] = tf[e] = (float)rb_rng_range(r, -M_PI, M_PI);
    for (size_t q = 0; q < nn; q++)
        Gd[q] = Gf[q] = (float)rb_rng_normal(r);
    nan_d(U1, nn);
    nan_d(U2, nn);
    nan_f(F1, nn);
    nan_f(F2, nn);
    nan_d(d1, count);
    nan_d(d2, count);
    nan_f(e1, count);
    nan_f(e2, count);

    givens_forward_rr_d(n, m, td, U1);
    givens_forward_rr_omp_d(n, m, td, U2, threads);
    tap_ok(memcmp(U1, U2, nn * sizeof *U1) == 0, "forward f64 n=%d m=%d threads=%d = serial",
           n, m, threads);
    givens_forward_rr_f(n, m, tf, F1);
    givens_forward_rr_omp_f(n, m, tf, F2, threads);
    tap_ok(memcmp(F1, F2, nn * sizeof *F1) == 0, "forward f32 n=%d m=%d threads=%d = serial",
           n, m, threads);
    givens_backward_rr_d(n, m, td, U1, Gd, d1, wd);
    nan_d(wd, wc);
    givens_backward_rr_omp_d(n, m, td, U1, Gd, d2, wd, threads);
    tap_ok(memcmp(d1, d2, count * sizeof *d1) == 0,
           "backward f64 n=%d m=%d threads=%d = serial", n, m, threads);
    givens_backward_rr_f(n, m, tf, F1, Gf, e1, wf);
    nan_f(wf, wc);
    givens_backward_rr_omp_f(n, m, tf, F1, Gf, e2, wf, threads);
    tap_ok(memcmp(e1, e2, count * sizeof *e1) == 0,
           "backward f32 n=%d m=%d threads=%d = serial", n, m, threads);
    free(wf);
    free(e2);
    free(e1);
    free(F2);
    free(F1);
    free(Gf);
    free(tf);
    free(wd);
    free(d2);
    free(d1);
    free(U2);
    free(U1);
    free(Gd);
    free(td);
}

int main(void)
{
    /* n=130 with 40 threads: 65 pairs per block, so columns are chunked too. */
    static const int cases[][3] = { { 2, 0, 2 }, { 6, 0, 2 }, { 7, 0, 3 }, { 65, 0, 2 },
                                    { 64, 20, 3 }, { 130, 0, 40 }, { 200, 0, 4 } };
    int nc = (int)(sizeof cases / sizeof *cases);
    uint64_t seed = tap_seed();
    struct rb_rng r;
    tap_plan(4 * nc);
    tap_diag("seed %llu (RB_TEST_SEED=%llu repeats it)", (unsigned long long)seed,
             (unsigned long long)seed);
    rb_rng_seed(&r, seed);
    for (int k = 0; k < nc; k++)
        check(&r, cases[k][0], cases[k][1], cases[k][2]);
    return tap_done();
}
