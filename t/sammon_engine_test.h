/* SPDX-License-Identifier: MIT */
/* The device embedding engines against the fp64 one (t/sammon_engine_opencl.c,
 * _cuda.c, _hip.c define ENGINE_OPS first), on iris, digits and generated
 * points (uniform in [0, 255]^16):
 *  - one evaluation at a map: the stress, gradient and second derivative
 *    against fp64 within the float pass's rounding bound (the one
 *    t/sammon_stored_host derives, in the caller's units);
 *  - plain GD for a fixed number of iterations from the same start: the
 *    final stress within what the map's deviation can change it by, the
 *    deviation bounded by the rounding budget the harness verifies GD cases
 *    with (sammon_check.c: K u budget per coordinate), so
 *        |dE| <= sum |g| delta + sum |h| delta^2 / 2 + the evaluation's;
 *  - the rules that converge to one minimum from both runs (newton, cawley
 *    and mass on iris; cawley on generated points of a plane) run to their stop:
 *    both end near that local minimum, where E is stationary, so their
 *    stresses differ by
 *      - what each run had left to descend when its stop rule fired: its
 *        last decrease times rho / (1 - rho), rho the rate of the fp64
 *        run's last decreases (from its trace, at most 0.9999), and for
 *        the float run also its evaluation's bound times the same, since it
 *        cannot see a decrease below that and stops there,
 *      - the float run's floor: it stalls where its rounding bound eps_g
 *        hides the true gradient, sum eps_g^2 / (2 |h|) above the minimum
 *        (the diagonal model the rules themselves use),
 *      - and the evaluation's rounding;
 *    or, where the float run went on past the fp64 run's stop, its map is
 *    at least as good: its stress in fp64 at most the fp64 run's plus that
 *    allowance, and the stress it reported its own in fp64 within its
 *    evaluation's bound there;
 *  - the recomputing form at both tiles and the stored one at 128, one
 *    evaluation each as above;
 *  - the map kept on the device against the map kept by the driver, GD
 *    on one engine both ways (resident_check), also from a start where
 *    two outputs coincide (coinciding_check);
 *  - rows distinct in double but equal in float are refused, named.
 * On uniform points the runs to convergence are no test: their trajectories
 * part at rounding level and, the stress surface being rugged there, end in
 * different minima (cawley: 0.1426 and 0.1412 at N = 300 in one seed); and
 * newton from the pca start diverges there on every backend (the fixed
 * factor 0.3 overshoots where h is small), so it is compared on iris. */
#ifndef SAMMON_ENGINE_TEST_H
#define SAMMON_ENGINE_TEST_H

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "datasets/dataset.h"
#include "harness/ctx.h"
#include "harness/error.h"
#include "impl/common/rng.h"
#include "impl/sammon/sammon_check.h"
#include "impl/sammon/sammon_engine.h"
#include "t/tap.h"

#define U_F 0x1.0p-24

/* Per coordinate (N x m): the float pass's bound on g and h; and the
 * stress's; from the fp64 pair terms at y, to first order in u.  On top of
 * t/sammon_stored_host.cc's derivation (from float inputs) the engine
 * rounds x and y to float, so a difference of two coordinates carries
 * u (|a| + |b|): d* gets the relative error ex u, ex = n/2 + 3 +
 * sum_k (|x_ik| + |x_jk|) |dx_k| / d*^2, and d likewise ey u; then
 *    w = 1/d - 1/d*:  (ey + 1) u / d + (ex + 1) u / d*,
 *    w dy_q:          |dw| |dy_q| + |w| (|y_iq| + |y_jq|) u + u |w dy_q|,
 *    1/d (B):         (ey + 1) u / d,
 *    dy_q^2 / d^3:    (2 (|y_iq| + |y_jq|) |dy_q| + (3 ey + 5) dy_q^2) u / d^3,
 * h_q taking those of A, B and every C; each point's float sums add
 * lambda sqrt(N) u times the sum of the terms' magnitudes (lambda = 4);
 * the stress term s^2 d*, s = 1 - d / d*, has 2 |d* - d| (d / d*)
 * (ex + ey + 2) u + (ex + 2) u term, summed in double, and c's float sum
 * (ex + 1) u d* per pair and R^2 u c over a thread's pairs.  CUDA's and
 * HIP's pass with the derivatives sums the stress expanded (the same
 * function of the same d* and d, so the same errors), with roundings of
 * its own: (R^2 + 2) u (d^2 / d* + 2 d) + u d* a pair
 * (t/sammon_stored_host.cc).  Each bound is doubled. */
struct bounds {
    double *tg, *th, stress;
};

static double rounding(const double *a, const double *b, int k, double dist2)
{
    double s = 0.0;
    for (int q = 0; q < k; q++)
        s += (fabs(a[q]) + fabs(b[q])) * fabs(a[q] - b[q]);
    return dist2 > 0 ? s / dist2 : 0.0;
}

/* Whether the backend's pass with the derivatives sums the expanded
 * stress. */
static int expanded_stress(const struct sammon_engine_ops *ops)
{
    return strcmp(ops->name, "cuda") == 0 || strcmp(ops->name, "hip") == 0;
}

static void bounds_at(int N, int n, int m, const double *x, const double *y, double c,
                      int tile, int expanded, struct bounds *b)
{
    const double u = U_F, lam = 4.0 * sqrt((double)N), R = tile / 16.0;
    b->tg = calloc((size_t)N * m, sizeof *b->tg);
    b->th = calloc((size_t)N * m, sizeof *b->th);
    double st = 0.0, cb = 0.0, e = 0.0, xs = 0.0;
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++) {
            const double *xi = x + (size_t)i * n, *xj = x + (size_t)j * n;
            const double *yi = y + (size_t)i * m, *yj = y + (size_t)j * m;
            double ds2 = 0, d2 = 0, dy[3];
            if (i == j)
                continue;
            for (int k = 0; k < n; k++)
                ds2 += (xi[k] - xj[k]) * (xi[k] - xj[k]);
            for (int q = 0; q < m; q++) {
                dy[q] = yi[q] - yj[q];
                d2 += dy[q] * dy[q];
            }
            const double ds = sqrt(ds2), d = sqrt(d2);
            const double ex = n / 2.0 + 3.0 + rounding(xi, xj, n, ds2);
            const double ey = m / 2.0 + 3.0 + rounding(yi, yj, m, d2);
            if (j > i) {
                const double term = (ds - d) * (ds - d) / ds;
                st += 2.0 * fabs(ds - d) * d / ds * (ex + ey + 2.0) + (ex + 2.0) * term;
                cb += (ex + 1.0) * ds;
                e += term;
                xs += (R * R + 2.0) * (d * d / ds + 2.0 * d) + ds;
            }
            if (d == 0.0)
                continue;
            const double w = 1.0 / d - 1.0 / ds, cube = 1.0 / (d2 * d);
            const double dw = (ey + 1.0) / d + (ex + 1.0) / ds;
            double hs = dw + (ey + 1.0) / d + lam * (fabs(w) + 1.0 / d), cs = 0.0;
            for (int q = 0; q < m; q++) {
                const double ay = fabs(yi[q]) + fabs(yj[q]);
                cs += (2.0 * ay * fabs(dy[q]) + (3.0 * ey + 5.0) * dy[q] * dy[q]) * cube
                      + lam * dy[q] * dy[q] * cube;
            }
            for (int q = 0; q < m; q++) {
                const double ay = fabs(yi[q]) + fabs(yj[q]);
                b->tg[(size_t)i * m + q] += dw * fabs(dy[q]) + fabs(w) * ay
                                            + (1.0 + lam) * fabs(w * dy[q]);
                b->th[(size_t)i * m + q] += hs + cs;
            }
        }
    for (size_t k = 0; k < (size_t)N * m; k++) {
        b->tg[k] *= 2.0 * u * 2.0 / c;
        b->th[k] *= 2.0 * u * 2.0 / c;
    }
    b->stress = 2.0 * u * (st + (cb + R * R * c) * e / c + (expanded ? xs : 0.0)) / c;
}

static void bounds_free(struct bounds *b)
{
    free(b->tg);
    free(b->th);
}

struct data {
    const char *what;
    struct rb_dataset d;
    double *y0;                 /* the pca start */
};

static int data_load(struct data *s, const char *name)
{
    char err[256];
    memset(s, 0, sizeof *s);
    s->what = name;
    if (strcmp(name, "generated") == 0 || strcmp(name, "plane") == 0) {
        /* Uniform in [0, 255]^16 (the paper's set-up), or near a plane
         * through it: uniform points of a square, mapped linearly, moved
         * off it at random (one minimum near the pca start, which both
         * runs find). */
        const int blobs = strcmp(name, "plane") == 0;
        struct rb_rng r;
        double centre[2][16];
        s->d.N = 300;
        s->d.n = 16;
        s->d.x = malloc((size_t)s->d.N * s->d.n * sizeof *s->d.x);
        s->d.label = calloc((size_t)s->d.N, sizeof *s->d.label);
        rb_rng_seed(&r, tap_seed() + (uint64_t)blobs);
        for (int k = 0; k < 2; k++)
            for (int q = 0; q < 16; q++)
                centre[k][q] = rb_rng_uniform(&r) - 0.5;
        for (int p = 0; p < s->d.N; p++) {
            double u1 = rb_rng_uniform(&r) * 255.0, u2 = rb_rng_uniform(&r) * 255.0;
            for (int q = 0; q < 16; q++) {
                /* Off the plane by up to 20 in each coordinate. */
                double off = 40.0 * (rb_rng_uniform(&r) - 0.5);
                s->d.x[(size_t)p * 16 + q] = blobs ? centre[0][q] * u1 + centre[1][q] * u2 + off
                                                   : rb_rng_uniform(&r) * 255.0;
            }
        }
    } else if (rb_dataset_load(name, &s->d, err, sizeof err) != 0) {
        tap_diag("%s: %s", name, err);
        return -1;
    }
    s->d.N = sammon_dedup(s->d.N, s->d.n, s->d.x, NULL);
    s->y0 = malloc((size_t)s->d.N * 2 * sizeof *s->y0);
    return s->y0 && sammon_init_pca(s->d.N, s->d.n, 2, s->d.x, s->y0) == 0 ? 0 : -1;
}

/* A random map about the data's scale, some outputs coincident. */
static void eval_check(const struct sammon_engine_ops *ops, struct rb_ctx *ctx, struct data *s)
{
    const int N = s->d.N, n = s->d.n, m = 2;
    struct sammon_engine e, f;
    double *y = malloc((size_t)N * m * sizeof *y), *g = malloc((size_t)N * m * sizeof *g);
    double *h = malloc((size_t)N * m * sizeof *h), *gr = malloc((size_t)N * m * sizeof *gr);
    double *hr = malloc((size_t)N * m * sizeof *hr), st = NAN, sr = NAN;
    int rc = sammon_engine_open(&e, ops, ctx, N, n, m, NULL, s->d.x);
    int rr = sammon_engine_open(&f, &sammon_engine_serial, ctx, N, n, m, NULL, s->d.x);
    memcpy(y, s->y0, (size_t)N * m * sizeof *y);
    for (int q = 0; q < m; q++)
        y[m + q] = y[q];
    if (rc == 0)
        rc = sammon_engine_eval(&e, y, &st, g, h);
    if (rr == 0)
        rr = sammon_engine_eval(&f, y, &sr, gr, hr);
    struct bounds b;
    bounds_at(N, n, m, s->d.x, y, f.c, 64, expanded_stress(ops), &b);
    double wg = 0, wh = 0;
    for (size_t k = 0; rc == 0 && k < (size_t)N * m; k++) {
        wg = tap_worst(wg, fabs(g[k] - gr[k]) / b.tg[k]);
        wh = tap_worst(wh, fabs(h[k] - hr[k]) / b.th[k]);
    }
    if (!tap_ok(rc == 0 && rr == 0 && fabs(st - sr) <= b.stress && wg <= 1 && wh <= 1,
                "%s %s: one evaluation (%s): stress %.10g vs %.10g (<= %.2g), g and h within "
                "%.3g and %.3g of their bounds", ops->name, s->what, e.form, st, sr, b.stress,
                wg, wh))
        tap_diag("rc %d: %s", rc, e.msg);
    bounds_free(&b);
    sammon_engine_close(&e);
    sammon_engine_close(&f);
    free(hr);
    free(gr);
    free(h);
    free(g);
    free(y);
}

/* A trace of the stresses a run accepted. */
struct trace_log {
    int n;
    double e[4096];
};

static void log_trace(int iter, double stress, void *arg)
{
    struct trace_log *t = arg;
    (void)iter;
    if (t->n < 4096)
        t->e[t->n++] = stress;
}

/* The rate rho of a run's last 20 decreases (their mean ratio, at most
 * 0.9999), and its last decrease. */
static double rate(const struct trace_log *t)
{
    double sum = 0;
    int k = 0;
    for (int i = t->n - 1; i >= 2 && k < 20; i--, k++) {
        double a = fabs(t->e[i - 2] - t->e[i - 1]), b = fabs(t->e[i - 1] - t->e[i]);
        sum += a > 0 ? fmin(b / a, 0.9999) : 0.0;
    }
    return k ? fmin(sum / k, 0.9999) : 0.9999;
}

static double last_decrease(const struct trace_log *t)
{
    return t->n >= 2 ? fabs(t->e[t->n - 2] - t->e[t->n - 1]) : 0.0;
}

enum rule { NEWTON, GD, MASS, CAWLEY };
static const char *const rule_names[] = { "newton", "gd", "mass", "cawley" };

static int run_rule(struct sammon_engine *e, enum rule r, int iters, double *y,
                    struct trace_log *t, double *stress)
{
    struct sammon_eval ev = sammon_engine_evaluator(e);
    t->n = 0;
    if (r == MASS) {
        struct sammon_mass_opts o = { iters, 0.2, 1e-4, log_trace, t };
        return sammon_run_mass_with(e->N, e->m, &ev, y, &o, stress);
    }
    if (r == CAWLEY) {
        struct sammon_cawley_opts o = { iters, 20, 1e-9, log_trace, t };
        return sammon_run_cawley_with(e->N, e->m, &ev, y, &o, stress);
    }
    struct sammon_fixed_opts o = { iters, r == NEWTON, SAMMON_MAGIC, SAMMON_GD_LAMBDA,
                                   r == GD ? 0.0 : 1e-9, log_trace, t };
    return sammon_run_fixed_with(e->N, e->m, &ev, y, &o, stress);
}

/* Both engines run rule r from the pca start; compare the final stresses. */
static void rule_check(const struct sammon_engine_ops *ops, struct rb_ctx *ctx, struct data *s,
                       enum rule r, int iters)
{
    const int N = s->d.N, n = s->d.n, m = 2;
    struct sammon_engine e, f;
    struct trace_log *te = calloc(1, sizeof *te), *tf = calloc(1, sizeof *tf);
    double *ye = malloc((size_t)N * m * sizeof *ye), *yf = malloc((size_t)N * m * sizeof *yf);
    double se = NAN, sf = NAN, tol = NAN, st = NAN, tol_st = NAN;
    int stop_ok = 0;
    memcpy(ye, s->y0, (size_t)N * m * sizeof *ye);
    memcpy(yf, s->y0, (size_t)N * m * sizeof *yf);
    int rc = sammon_engine_open(&e, ops, ctx, N, n, m, NULL, s->d.x), ie = -1, jf = -1;
    int rr = sammon_engine_open(&f, &sammon_engine_omp, ctx, N, n, m, NULL, s->d.x);
    if (rc == 0)
        ie = run_rule(&e, r, iters, ye, te, &se);
    if (rr == 0)
        jf = run_rule(&f, r, iters, yf, tf, &sf);
    if (ie >= 0 && jf >= 0) {
        double *g = malloc((size_t)N * m * sizeof *g), *h = malloc((size_t)N * m * sizeof *h);
        struct bounds b;
        sammon_gradient(N, n, m, s->d.x, yf, f.c, g, h);
        bounds_at(N, n, m, s->d.x, yf, f.c, 64, expanded_stress(ops), &b);
        tol = b.stress;
        if (r == GD) {
            /* The harness's verification budget of the same iterations. */
            double *yr = malloc((size_t)N * m * sizeof *yr), budget = 0;
            sammon_check_reference(N, n, m, iters, s->d.x, s->y0, f.c,
                                   sammon_gd_alpha(N, f.c, SAMMON_GD_LAMBDA), yr, &budget);
            const double delta = SAMMON_CHECK_K * U_F * budget;
            for (size_t k = 0; k < (size_t)N * m; k++)
                tol += fabs(g[k]) * delta + 0.5 * fabs(h[k]) * delta * delta;
            free(yr);
        } else {
            /* At rate rho a run stopping after a decrease D has D rho / (1 -
             * rho) left; the float run cannot see a decrease below its
             * evaluation's bound, so it may stop with that much more. */
            const double rho = rate(tf), left = rho / (1.0 - rho);
            tol += last_decrease(tf) * left + (last_decrease(te) + b.stress) * left;
            for (size_t k = 0; k < (size_t)N * m; k++)
                tol += h[k] != 0 ? b.tg[k] * b.tg[k] / (2.0 * fabs(h[k])) : 0.0;
        }
        bounds_free(&b);
        if (r != GD) {
            st = sammon_stress(N, n, m, s->d.x, ye, f.c);
            bounds_at(N, n, m, s->d.x, ye, f.c, 64, expanded_stress(ops), &b);
            tol_st = b.stress;
            if (se > sf) {
                /* A float run that stops earlier stops where its trials can
                 * no longer see a decrease: Newton's predicted decrease at
                 * its map (fp64) within its two evaluations' error.  At
                 * rate rho it is left with that much rho / (1 - rho). */
                double pred = 0.0;
                sammon_gradient(N, n, m, s->d.x, ye, f.c, g, h);
                for (size_t k = 0; k < (size_t)N * m; k++)
                    pred += h[k] != 0 ? g[k] * g[k] / (2.0 * fabs(h[k])) : 0.0;
                const double rho = rate(tf);
                stop_ok = pred <= 2.0 * b.stress
                          && st <= sf + tol + 2.0 * b.stress * rho / (1.0 - rho);
            }
            bounds_free(&b);
        }
        free(h);
        free(g);
    }
    const int further = se < sf && st <= sf + tol && fabs(se - st) <= tol_st;
    const int stopped = stop_ok && fabs(se - st) <= tol_st;
    if (!tap_ok(ie >= 0 && jf >= 0 && (fabs(se - sf) <= tol || further || stopped),
                "%s %s %s: final stress %.10g (%d iterations) vs fp64 %.10g (%d), |d| %.2g <= "
                "%.2g%s", ops->name, s->what, rule_names[r], se, ie, sf, jf, fabs(se - sf), tol,
                further   ? "; or further down: its map's fp64 stress no higher"
                : stopped ? "; or stopped where float sees no decrease, within its rate's rest"
                          : ""))
        tap_diag("rc %d %d: %s", rc, ie, e.msg);
    sammon_engine_close(&e);
    sammon_engine_close(&f);
    free(yf);
    free(ye);
    free(tf);
    free(te);
}

/* The map kept on the device (the engine's resident map) against the map
 * kept by the driver, one engine both ways, GD from the pca start (the
 * newton step's own arithmetic is t/sammon_step_host's).  Both runs take
 * the same float passes over the same float maps, and their steps are the
 * same double operations: the maps agree to the last bit where the passes
 * are deterministic (OpenCL's partial sums) and no device compiler fuses a
 * multiply into the step's subtraction.  Where they are not (CUDA's float
 * atomics), each run lies within the harness's rounding budget of those
 * iterations of the fp64 one (sammon_check.c, the GD check's delta above),
 * so the two within twice that.  With `early` the resident run is stopped
 * by its stress (the tolerance set from a first run's changes, to stop
 * before `iters`) and must end on the map of the step that stopped it,
 * not on one the engine queued after it: the driver's run takes as many
 * steps. */
static void resident_check(const struct sammon_engine_ops *ops, struct rb_ctx *ctx,
                           struct data *s, int iters, int early)
{
    const int N = s->d.N, n = s->d.n, m = 2;
    struct sammon_engine e;
    struct trace_log *t = calloc(1, sizeof *t);
    double *ya = malloc((size_t)N * m * sizeof *ya), *yb = malloc((size_t)N * m * sizeof *yb);
    double *yr = malloc((size_t)N * m * sizeof *yr), sa = NAN, sb = NAN, budget = 0.0;
    double tol = 0.0, worst = NAN;
    int ia = -1, ib = -1, same = 0, rc = sammon_engine_open(&e, ops, ctx, N, n, m, NULL, s->d.x);
    if (rc == 0 && !e.resident) {
        tap_skip("%s %s gd: the device keeps no map (%s has no fp64)", ops->name, s->what,
                 e.device);
        goto out;
    }
    if (rc == 0) {
        const struct sammon_eval ev = sammon_engine_evaluator(&e);
        struct sammon_eval kept_by_driver = ev;
        struct sammon_fixed_opts o = { iters, 0, SAMMON_MAGIC, SAMMON_GD_LAMBDA, 0.0,
                                       log_trace, t };
        kept_by_driver.resident = NULL;
        memcpy(ya, s->y0, (size_t)N * m * sizeof *ya);
        ia = sammon_run_fixed_with(N, m, &ev, ya, &o, &sa);
        if (early && ia == iters && t->n == iters) {
            /* Half again the change of the middle step: crossed by then. */
            const int k = iters / 2;
            tol = o.tol = 1.5 * fabs((t->e[k - 1] - t->e[k]) / t->e[k - 1]);
            memcpy(ya, s->y0, (size_t)N * m * sizeof *ya);
            ia = sammon_run_fixed_with(N, m, &ev, ya, &o, &sa);
        }
        if (ia > 0) {
            o.iters = ia;
            o.tol = 0.0;
            memcpy(yb, s->y0, (size_t)N * m * sizeof *yb);
            ib = sammon_run_fixed_with(N, m, &kept_by_driver, yb, &o, &sb);
            sammon_check_reference(N, n, m, ia, s->d.x, s->y0, e.c,
                                   sammon_gd_alpha(N, e.c, SAMMON_GD_LAMBDA), yr, &budget);
            worst = 0.0;
            same = 1;
            for (size_t k = 0; k < (size_t)N * m; k++) {
                worst = tap_worst(worst, fabs(ya[k] - yb[k]));
                same &= ya[k] == yb[k];
            }
        }
    }
    const double delta = 2.0 * SAMMON_CHECK_K * U_F * budget;
    if (!tap_ok((early ? ia > 0 && ia < iters : ia == iters) && ib == ia && worst <= delta
                    && isfinite(sa),
                "%s %s gd, %d of %d steps%s: the map kept on the device vs by the driver after "
                "as many: %s, |dy| %.3g <= %.3g, stress %.12g vs %.12g", ops->name, s->what, ia,
                iters, early ? ", stopped by its stress" : "",
                same ? "bitwise the same" : "apart", worst, delta, sa, sb))
        tap_diag("rc %d, %d and %d iterations (tolerance %.3g): %s", rc, ia, ib, tol, e.msg);
out:
    sammon_engine_close(&e);
    free(yr);
    free(yb);
    free(ya);
    free(t);
}

/* resident_check from a start where outputs 0 and 1 coincide: the device
 * engines' first pass, which runs without the test for such pairs
 * (sammon_stored.cuh), is run again with it, and both ways go on as the
 * fp64 reference's budget allows. */
static void coinciding_check(const struct sammon_engine_ops *ops, struct rb_ctx *ctx,
                             const struct data *s, int iters)
{
    struct data c = *s;
    c.what = "generated, outputs 0 and 1 at one point";
    if (!(c.y0 = malloc((size_t)s->d.N * 2 * sizeof *c.y0))) {
        tap_ok(0, "%s %s: out of memory", ops->name, c.what);
        return;
    }
    memcpy(c.y0, s->y0, (size_t)s->d.N * 2 * sizeof *c.y0);
    c.y0[2] = c.y0[0];
    c.y0[3] = c.y0[1];
    resident_check(ops, ctx, &c, iters, 0);
    free(c.y0);
}

/* A driver that does not take the step the resident map foresaw: GD steps
 * of alpha, alpha / 2 (another rule: the step queued for alpha is
 * dropped) and alpha / 2 again with no step to follow (another plan: the
 * step queued for two more is dropped), against the same three steps with
 * the map on the host through the engine's evaluation, within the budget
 * of resident_check; and the last step's stress must be the stress-only
 * pass's of its map, bit for bit (a step queued for more would have summed
 * the expanded form). */
static void resident_replan_check(const struct sammon_engine_ops *ops, struct rb_ctx *ctx,
                                  struct data *s)
{
    const int N = s->d.N, n = s->d.n, m = 2, steps = 3, left[] = { 3, 2, 0 };
    struct sammon_engine e;
    double *ya = malloc((size_t)N * m * sizeof *ya), *yb = malloc((size_t)N * m * sizeof *yb);
    double *g = malloc((size_t)N * m * sizeof *g), *yr = malloc((size_t)N * m * sizeof *yr);
    double st = NAN, sa = NAN, sd = NAN, budget = 0.0, worst = NAN, alpha[3];
    int rc = sammon_engine_open(&e, ops, ctx, N, n, m, NULL, s->d.x);
    alpha[0] = rc == 0 ? sammon_gd_alpha(N, e.c, SAMMON_GD_LAMBDA) : 0.0;
    alpha[1] = alpha[2] = alpha[0] / 2;
    if (rc == 0 && !e.resident) {
        tap_skip("%s %s: the device keeps no map (%s has no fp64)", ops->name, s->what,
                 e.device);
        goto out;
    }
    memcpy(ya, s->y0, (size_t)N * m * sizeof *ya);
    memcpy(yb, s->y0, (size_t)N * m * sizeof *yb);
    if (rc == 0)
        rc = e.resident->load(&e, ya, &st);
    for (int k = 0; rc == 0 && k < steps; k++)
        rc = e.resident->step(&e, 0, SAMMON_MAGIC, alpha[k], left[k], &sa);
    if (rc == 0)
        rc = e.resident->fetch(&e, ya);
    for (int k = 0; rc == 0 && k < steps; k++)
        if ((rc = sammon_engine_eval(&e, yb, NULL, g, NULL)) == 0)
            for (size_t q = 0; q < (size_t)N * m; q++)
                yb[q] -= alpha[k] * g[q];
    if (rc == 0)
        rc = sammon_engine_eval(&e, ya, &sd, NULL, NULL);
    if (rc == 0) {
        sammon_check_reference(N, n, m, steps, s->d.x, s->y0, e.c, alpha[0], yr, &budget);
        worst = 0.0;
        for (size_t q = 0; q < (size_t)N * m; q++)
            worst = tap_worst(worst, fabs(ya[q] - yb[q]));
    }
    const double delta = 2.0 * SAMMON_CHECK_K * U_F * budget;
    if (!tap_ok(rc == 0 && worst <= delta && sa == sd, "%s %s gd steps of a, a/2, a/2 that "
                "the device's map did not foresee: its map vs the host's, |dy| %.3g <= %.3g; "
                "last stress %.12g, the stress-only pass's %.12g", ops->name, s->what, worst,
                delta, sa, sd))
        tap_diag("rc %d: %s", rc, e.msg);
out:
    sammon_engine_close(&e);
    free(yr);
    free(g);
    free(yb);
    free(ya);
}

/* Rows 1 and 2 differ by less than float can tell: refused, named. */
static void float_duplicates(const struct sammon_engine_ops *ops, struct rb_ctx *ctx)
{
    const double x[] = { 0, 0, 1, 0, 1 + 1e-12, 0, 0, 1, 2, 2 };
    struct sammon_engine e;
    int rc = sammon_engine_open(&e, ops, ctx, 5, 2, 2, NULL, x);
    tap_ok(rc == RB_EINVAL && strstr(e.msg, "rows 2 and 3"), "%s: rows equal in float are "
           "refused (%s)", ops->name, e.msg);
    sammon_engine_close(&e);
}

/* One evaluation in the form opts asks for, against fp64. */
static void form_check(const struct sammon_engine_ops *ops, struct rb_ctx *ctx, struct data *s,
                       const struct sammon_engine_opts *opts)
{
    const int N = s->d.N, n = s->d.n, m = 2;
    struct sammon_engine e;
    double *g = malloc((size_t)N * m * sizeof *g), *h = malloc((size_t)N * m * sizeof *h);
    double *gr = malloc((size_t)N * m * sizeof *gr), *hr = malloc((size_t)N * m * sizeof *hr);
    double st = NAN, c = sammon_input_scale(N, n, s->d.x);
    double sr = sammon_stress(N, n, m, s->d.x, s->y0, c), wg = 0, wh = 0;
    struct bounds b;
    int rc = sammon_engine_open(&e, ops, ctx, N, n, m, opts, s->d.x);
    if (rc == 0)
        rc = sammon_engine_eval(&e, s->y0, &st, g, h);
    sammon_gradient(N, n, m, s->d.x, s->y0, c, gr, hr);
    bounds_at(N, n, m, s->d.x, s->y0, c, opts->tile, expanded_stress(ops), &b);
    for (size_t k = 0; rc == 0 && k < (size_t)N * m; k++) {
        wg = tap_worst(wg, fabs(g[k] - gr[k]) / b.tg[k]);
        wh = tap_worst(wh, fabs(h[k] - hr[k]) / b.th[k]);
    }
    if (!tap_ok(rc == 0 && fabs(st - sr) <= b.stress && wg <= 1 && wh <= 1, "%s %s: %s: "
                "stress %.10g vs %.10g, g and h within %.3g and %.3g of their bounds",
                ops->name, s->what, e.form, st, sr, wg, wh))
        tap_diag("rc %d: %s", rc, e.msg);
    bounds_free(&b);
    sammon_engine_close(&e);
    free(hr);
    free(gr);
    free(h);
    free(g);
}

#define ENGINE_CHECKS 20

static void engine_test(const struct sammon_engine_ops *ops)
{
    struct rb_ctx ctx;
    char why[512];
    rb_ctx_init(&ctx);
    if (!ops->available(&ctx, 0, why, sizeof why)) {
        /* The inputs' float check comes before any device work, so it and
         * the close after it run without a device too. */
        tap_plan(1);
        tap_diag("%s: the checks on the device skipped", why);
        float_duplicates(ops, &ctx);
        rb_ctx_release(&ctx);
        return;
    }
    tap_plan(ENGINE_CHECKS);
    tap_diag("seed %llu (RB_TEST_SEED=%llu repeats it)", (unsigned long long)tap_seed(),
             (unsigned long long)tap_seed());
    struct data iris, digits, gen, blobs;
    if (data_load(&iris, "iris") || data_load(&digits, "digits") || data_load(&gen, "generated")
        || data_load(&blobs, "plane"))
        tap_diag("a data set did not load");
    eval_check(ops, &ctx, &iris);
    eval_check(ops, &ctx, &digits);
    eval_check(ops, &ctx, &gen);
    rule_check(ops, &ctx, &iris, GD, 100);
    rule_check(ops, &ctx, &digits, GD, 10);
    rule_check(ops, &ctx, &gen, GD, 100);
    rule_check(ops, &ctx, &iris, NEWTON, 2000);
    rule_check(ops, &ctx, &iris, CAWLEY, 2000);
    rule_check(ops, &ctx, &iris, MASS, 100);
    rule_check(ops, &ctx, &blobs, CAWLEY, 2000);
    /* MASS stops every 10 iterations once the stress fell by less than
     * 1e-4 (absolute): where the runs stop 10 iterations apart they differ
     * by about that much, so it is compared on iris alone. */
    rule_check(ops, &ctx, &blobs, GD, 100);
    resident_check(ops, &ctx, &gen, 100, 0);
    resident_check(ops, &ctx, &iris, 100, 0);
    resident_check(ops, &ctx, &iris, 100, 1);
    coinciding_check(ops, &ctx, &gen, 100);
    resident_replan_check(ops, &ctx, &iris);
    float_duplicates(ops, &ctx);
    /* The recomputing form (where the triangle does not fit) at both
     * tiles, and the stored form at 128. */
    static const struct sammon_engine_opts forms[] = { { 64, 1, NULL }, { 128, 1, NULL },
                                                       { 128, 0, NULL } };
    for (int k = 0; k < 3; k++)
        form_check(ops, &ctx, &gen, &forms[k]);
    rb_dataset_free(&iris.d);
    rb_dataset_free(&digits.d);
    rb_dataset_free(&gen.d);
    rb_dataset_free(&blobs.d);
    free(blobs.y0);
    free(iris.y0);
    free(digits.y0);
    free(gen.y0);
    rb_ctx_release(&ctx);
}

#endif
