/* SPDX-License-Identifier: MIT */
/* The update rules' drivers over any evaluator of the stress and its
 * derivatives (struct sammon_eval): R MASS's VR_sammon (adaptive magic,
 * centroid re-centring, a tolerance check every 10 iterations), Cawley and
 * Talbot's sammon.m (step halving, relative TolFun), and the fixed-step
 * rules (Sammon's pseudo-Newton, plain GD) with a relative-change stop
 * (notes section 2.1).  All compute the textbook stress; the peers' own
 * scalings (MASS: E, Cawley: E/2) are constant factors that change no
 * decision.  With a fused evaluator (one pass gives the stress and the
 * derivatives) each accepted trial's derivatives are kept for the next
 * step; otherwise they are asked for separately, as the fp64 reference has
 * always computed them.  A stress that is not finite ends every driver. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "harness/error.h"
#include "impl/sammon/sammon.h"

/* y - mf g / |h|, the diagonal Newton step for any factor mf; over the
 * host's cores for large maps, where a device waits for it. */
static void newton_from(size_t len, const double *y, const double *g, const double *h,
                        double mf, double *out)
{
#pragma omp parallel for schedule(static) if (len >= 16384)
    for (size_t k = 0; k < len; k++)
        out[k] = y[k] - (h[k] != 0.0 ? mf * g[k] / fabs(h[k]) : 0.0);
}

/* The derivatives at y, unless `have` says they are there already. */
static int derivatives(const struct sammon_eval *ev, const double *y, double *g, double *h,
                       int have)
{
    return have ? 0 : ev->fn(ev->arg, y, NULL, g, h);
}

/* The stress at y, and with a fused evaluator the derivatives into g, h. */
static int trial(const struct sammon_eval *ev, const double *y, double *e, double *g,
                 double *h)
{
    return ev->fn(ev->arg, y, e, ev->fused ? g : NULL, ev->fused ? h : NULL);
}

struct work {
    double *g, *h, *g2, *h2, *y2;
};

static int work_alloc(struct work *w, size_t len)
{
    w->g = malloc(len * sizeof *w->g);
    w->h = malloc(len * sizeof *w->h);
    w->g2 = malloc(len * sizeof *w->g2);
    w->h2 = malloc(len * sizeof *w->h2);
    w->y2 = malloc(len * sizeof *w->y2);
    return w->g && w->h && w->g2 && w->h2 && w->y2 ? 0 : RB_ENOMEM;
}

static void work_free(struct work *w)
{
    free(w->y2);
    free(w->h2);
    free(w->g2);
    free(w->h);
    free(w->g);
}

static void swap(double **a, double **b)
{
    double *t = *a;
    *a = *b;
    *b = t;
}

int sammon_run_mass_with(int N, int m, const struct sammon_eval *ev, double *y,
                         const struct sammon_mass_opts *o, double *stress)
{
    size_t len = (size_t)N * m;
    struct work w;
    int iters = o->niter, rc, have = 0;
    double magic = o->magic, e = 0.0;
    if ((rc = work_alloc(&w, len)) || (rc = trial(ev, y, &e, w.g, w.h))) {
        iters = rc;
        goto out_free;
    }
    have = ev->fused;
    double eprev = e, epast = e;
    for (int i = 1; i <= o->niter && isfinite(e); i++) {
        /* The trial steps of one iteration all start from y: one gradient. */
        if ((rc = derivatives(ev, y, w.g, w.h, have))) {
            iters = rc;
            goto out_free;
        }
        for (;;) {
            newton_from(len, y, w.g, w.h, magic, w.y2);
            if ((rc = trial(ev, w.y2, &e, w.g2, w.h2))) {
                iters = rc;
                goto out_free;
            }
            if (e <= eprev || !isfinite(e))
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
        /* The centroid's shift below changes no distance, so the trial's
         * derivatives are y's. */
        swap(&w.g, &w.g2);
        swap(&w.h, &w.h2);
        have = ev->fused;
        magic = fmin(magic * 1.5, 0.5);
        eprev = e;
        if (o->trace)
            o->trace(i, e, o->arg);
        for (int q = 0; q < m; q++) {
            double mean = 0.0;
            for (int p = 0; p < N; p++)
                mean += w.y2[(size_t)p * m + q];
            mean /= N;
            for (int p = 0; p < N; p++)
                y[(size_t)p * m + q] = w.y2[(size_t)p * m + q] - mean;
        }
        if (!isfinite(e)) {
            iters = i;
            break;
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
    work_free(&w);
    return iters;
}

int sammon_run_cawley_with(int N, int m, const struct sammon_eval *ev, double *y,
                           const struct sammon_cawley_opts *o, double *stress)
{
    size_t len = (size_t)N * m;
    struct work w;
    int iters = o->maxiter, rc, have = 0;
    double e = 0.0, e_new = 0.0;
    if ((rc = work_alloc(&w, len)) || (rc = trial(ev, y, &e, w.g, w.h))) {
        iters = rc;
        goto out_free;
    }
    have = ev->fused;
    e_new = e;
    for (int i = 1; i <= o->maxiter; i++) {
        if (!isfinite(e)) {
            iters = i - 1;
            break;
        }
        if ((rc = derivatives(ev, y, w.g, w.h, have))) {
            iters = rc;
            goto out_free;
        }
        memcpy(w.y2, y, len * sizeof *y);
        /* s = -g/|H|, halved until the stress drops (at most maxhalves tries). */
        double mf = 1.0;
        for (int j = 1; j <= o->maxhalves; j++) {
            newton_from(len, w.y2, w.g, w.h, mf, y);
            if ((rc = trial(ev, y, &e_new, w.g2, w.h2))) {
                iters = rc;
                goto out_free;
            }
            if (e_new < e || !isfinite(e_new))
                break;
            mf *= 0.5;
        }
        /* The last trial is where y now is: its derivatives are y's. */
        swap(&w.g, &w.g2);
        swap(&w.h, &w.h2);
        have = ev->fused;
        if (!isfinite(e_new) || fabs((e - e_new) / e) < o->tolfun) {
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
    work_free(&w);
    return iters;
}

/* One step of a fixed rule from y, whose derivatives are in w when `have`
 * says so, and the new map's stress in *e_new (with its derivatives in w
 * when `more`); through the evaluator's own step where it keeps the map,
 * told the `left` steps that may follow this one. */
static int fixed_step(const struct sammon_eval *ev, const struct sammon_fixed_opts *o,
                      double alpha, size_t len, double *y, struct work *w, int have, int more,
                      int left, double *e_new)
{
    if (ev->resident)
        return ev->resident->step(ev->arg, o->newton, o->mf, alpha, left, e_new);
    int rc = derivatives(ev, y, w->g, o->newton ? w->h : NULL, have);
    if (rc)
        return rc;
    if (o->newton)
        newton_from(len, y, w->g, w->h, o->mf, y);
    else
#pragma omp parallel for schedule(static) if (len >= 16384)
        for (size_t k = 0; k < len; k++)
            y[k] -= alpha * w->g[k];
    return ev->fn(ev->arg, y, e_new, more ? w->g : NULL, more ? w->h : NULL);
}

int sammon_run_fixed_with(int N, int m, const struct sammon_eval *ev, double *y,
                          const struct sammon_fixed_opts *o, double *stress)
{
    size_t len = (size_t)N * m;
    struct work w;
    int it = 0, rc, have;
    double e = 0.0, alpha = sammon_gd_alpha(N, ev->c, o->lambda);
    if ((rc = work_alloc(&w, len))
        || (rc = ev->resident ? ev->resident->load(ev->arg, y, &e)
                              : trial(ev, y, &e, w.g, w.h))) {
        it = rc;
        goto out_free;
    }
    have = ev->fused;
    while (it < o->iters && isfinite(e)) {
        double e_new;
        /* The last step's derivatives would not be used. */
        const int more = it + 1 < o->iters && ev->fused;
        if ((rc = fixed_step(ev, o, alpha, len, y, &w, have, more, more ? o->iters - it - 1 : 0,
                             &e_new))) {
            it = rc;
            goto out_free;
        }
        have = more;
        double change = (e - e_new) / e;
        it++;
        if (o->trace)
            o->trace(it, e_new, o->arg);
        e = e_new;
        if (change < o->tol && change > -o->tol)
            break;
    }
    *stress = e;
    if (ev->resident && (rc = ev->resident->fetch(ev->arg, y)))
        it = rc;
out_free:
    work_free(&w);
    return it;
}

/* The fp64 reference as an evaluator: x and c of the data. */
struct ref_eval {
    int N, n, m;
    const double *x;
    double c;
};

static int ref_fn(void *arg, const double *y, double *stress, double *g, double *h)
{
    const struct ref_eval *r = arg;
    if (stress)
        *stress = sammon_stress(r->N, r->n, r->m, r->x, y, r->c);
    if (g)
        sammon_gradient(r->N, r->n, r->m, r->x, y, r->c, g, h);
    return 0;
}

int sammon_run_mass(int N, int n, int m, const double *x, double *y,
                    const struct sammon_mass_opts *o, double *stress)
{
    struct ref_eval r = { N, n, m, x, sammon_input_scale(N, n, x) };
    struct sammon_eval ev = { .fn = ref_fn, .arg = &r, .c = r.c, .fused = 0 };
    return sammon_run_mass_with(N, m, &ev, y, o, stress);
}

int sammon_run_cawley(int N, int n, int m, const double *x, double *y,
                      const struct sammon_cawley_opts *o, double *stress)
{
    struct ref_eval r = { N, n, m, x, sammon_input_scale(N, n, x) };
    struct sammon_eval ev = { .fn = ref_fn, .arg = &r, .c = r.c, .fused = 0 };
    return sammon_run_cawley_with(N, m, &ev, y, o, stress);
}
