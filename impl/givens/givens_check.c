/* SPDX-License-Identifier: MIT */
/* Verification of any Givens variant's output against the fp64 apply form:
 * O(n^2) per probe, so it runs at every size the benchmarks use.
 *
 * Both checks report the largest elementwise error over the RMS of the
 * reference.  A relative Frobenius (or l2) norm would dilute one wrong entry
 * by sqrt(n K) (resp. sqrt(N) = n / sqrt(2)) and let, say, a 1e-2 error in
 * one entry of U pass in fp32 at n = 1024; the elementwise form does not. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "harness/error.h"
#include "impl/common/rng.h"
#include "impl/givens/givens.h"

enum { PROBES = 8 };

static double prec_eps(enum rb_prec prec)
{
    return prec == RB_PREC_F64 ? 0x1.0p-52 : 0x1.0p-23;
}

/* max |got - want| / rms(scale); NaN or an infinity anywhere in got (an
 * element never written, say) makes it NaN. */
static double max_over_rms(const double *got, const double *want, const double *scale,
                           size_t len)
{
    double worst = 0.0, sq = 0.0;
    int bad = 0;
    for (size_t k = 0; k < len; k++) {
        double d = fabs(got[k] - want[k]);
        bad |= !isfinite(d);
        if (d > worst)
            worst = d;
        sq += scale[k] * scale[k];
    }
    double rms = sqrt(sq / (double)(len ? len : 1));
    if (bad)
        return NAN;
    return rms > 0.0 ? worst / rms : worst;
}

static void set_verdict(struct rb_check *out, double err, double tol, const char *method)
{
    out->error = err;
    out->tolerance = tol;
    out->pass = err <= tol;             /* NaN fails */
    snprintf(out->method, sizeof out->method, "%s", method);
}

int givens_check_forward(int n, int m, const double *theta_d, const void *U,
                         enum rb_prec prec, uint64_t seed, struct rb_check *out)
{
    size_t len = (size_t)n * PROBES;
    double *X = malloc(len * sizeof *X), *Y = calloc(len, sizeof *Y);
    double *Yref = malloc(len * sizeof *Yref);
    int rc = RB_ENOMEM;
    if (!X || !Y || !Yref)
        goto out_free;
    struct rb_rng r;
    rb_rng_seed(&r, seed);
    for (size_t k = 0; k < len; k++)
        X[k] = rb_rng_normal(&r);
    memcpy(Yref, X, len * sizeof *X);
    givens_apply_d(n, m, theta_d, Yref, PROBES);

    /* Y = U X in fp64; NaN in any entry of U reaches a row of Y because no
     * probe entry is zero. */
    for (int row = 0; row < n; row++) {
        double *y = Y + (size_t)row * PROBES;
        for (int l = 0; l < n; l++) {
            size_t at = (size_t)row * n + l;
            double u = prec == RB_PREC_F64 ? ((const double *)U)[at]
                                           : (double)((const float *)U)[at];
            const double *x = X + (size_t)l * PROBES;
            for (int k = 0; k < PROBES; k++)
                y[k] += u * x[k];
        }
    }
    set_verdict(out, max_over_rms(Y, Yref, Yref, len), 4.0 * n * prec_eps(prec),
                "max|U*X - apply(X)|/rms, 8 probes, fp64 ref");
    rc = 0;
out_free:
    free(Yref);
    free(Y);
    free(X);
    return rc;
}

/* Tolerance 8 n eps: Algorithm 3 carries both M and U^fwd through n - 1
 * blocks of rotations, each adding O(eps) relative error to the rows it
 * touches, so the error of the dot products grows about linearly in n (as
 * the forward's does, notes section 12); the factor 8 covers the two
 * matrices and the length-n dot products on top of the forward's 4. */
int givens_check_backward(int n, int m, const double *theta_d, const void *dtheta,
                          enum rb_prec prec, const double *G, const double *X, int r,
                          struct rb_check *out)
{
    size_t len = (size_t)n * r, count = givens_theta_count(n, m);
    double *Y = malloc(len * sizeof *Y), *GY = malloc(len * sizeof *GY);
    double *ref = malloc(count * sizeof *ref), *got = malloc(count * sizeof *got);
    double *scale = malloc(count * sizeof *scale);
    int rc = RB_ENOMEM;
    if (!Y || !GY || !ref || !got || !scale)
        goto out_free;
    /* tr(Gamma^T dU) = <G, dU X> for Gamma = G X^T: the apply-form JVP at
     * Y = U X, GY = G is the JVP of the full U at Gamma. */
    memcpy(Y, X, len * sizeof *Y);
    givens_apply_d(n, m, theta_d, Y, r);
    memcpy(GY, G, len * sizeof *GY);
    givens_apply_backward_d(n, m, theta_d, Y, GY, r, ref, scale);
    for (size_t e = 0; e < count; e++)
        got[e] = prec == RB_PREC_F64 ? ((const double *)dtheta)[e]
                                     : (double)((const float *)dtheta)[e];
    char method[sizeof out->method];
    snprintf(method, sizeof method,
             "max|dtheta - ref|/rms(term sizes), Gamma = G X^T rank %d, fp64 apply-form JVP",
             r);
    set_verdict(out, max_over_rms(got, ref, scale, count), 8.0 * n * prec_eps(prec), method);
    rc = 0;
out_free:
    free(scale);
    free(got);
    free(ref);
    free(GY);
    free(Y);
    return rc;
}

/* One value of a float or double array. */
static double at_prec(const void *a, size_t k, enum rb_prec prec)
{
    return prec == RB_PREC_F64 ? ((const double *)a)[k] : (double)((const float *)a)[k];
}

int givens_check_apply(int n, int m, const double *theta_d, const double *X, const void *Y,
                       int nb, enum rb_prec prec, struct rb_check *out)
{
    size_t len = (size_t)n * nb;
    double *ref = malloc(len * sizeof *ref), *got = malloc(len * sizeof *got);
    int rc = RB_ENOMEM;
    if (!ref || !got)
        goto out_free;
    memcpy(ref, X, len * sizeof *ref);
    givens_apply_d(n, m, theta_d, ref, nb);
    for (size_t k = 0; k < len; k++)
        got[k] = at_prec(Y, k, prec);
    set_verdict(out, max_over_rms(got, ref, ref, len), 4.0 * n * prec_eps(prec),
                "max|Y - apply(X)|/rms, fp64 ref");
    rc = 0;
out_free:
    free(got);
    free(ref);
    return rc;
}

int givens_check_apply_backward(int n, int m, const double *theta_d, const double *X,
                                const double *GY, const void *dtheta, const void *dX, int nb,
                                enum rb_prec prec, struct rb_check *out)
{
    size_t len = (size_t)n * nb, count = givens_theta_count(n, m);
    double *Y = malloc(len * sizeof *Y), *G = malloc(len * sizeof *G);
    double *dx = malloc(len * sizeof *dx), *ref = malloc(count * sizeof *ref);
    double *scale = malloc(count * sizeof *scale), *got = malloc(count * sizeof *got);
    int rc = RB_ENOMEM;
    if (!Y || !G || !dx || !ref || !scale || !got)
        goto out_free;
    memcpy(Y, X, len * sizeof *Y);
    givens_apply_d(n, m, theta_d, Y, nb);
    memcpy(G, GY, len * sizeof *G);
    givens_apply_backward_d(n, m, theta_d, Y, G, nb, ref, scale);     /* G becomes dX */
    for (size_t e = 0; e < count; e++)
        got[e] = at_prec(dtheta, e, prec);
    for (size_t k = 0; k < len; k++)
        dx[k] = at_prec(dX, k, prec);
    double eth = max_over_rms(got, ref, scale, count), edx = max_over_rms(dx, G, G, len);
    set_verdict(out, isnan(eth) || isnan(edx) ? NAN : fmax(eth, edx), 8.0 * n * prec_eps(prec),
                "max of dtheta (over term sizes) and dX = U^T GY (over rms), fp64 ref");
    rc = 0;
out_free:
    free(got);
    free(scale);
    free(ref);
    free(dx);
    free(G);
    free(Y);
    return rc;
}
