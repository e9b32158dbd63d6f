/* SPDX-License-Identifier: MIT */
/* Every registered variant counts its work, and the counts are the closed
 * forms of impl/givens/givens_case.c and impl/sammon/sammon_case.c, here
 * recounted term by term over the pairs a case touches. */
#include <math.h>
#include <string.h>
#include "harness/registry.h"
#include "t/tap.h"

/* Rotations of a Givens case: the pairs i < j < n with i < m (m 0: all). */
static double givens_rotations(int n, int m)
{
    double r = 0;
    for (int i = 0; i < n; i++)
        for (int j = i + 1; j < n; j++)
            r += m <= 0 || i < m;
    return r;
}

/* Each rotation, per column: 2 multiplies + 2 FMAs = 6 flops; the backward
 * rotates two matrices (12) and adds two FMAs of the dot products (4). */
static void givens_expect(const char *algo, int n, int m, int batch, double sz,
                          double *flops, double *bytes)
{
    int backward = strcmp(algo, "backward") == 0;
    double rot = givens_rotations(n, m), cols = batch > 0 ? batch : n;
    double per = backward ? 6 + 6 + 2 * 2 : 6;

    *flops = 0;
    for (double k = 0; k < rot; k++)
        *flops += per * cols;
    if (batch > 0)     /* theta, X | theta, Y, dY in; Y | dtheta, dX out */
        *bytes = backward ? sz * (rot + 2.0 * n * batch + rot + n * batch)
                          : sz * (rot + n * batch + n * batch);
    else               /* theta in, U out | theta, U, Gamma in, dtheta out */
        *bytes = backward ? sz * (rot + 2.0 * n * n + rot) : sz * (rot + n * n);
}

/* Sammon: the pairs a step evaluates, each costing 3 n (input distance),
 * 3 m (output distance), 2 (square roots), 3 (weight) and 2 m per point it
 * feeds; then 2 m per point for the step itself.  The stored variant reads
 * each unordered pair's 1 / d* (4 bytes) instead of the input distance's
 * 3 n and its square root, and its weight is a reciprocal and a subtract;
 * with precompute 1 each pair's 1 / d* is computed (3 n, a square root
 * and a reciprocal) and written once, from x read once. */
static void sammon_expect(const char *name, int N, int n, int m, int iters, int pre, double sz,
                          double *flops, double *bytes)
{
    int stored = strcmp(name, "stored") == 0;
    int half = stored || strncmp(name, "modified", 8) == 0 || strcmp(name, "tiled-symmetric") == 0;
    double per_iter = 0, pairs = 0;

    for (int p = 0; p < N; p++)
        for (int j = 0; j < N; j++) {
            if (j == p || (half && j > p))
                continue;
            pairs++;
            if (stored)
                per_iter += 3.0 * m + 1 + 2 + 2 * 2.0 * m;
            else
                per_iter += 3.0 * n + 3.0 * m + 2 + 3 + (half ? 2 : 1) * 2.0 * m;
        }
    per_iter += 2.0 * m * N;
    *flops = iters * per_iter;
    if (!stored) {
        *bytes = iters * sz * ((double)N * n + 2.0 * N * m);
        return;
    }
    *bytes = iters * (4.0 * pairs + sz * 2.0 * N * m);
    if (pre) {
        *flops += pairs * (3.0 * n + 1 + 1);
        *bytes += sz * (double)N * n + 4.0 * pairs;
    }
}

static void set(struct rb_case *c, const char *name, long long value)
{
    c->params[c->nparams].name = name;
    c->params[c->nparams++].value = value;
}

static int close_to(double got, double want)
{
    return isfinite(got) && fabs(got - want) <= 1e-12 * fabs(want);
}

/* One case of v; 1 if its counts match. */
static int check(const struct rb_variant *v, enum rb_prec prec, const long long *p)
{
    struct rb_case c;
    double f = NAN, b = NAN, ef, eb, sz = (double)rb_prec_size(prec);
    int batch = 0;

    memset(&c, 0, sizeof c);
    c.v = v;
    c.prec = prec;
    for (const struct rb_axis *a = v->sizes; a->name; a++)
        if (strcmp(a->name, "batch") == 0)
            batch = 1;
    if (strcmp(v->paper, "givens") == 0) {
        set(&c, "n", p[0]);
        set(&c, "m", p[1]);
        if (batch)
            set(&c, "batch", p[2]);
        givens_expect(v->algo, (int)p[0], (int)p[1], batch ? (int)p[2] : 0, sz, &ef, &eb);
    } else {
        set(&c, "points", p[0]);
        set(&c, "dim", p[1]);
        set(&c, "outdim", p[2]);
        set(&c, "iters", p[3]);
        set(&c, "precompute", p[4]);
        sammon_expect(v->name, (int)p[0], (int)p[1], (int)p[2], (int)p[3], (int)p[4], sz, &ef,
                      &eb);
    }
    v->work(&c, &f, &b);
    if (close_to(f, ef) && close_to(b, eb))
        return 1;
    tap_diag("%s/%s/%s %s %s %lld %lld %lld %lld: flops %.17g want %.17g, bytes %.17g "
             "want %.17g", v->paper, v->algo, v->name, rb_backend_name(v->backend),
             rb_prec_name(prec), p[0], p[1], p[2], p[3], f, ef, b, eb);
    return 0;
}

int main(void)
{
    /* n, m, batch: all rows, restricted rows, odd n. */
    static const long long givens[][4] = {
        { 4, 0, 3, 0 }, { 9, 0, 16, 0 }, { 12, 5, 8, 0 }, { 33, 32, 2, 0 }, { 64, 1, 64, 0 },
    };
    /* points, dim, outdim, iters, precompute (the stored variant's). */
    static const long long sammon[][5] = {
        { 4, 3, 2, 1, 0 }, { 17, 1, 3, 2, 0 }, { 64, 16, 2, 1, 1 }, { 2, 5, 1, 7, 1 },
    };
    size_t n = rb_registry_count(), counted = 0, right = 0;

    tap_plan(3);
    for (size_t i = 0; i < n; i++) {
        const struct rb_variant *v = rb_registry_get(i);
        int ok = 1, g = strcmp(v->paper, "givens") == 0;

        if (!g && strcmp(v->paper, "sammon") != 0)
            continue;
        if (!v->work) {
            tap_diag("%s/%s/%s %s has no work count", v->paper, v->algo, v->name,
                     rb_backend_name(v->backend));
            continue;
        }
        counted++;
        for (int prec = RB_PREC_F32; prec <= RB_PREC_F64; prec <<= 1) {
            size_t cases = g ? sizeof givens / sizeof *givens : sizeof sammon / sizeof *sammon;
            for (size_t k = 0; k < cases; k++)
                ok &= check(v, (enum rb_prec)prec, g ? givens[k] : sammon[k]);
        }
        right += ok;
    }
    tap_ok(counted > 0, "%zu Givens and Sammon variants registered", counted);
    size_t total = 0;
    for (size_t i = 0; i < n; i++) {
        const struct rb_variant *v = rb_registry_get(i);
        total += strcmp(v->paper, "givens") == 0 || strcmp(v->paper, "sammon") == 0;
    }
    tap_ok(counted == total, "every one counts its work (%zu of %zu)", counted, total);
    tap_ok(right == counted, "every count matches the term-by-term recount (%zu of %zu)",
           right, counted);
    return tap_done();
}
