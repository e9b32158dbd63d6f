/* SPDX-License-Identifier: MIT */
/* The peers' drivers of the pseudo-Newton rule (notes section 2.1), for
 * checking against their published figures: R MASS's VR_sammon (adaptive
 * magic, centroid re-centring, a tolerance check every 10 iterations) and
 * Cawley and Talbot's sammon.m (step halving, relative TolFun).  Both
 * compute the textbook stress; the peers' own scalings (MASS: E, Cawley:
 * E/2) are constant factors that change no decision. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "harness/error.h"
#include "impl/sammon/sammon.h"

/* y - mf g / |h|, the diagonal Newton step for any factor mf. */
static void newton_from(size_t len, const double *y, const double *g, const double *h,
                        double mf, double *out)
{
    for (size_t k = 0; k < len; k++)
        out[k] = y[k] - (h[k] != 0.0 ? mf * g[k] / fabs(h[k]) : 0.0);
}

int sammon_run_mass(int N, int n, int m, const double *x, double *y,
                    const struct sammon_mass_opts *o, double *stress)
{
    size_t len = (size_t)N * m;
    double *g = malloc(len * sizeof *g), *h = malloc(len * sizeof *h);
    double *yu = malloc(len * sizeof *yu);
    int iters = o->niter;
    if (!g || !h || !yu) {
        iters = RB_ENOMEM;
        goto out_free;
    }
    double c = sammon_input_scale(N, n, x), magic = o->magic;
    double e = sammon_stress(N, n, m, x, y, c), eprev = e, epast = e;
    for (int i = 1; i <= o->niter; i++) {
        /* The trial steps of one iteration all start from y: one gradient. */
        sammon_gradient(N, n, m, x, y, c, g, h);
        for (;;) {
            newton_from(len, y, g, h, magic, yu);
            e = sammon_stress(N, n, m, x, yu, c);
            if (e <= eprev)
                break;
            e = eprev;
            magic *= 0.2;
            if (magic <= 1e-3)
                break;
        }
        if (magic <= 1e-3) {
            /* MASS reports the stress "after i - 1 iters": this one failed. */
            iters = i - 1;
            break;
        }
        magic = fmin(magic * 1.5, 0.5);
        eprev = e;
        if (o->trace)
            o->trace(i, e, o->arg);
        for (int q = 0; q < m; q++) {
            double mean = 0.0;
            for (int p = 0; p < N; p++)
                mean += yu[(size_t)p * m + q];
            mean /= N;
            for (int p = 0; p < N; p++)
                y[(size_t)p * m + q] = yu[(size_t)p * m + q] - mean;
        }
        if (i % 10 == 0) {
            if (e > epast - o->tol) {
                iters = i;
                break;
            }
            epast = e;
        }
    }
    *stress = e;
out_free:
    free(yu);
    free(h);
    free(g);
    return iters;
}

int sammon_run_cawley(int N, int n, int m, const double *x, double *y,
                      const struct sammon_cawley_opts *o, double *stress)
{
    size_t len = (size_t)N * m;
    double *g = malloc(len * sizeof *g), *h = malloc(len * sizeof *h);
    double *yold = malloc(len * sizeof *yold);
    int iters = o->maxiter;
    if (!g || !h || !yold) {
        iters = RB_ENOMEM;
        goto out_free;
    }
    double c = sammon_input_scale(N, n, x);
    double e = sammon_stress(N, n, m, x, y, c), e_new = e;
    for (int i = 1; i <= o->maxiter; i++) {
        sammon_gradient(N, n, m, x, y, c, g, h);
        memcpy(yold, y, len * sizeof *y);
        /* s = -g/|H|, halved until the stress drops (at most maxhalves tries). */
        double mf = 1.0;
        for (int j = 1; j <= o->maxhalves; j++) {
            newton_from(len, yold, g, h, mf, y);
            e_new = sammon_stress(N, n, m, x, y, c);
            if (e_new < e)
                break;
            mf *= 0.5;
        }
        if (fabs((e - e_new) / e) < o->tolfun) {
            iters = i;
            break;
        }
        e = e_new;
        if (o->trace)
            o->trace(i, e, o->arg);
    }
    /* y is the last step tried, as sammon.m leaves it. */
    *stress = e_new;
out_free:
    free(yold);
    free(h);
    free(g);
    return iters;
}
