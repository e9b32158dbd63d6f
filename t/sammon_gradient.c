/* SPDX-License-Identifier: MIT */
/* The fp64 Sammon reference against first principles: gradient and
 * diagonal second derivative against central differences of the stress
 * (notes section 2), the stress against the full double sum, the steps
 * against their formulas, alpha's step bound, the verification's reference
 * against sammon_step_gd, the starts and duplicate handling. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "impl/common/rng.h"
#include "impl/sammon/sammon.h"
#include "impl/sammon/sammon_check.h"
#include "t/tap.h"

static void draw(struct rb_rng *r, double *v, size_t len, double lo, double hi)
{
    for (size_t k = 0; k < len; k++)
        v[k] = rb_rng_range(r, lo, hi);
}

static double min_distance(int N, int m, const double *y)
{
    double best = INFINITY;
    for (int i = 0; i < N; i++)
        for (int j = 0; j < i; j++) {
            double s = 0.0;
            for (int q = 0; q < m; q++)
                s += pow(y[(size_t)i * m + q] - y[(size_t)j * m + q], 2);
            best = fmin(best, sqrt(s));
        }
    return best;
}

/* Max over coordinates of |fd - g|, over max |g| (3 results). */
static void check_derivatives(struct rb_rng *r, int N, int n, int m)
{
    size_t len = (size_t)N * m;
    double *x = malloc((size_t)N * n * sizeof *x), *y = malloc(len * sizeof *y);
    double *g = malloc(len * sizeof *g), *h = malloc(len * sizeof *h);
    draw(r, x, (size_t)N * n, 0.0, 255.0);
    double c = sammon_input_scale(N, n, x), dbar = c / (0.5 * N * (N - 1.0));
    /* Outputs at least dmin = dbar / 20 apart: the stress has terms in
     * 1/d, whose higher derivatives (d^-3, d^-4) set the truncation error
     * of the differences, and for m = 1 a kink at d = 0. */
    do
        draw(r, y, len, 0.0, dbar);
    while (min_distance(N, m, y) < dbar / 20);
    sammon_gradient(N, n, m, x, y, c, g, h);
    /* Truncation (h/dmin)^2 and rounding eps E/h (E/h^2) both stay below
     * 1e-9 (1e-6) relative with these steps. */
    double h1 = 2e-6 * dbar, h2 = 3e-5 * dbar, e0 = sammon_stress(N, n, m, x, y, c);
    double gerr = 0.0, gmax = 0.0, herr = 0.0, hmax = 0.0;
    for (size_t k = 0; k < len; k++) {
        double keep = y[k];
        y[k] = keep + h1;
        double ep1 = sammon_stress(N, n, m, x, y, c);
        y[k] = keep - h1;
        double em1 = sammon_stress(N, n, m, x, y, c);
        y[k] = keep + h2;
        double ep2 = sammon_stress(N, n, m, x, y, c);
        y[k] = keep - h2;
        double em2 = sammon_stress(N, n, m, x, y, c);
        y[k] = keep;
        gerr = tap_worst(gerr, fabs((ep1 - em1) / (2 * h1) - g[k]));
        herr = tap_worst(herr, fabs((ep2 - 2 * e0 + em2) / (h2 * h2) - h[k]));
        gmax = tap_worst(gmax, fabs(g[k]));
        hmax = tap_worst(hmax, fabs(h[k]));
    }
    tap_ok(gerr / gmax <= 1e-8, "N=%d n=%d m=%d: gradient vs central differences: %.2g <= 1e-8",
           N, n, m, gerr / gmax);
    tap_ok(herr / hmax <= 1e-5, "N=%d n=%d m=%d: second derivative vs central differences: "
           "%.2g <= 1e-5", N, n, m, herr / hmax);
    /* E = (1/c) sum_{i<j}, as half the full double sum. */
    double full = 0.0;
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++) {
            if (i == j)
                continue;
            double ds = 0.0, d = 0.0;
            for (int q = 0; q < n; q++)
                ds += pow(x[(size_t)i * n + q] - x[(size_t)j * n + q], 2);
            for (int q = 0; q < m; q++)
                d += pow(y[(size_t)i * m + q] - y[(size_t)j * m + q], 2);
            full += pow(sqrt(ds) - sqrt(d), 2) / sqrt(ds);
        }
    tap_near(e0, full / 2 / c, 1e-13 * e0, "stress equals the direct O(N^2) sum");
    free(h);
    free(g);
    free(y);
    free(x);
}

/* The steps, alpha's bound and the verification's own reference (5 results). */
static void check_steps(struct rb_rng *r, int N, int n, int m)
{
    size_t len = (size_t)N * m;
    double *x = malloc((size_t)N * n * sizeof *x), *y = malloc(len * sizeof *y);
    double *g = malloc(len * sizeof *g), *h = malloc(len * sizeof *h);
    double *out = malloc(len * sizeof *out), *ref = malloc(len * sizeof *ref);
    draw(r, x, (size_t)N * n, 0.0, 255.0);
    double c = sammon_input_scale(N, n, x), dbar = c / (0.5 * N * (N - 1.0));
    double alpha = sammon_gd_alpha(N, c, SAMMON_GD_LAMBDA), worst = 0.0, moved = 0.0;
    draw(r, y, len, 0.0, dbar);
    sammon_gradient(N, n, m, x, y, c, g, h);
    sammon_step_gd(N, n, m, x, y, c, alpha, out);
    for (size_t k = 0; k < len; k++)
        worst = tap_worst(worst, fabs(out[k] - (y[k] - alpha * g[k])));
    tap_ok(worst == 0.0, "N=%d: GD step is y - alpha g", N);
    sammon_step_newton(N, n, m, x, y, c, SAMMON_MAGIC, out);
    worst = 0.0;
    for (size_t k = 0; k < len; k++)
        worst = tap_worst(worst, fabs(out[k] - (y[k] - SAMMON_MAGIC * g[k] / fabs(h[k]))));
    tap_ok(worst == 0.0, "N=%d: pseudo-Newton step is y - mf g/|h|", N);
    /* A contraction of x (d <= d*): every term of a point's gradient has
     * norm <= 2/c, so alpha |g_p| <= lambda dbar. */
    for (int p = 0; p < N; p++)
        for (int q = 0; q < m; q++)
            y[(size_t)p * m + q] = 0.5 * x[(size_t)p * n + q];
    sammon_gradient(N, n, m, x, y, c, g, NULL);
    for (int p = 0; p < N; p++) {
        double s = 0.0;
        for (int q = 0; q < m; q++)
            s += g[(size_t)p * m + q] * g[(size_t)p * m + q];
        moved = tap_worst(moved, alpha * sqrt(s));
    }
    tap_ok(moved <= SAMMON_GD_LAMBDA * dbar && moved >= 0.05 * SAMMON_GD_LAMBDA * dbar,
           "N=%d: largest GD step %.4g is within lambda dbar = %.4g", N, moved,
           SAMMON_GD_LAMBDA * dbar);
    /* sammon_verify's reference: three steps as sammon_step_gd takes them. */
    double budget;
    memcpy(out, y, len * sizeof *y);
    for (int it = 0; it < 3; it++) {
        sammon_step_gd(N, n, m, x, out, c, alpha, g);
        memcpy(out, g, len * sizeof *g);
    }
    sammon_check_reference(N, n, m, 3, x, y, c, alpha, ref, &budget);
    worst = 0.0;
    for (size_t k = 0; k < len; k++)
        worst = tap_worst(worst, fabs(ref[k] - out[k]) / dbar);
    tap_ok(worst <= 1e-13 && budget > 0, "N=%d: verification reference = 3 GD steps (%.2g)",
           N, worst);
    /* The sampled check of one step: its rows are the full reference's,
     * its budget the full one's over those rows (at most the full one). */
    enum { K = 5 };
    const int rows[K] = { 0, 3, N / 2, N - 2, N - 1 };
    double yr[K * 16], budget_rows = -1.0;
    sammon_check_reference(N, n, m, 1, x, y, c, alpha, ref, &budget);
    int rc = sammon_check_rows(N, n, m, x, y, c, alpha, rows, K, yr, &budget_rows);
    worst = 0.0;
    for (int i = 0; i < K; i++)
        for (int q = 0; q < m; q++)
            worst = tap_worst(worst, fabs(yr[i * m + q] - ref[(size_t)rows[i] * m + q]));
    tap_ok(rc == 0 && worst == 0.0 && budget_rows > 0 && budget_rows <= budget,
           "N=%d: one step on %d rows = the full step's rows (%.2g), budget %.3g <= %.3g", N,
           K, worst, budget_rows, budget);
    free(ref);
    free(out);
    free(h);
    free(g);
    free(y);
    free(x);
}

/* Starts and duplicates (5 results). */
static void check_starts(struct rb_rng *r)
{
    enum { N = 40, n = 6, m = 2 };
    double x[N * n], y[N * m], lo = 1e300, hi = -1e300;
    int keep[N], i, j;
    draw(r, x, N * n, 0.0, 255.0);
    sammon_init_random(rb_rng_u64(r), N, m, 7.0, y);
    for (int k = 0; k < N * m; k++) {
        lo = fmin(lo, y[k]);
        hi = tap_worst(hi, y[k]);
    }
    tap_ok(lo >= 0.0 && hi < 7.0 && hi - lo > 5.0, "random start in [0, 7): %.3g..%.3g", lo, hi);
    /* y = X V_m: columns orthogonal (V orthonormal eigenvectors of X^T X). */
    int rc = sammon_init_pca(N, n, m, x, y);
    double c00 = 0, c01 = 0, c11 = 0;
    for (int p = 0; p < N; p++) {
        c00 += y[p * m] * y[p * m];
        c01 += y[p * m] * y[p * m + 1];
        c11 += y[p * m + 1] * y[p * m + 1];
    }
    tap_ok(rc == 0 && fabs(c01) <= 1e-10 * c00 && c00 >= c11 && c11 > 0,
           "PCA start: orthogonal components, variance in decreasing order");
    for (int p = 0; p < N; p++)             /* rank 1: every row a multiple of one */
        for (int q = 0; q < n; q++)
            x[p * n + q] = (p + 1) * (q + 1.0);
    tap_is(sammon_init_pca(N, n, m, x, y), -1, "PCA start refuses rank < m");
    draw(r, x, N * n, 0.0, 255.0);
    memcpy(x + 17 * n, x + 3 * n, n * sizeof *x);
    memcpy(x + 30 * n, x + 3 * n, n * sizeof *x);
    memcpy(x + 25 * n, x + 21 * n, n * sizeof *x);
    tap_ok(sammon_find_duplicate(N, n, x, &i, &j) && i == 3 && j == 17,
           "first duplicate pair is (3, 17)");
    int kept = sammon_dedup(N, n, x, keep);
    tap_ok(kept == N - 3 && keep[17] == 18 && keep[24] == 26 && keep[N - 4] == N - 1
           && !sammon_find_duplicate(kept, n, x, &i, &j), "dedup keeps %d rows, first of each",
           kept);
}

int main(void)
{
    uint64_t seed = tap_seed();
    struct rb_rng r;
    rb_rng_seed(&r, seed);
    tap_plan(3 * 3 + 5 * 2 + 5);
    tap_diag("seed %llu (RB_TEST_SEED=%llu repeats it)", (unsigned long long)seed,
             (unsigned long long)seed);
    check_derivatives(&r, 7, 5, 2);
    check_derivatives(&r, 11, 3, 3);
    check_derivatives(&r, 9, 8, 1);
    check_steps(&r, 50, 7, 2);
    check_steps(&r, 33, 4, 3);
    check_starts(&r);
    return tap_done();
}
