/* SPDX-License-Identifier: MIT */
/* The fp64 drivers against the peers' published iris figures (notes section
 * 6, "sklearn/UCI-corrected data, 149 unique"), on the shipped
 * datasets/iris.csv (that variant: datasets/README.md):
 *  - the duplicates of the raw 150 rows are exactly data rows 102 and 143;
 *  - Cawley's sammon.m from the uncentred PCA start: 93 iterations, textbook
 *    E = 0.0039598 (it prints E/2 = 0.0019799);
 *  - R MASS's sammon from cmdscale (the centred PCA, which classical MDS of
 *    Euclidean distances is): E = 0.0040151, stopping in iteration 13, whose
 *    four trial steps are all rejected (magic 0.5 -> 0.0008 < 1e-3), so 12
 *    iterations are accepted and MASS's trace prints "after 12 iters";
 *  - Sammon's pseudo-Newton step lowers the stress for a small factor; at
 *    mf = 0.3 its first step raises it, and the next 30 lower it.
 * Stresses are compared to the 5 digits published (half a unit of the last). */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "datasets/dataset.h"
#include "impl/sammon/sammon.h"
#include "t/tap.h"

struct trace_log {
    int calls, last;
};

static void count_trace(int iter, double stress, void *arg)
{
    struct trace_log *log = arg;
    (void)stress;
    log->calls++;
    log->last = iter;
}

static void centre(int N, int n, const double *x, double *xc)
{
    for (int q = 0; q < n; q++) {
        double mean = 0.0;
        for (int p = 0; p < N; p++)
            mean += x[(size_t)p * n + q];
        for (int p = 0; p < N; p++)
            xc[(size_t)p * n + q] = x[(size_t)p * n + q] - mean / N;
    }
}

static void check_duplicates(const struct rb_dataset *d)
{
    int i, j, pairs = 0, pi = -1, pj = -1;
    for (int a = 0; a < d->N; a++)
        for (int b = a + 1; b < d->N; b++)
            if (memcmp(d->x + (size_t)a * d->n, d->x + (size_t)b * d->n,
                       (size_t)d->n * sizeof *d->x) == 0) {
                pairs++;
                pi = a;
                pj = b;
            }
    tap_ok(pairs == 1 && pi == 101 && pj == 142, "raw iris: one equal pair, data rows %d and %d",
           pi + 1, pj + 1);
    tap_ok(sammon_find_duplicate(d->N, d->n, d->x, &i, &j) && i == 101 && j == 142,
           "sammon_find_duplicate names rows 102 and 143");
}

int main(void)
{
    struct rb_dataset d;
    char err[512];
    if (rb_dataset_load("iris", &d, err, sizeof err) != 0)
        tap_skip_all("%s", err);
    tap_plan(12);
    tap_diag("%s: %d rows x %d (no random data in this test)", d.path, d.N, d.n);
    tap_ok(d.N == 150 && d.n == 4 && d.label[0] == 0 && d.label[149] == 2,
           "150 rows of 4 numbers and a label");
    check_duplicates(&d);
    int keep[150], N = sammon_dedup(d.N, d.n, d.x, keep), n = d.n, m = 2;
    tap_ok(N == 149 && keep[141] == 141 && keep[142] == 143, "dedup: 149 rows, row 143 dropped");

    double *y = malloc((size_t)N * m * sizeof *y), *y12 = malloc((size_t)N * m * sizeof *y12);
    double *xc = malloc((size_t)N * n * sizeof *xc), e, e12;
    struct trace_log log = { 0, 0 };
    struct sammon_cawley_opts co = { .maxiter = 500, .maxhalves = 20, .tolfun = 1e-9 };
    sammon_init_pca(N, n, m, d.x, y);
    int it = sammon_run_cawley(N, n, m, d.x, y, &co, &e);
    tap_is(it, 93, "Cawley from the uncentred PCA: 93 iterations");
    tap_near(e, 0.0039598, 5e-8, "Cawley: textbook E = 0.0039598 (sammon.m prints 0.0019799)");

    struct sammon_mass_opts mo = { .niter = 100, .magic = 0.2, .tol = 1e-4,
                                   .trace = count_trace, .arg = &log };
    centre(N, n, d.x, xc);
    sammon_init_pca(N, n, m, xc, y);
    memcpy(y12, y, (size_t)N * m * sizeof *y);
    it = sammon_run_mass(N, n, m, d.x, y, &mo, &e);
    tap_near(e, 0.0040151, 5e-8, "MASS from cmdscale: E = 0.0040151");
    tap_ok(it == 12 && log.calls == 12 && log.last == 12,
           "MASS: 12 iterations accepted, stopping in iteration 13 (returned %d, traced %d)",
           it, log.calls);
    /* Iteration 13 moved nothing: 12 iterations alone give the same map. */
    mo.niter = 12;
    mo.trace = NULL;
    sammon_run_mass(N, n, m, d.x, y12, &mo, &e12);
    double diff = 0.0;
    for (size_t k = 0; k < (size_t)N * m; k++)
        diff = fmax(diff, fabs(y[k] - y12[k]));
    tap_ok(diff == 0.0 && e12 == e, "MASS: niter = 12 gives the identical map and stress");

    /* Pseudo-Newton from the uncentred PCA start.  -g/|h| is a descent
     * direction, but a coordinate with |h| near 0 takes a huge step: at
     * mf = 0.3 the first step raises E (0.0067 to 0.062 here), which is why
     * MASS adapts its factor and Cawley halves; from then on it falls. */
    double c = sammon_input_scale(N, n, d.x), e0, e1, prev;
    sammon_init_pca(N, n, m, d.x, y);
    e0 = sammon_stress(N, n, m, d.x, y, c);
    sammon_step_newton(N, n, m, d.x, y, c, 1e-3, y12);
    tap_ok(sammon_stress(N, n, m, d.x, y12, c) < e0, "pseudo-Newton, mf = 1e-3: E falls");
    sammon_step_newton(N, n, m, d.x, y, c, SAMMON_MAGIC, y12);
    memcpy(y, y12, (size_t)N * m * sizeof *y);
    prev = e1 = sammon_stress(N, n, m, d.x, y, c);
    int down = 1;
    for (int k = 0; k < 30 && down; k++) {
        sammon_step_newton(N, n, m, d.x, y, c, SAMMON_MAGIC, y12);
        memcpy(y, y12, (size_t)N * m * sizeof *y);
        e = sammon_stress(N, n, m, d.x, y, c);
        down = e < prev;
        prev = e;
    }
    tap_ok(e1 > e0 && down && prev < e0, "pseudo-Newton, mf = 0.3: E %.7f, %.7f after the "
           "first step, then falling at each of 30 steps to %.7f", e0, e1, prev);

    struct trace_log clog = { 0, 0 };
    co.trace = count_trace;
    co.arg = &clog;
    sammon_init_pca(N, n, m, d.x, y);
    it = sammon_run_cawley(N, n, m, d.x, y, &co, &e);
    tap_ok(clog.calls == it - 1, "Cawley traces each accepted iteration (%d of %d)", clog.calls,
           it);
    free(xc);
    free(y12);
    free(y);
    rb_dataset_free(&d);
    return tap_done();
}
