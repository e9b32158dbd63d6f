/* SPDX-License-Identifier: MIT */
/* givens_check_forward / _backward: pass on correct output, fail on one
 * entry off by 1e-2 and on one entry left NaN (an element never written). */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "impl/common/rng.h"
#include "impl/givens/givens.h"
#include "t/tap.h"

/* Set entry k of a float or double array. */
static void poke(void *a, enum rb_prec prec, size_t k, double v)
{
    if (prec == RB_PREC_F64)
        ((double *)a)[k] = v;
    else
        ((float *)a)[k] = (float)v;
}

static double peek(const void *a, enum rb_prec prec, size_t k)
{
    return prec == RB_PREC_F64 ? ((const double *)a)[k] : ((const float *)a)[k];
}

/* theta drawn in the case precision; theta_d holds the same values. */
static void *draw_theta(struct rb_rng *r, size_t count, enum rb_prec prec, double *theta_d)
{
    void *t = malloc(count * rb_prec_size(prec));
    for (size_t e = 0; e < count; e++) {
        poke(t, prec, e, rb_rng_range(r, -M_PI, M_PI));
        theta_d[e] = peek(t, prec, e);
    }
    return t;
}

static void check_forward(struct rb_rng *r, int n, int m, enum rb_prec prec)
{
    const char *p = rb_prec_name(prec);
    size_t nn = (size_t)n * n, count = givens_theta_count(n, m);
    double *theta_d = malloc(count * sizeof *theta_d);
    void *theta = draw_theta(r, count, prec, theta_d);
    void *U = malloc(nn * rb_prec_size(prec));
    if (prec == RB_PREC_F64)
        givens_forward_rr_d(n, m, theta, U);
    else
        givens_forward_rr_f(n, m, theta, U);
    uint64_t probe = rb_rng_u64(r);
    struct rb_check c;
    memset(&c, 0, sizeof c);

    int rc = givens_check_forward(n, m, theta_d, U, prec, probe, &c);
    tap_ok(rc == 0 && c.pass, "forward n=%d m=%d %s: correct U passes (%.3g <= %.3g)", n, m,
           p, c.error, c.tolerance);
    size_t k = (size_t)(rb_rng_uniform(r) * nn);
    double keep = peek(U, prec, k);
    poke(U, prec, k, keep + 1e-2);
    givens_check_forward(n, m, theta_d, U, prec, probe, &c);
    tap_ok(!c.pass, "forward n=%d m=%d %s: U[%zu] + 1e-2 fails (%.3g > %.3g)", n, m, p, k,
           c.error, c.tolerance);
    poke(U, prec, k, NAN);
    givens_check_forward(n, m, theta_d, U, prec, probe, &c);
    tap_ok(!c.pass, "forward n=%d m=%d %s: U[%zu] NaN fails", n, m, p, k);
    poke(U, prec, k, keep);
    theta_d[count / 2] += 1e-2;
    givens_check_forward(n, m, theta_d, U, prec, probe, &c);
    tap_ok(!c.pass, "forward n=%d m=%d %s: U of other angles fails", n, m, p);
    tap_ok(strlen(c.method) > 0, "forward: method says what was compared: %s", c.method);
    free(U);
    free(theta);
    free(theta_d);
}

static void check_backward(struct rb_rng *r, int n, int m, enum rb_prec prec)
{
    const int rank = 4;
    const char *p = rb_prec_name(prec);
    size_t nn = (size_t)n * n, count = givens_theta_count(n, m), sz = rb_prec_size(prec);
    double *theta_d = malloc(count * sizeof *theta_d);
    void *theta = draw_theta(r, count, prec, theta_d);
    double *G = malloc((size_t)n * rank * sizeof *G), *X = malloc((size_t)n * rank * sizeof *X);
    void *U = malloc(nn * sz), *Gamma = malloc(nn * sz), *dtheta = malloc(count * sz);
    void *work = malloc(givens_backward_work_count(n) * sz);
    for (size_t q = 0; q < (size_t)n * rank; q++) {
        G[q] = rb_rng_normal(r);
        X[q] = rb_rng_normal(r);
    }
    for (int a = 0; a < n; a++)
        for (int b = 0; b < n; b++) {
            double v = 0.0;
            for (int k = 0; k < rank; k++)
                v += G[a * rank + k] * X[b * rank + k];
            poke(Gamma, prec, (size_t)a * n + b, v);
        }
    for (size_t e = 0; e < count; e++)
        poke(dtheta, prec, e, NAN);
    if (prec == RB_PREC_F64) {
        givens_forward_rr_d(n, m, theta, U);
        givens_backward_rr_d(n, m, theta, U, Gamma, dtheta, work);
    } else {
        givens_forward_rr_f(n, m, theta, U);
        givens_backward_rr_f(n, m, theta, U, Gamma, dtheta, work);
    }
    struct rb_check c;
    memset(&c, 0, sizeof c);
    int rc = givens_check_backward(n, m, theta_d, dtheta, prec, G, X, rank, &c);
    tap_ok(rc == 0 && c.pass, "backward n=%d m=%d %s: correct dtheta passes (%.3g <= %.3g)",
           n, m, p, c.error, c.tolerance);
    size_t k = (size_t)(rb_rng_uniform(r) * count);
    double keep = peek(dtheta, prec, k);
    poke(dtheta, prec, k, keep + 1e-2);
    givens_check_backward(n, m, theta_d, dtheta, prec, G, X, rank, &c);
    tap_ok(!c.pass, "backward n=%d m=%d %s: dtheta[%zu] + 1e-2 fails (%.3g > %.3g)", n, m, p,
           k, c.error, c.tolerance);
    poke(dtheta, prec, k, NAN);
    givens_check_backward(n, m, theta_d, dtheta, prec, G, X, rank, &c);
    tap_ok(!c.pass, "backward n=%d m=%d %s: dtheta[%zu] NaN fails", n, m, p, k);
    free(work);
    free(dtheta);
    free(Gamma);
    free(U);
    free(X);
    free(G);
    free(theta);
    free(theta_d);
}

int main(void)
{
    uint64_t seed = tap_seed();
    struct rb_rng r;
    tap_plan(5 * 5 + 3 * 5);
    tap_diag("seed %llu (RB_TEST_SEED=%llu repeats it)", (unsigned long long)seed,
             (unsigned long long)seed);
    rb_rng_seed(&r, seed);
    check_forward(&r, 64, 0, RB_PREC_F64);
    check_forward(&r, 7, 0, RB_PREC_F64);
    check_forward(&r, 64, 20, RB_PREC_F32);
    check_forward(&r, 200, 0, RB_PREC_F32);
    check_forward(&r, 1024, 256, RB_PREC_F32);
    check_backward(&r, 64, 0, RB_PREC_F64);
    check_backward(&r, 9, 5, RB_PREC_F64);
    check_backward(&r, 128, 0, RB_PREC_F32);
    check_backward(&r, 255, 0, RB_PREC_F32);
    check_backward(&r, 64, 20, RB_PREC_F32);
    return tap_done();
}
