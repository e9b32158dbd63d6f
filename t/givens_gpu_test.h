/* SPDX-License-Identifier: MIT */
/* The test driver of the GPU Givens variants (t/givens_cuda.c,
 * t/givens_hip.c): every variant of the backend GIVENS_TEST_BACKEND, which
 * the test defines first, through the harness's life cycle on a device for
 * every size, precision and tunable value a sweep may give it: the poisoned
 * output fails verify, run verifies with a device time, teardown twice;
 * refusals carry a reason; the runtime knows the kernels' occupancy. */
#ifndef GIVENS_GPU_TEST_H
#define GIVENS_GPU_TEST_H

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "harness/ctx.h"
#include "harness/error.h"
#include "harness/registry.h"
#include "t/tap.h"

#define MAX_TUNABLES 2
#define MAX_VALUES 12

/* n = 31 is odd with 16 slots, which 8 and 16 slots per thread divide. */
static const int sizes[][2] = {
    { 2, 0 }, { 3, 0 }, { 6, 0 }, { 7, 0 }, { 31, 0 }, { 33, 0 }, { 64, 0 }, { 130, 0 },
    { 257, 0 }, { 16, 5 }, { 64, 20 },
};
#define NSIZES ((int)(sizeof sizes / sizeof *sizes))
static const enum rb_prec precs[] = { RB_PREC_F32, RB_PREC_F64 };

/* The tunables' values a sweep may give: each axis's deflt, quick and paper
 * lists, every value once. */
struct grid {
    int naxes;
    const char *name[MAX_TUNABLES];
    int count[MAX_TUNABLES];
    long long val[MAX_TUNABLES][MAX_VALUES];
};

static void grid_add(struct grid *g, int a, const long long *list)
{
    for (; list && *list != RB_AXIS_END; list++) {
        int seen = 0;
        for (int k = 0; k < g->count[a]; k++)
            seen |= g->val[a][k] == *list;
        if (!seen && g->count[a] < MAX_VALUES)
            g->val[a][g->count[a]++] = *list;
    }
}

static void grid_make(struct grid *g, const struct rb_variant *v)
{
    memset(g, 0, sizeof *g);
    for (const struct rb_axis *a = v->tunables; a && a->name && g->naxes < MAX_TUNABLES; a++) {
        g->name[g->naxes] = a->name;
        grid_add(g, g->naxes, a->deflt);
        grid_add(g, g->naxes, a->quick);
        grid_add(g, g->naxes, a->paper);
        g->naxes++;
    }
}

/* Combinations of the grid, index 0 .. total - 1. */
static int grid_total(const struct grid *g)
{
    int t = 1;
    for (int a = 0; a < g->naxes; a++)
        t *= g->count[a];
    return t;
}

static void make_case(struct rb_case *c, const struct rb_variant *v, struct rb_ctx *ctx,
                      enum rb_prec prec, int n, int m, const struct grid *g, int combo,
                      uint64_t seed)
{
    memset(c, 0, sizeof *c);
    c->v = v;
    c->ctx = ctx;
    c->prec = prec;
    c->seed = seed;
    c->device_ms = c->transfer_ms = c->build_ms = -1;
    c->params[c->nparams++] = (struct rb_param){ "n", n };
    c->params[c->nparams++] = (struct rb_param){ "m", m };
    if (!strcmp(v->name, "apply"))          /* a partial last slab of columns */
        c->params[c->nparams++] = (struct rb_param){ "batch", 5 + (n & 3) };
    for (int a = 0; a < g->naxes; a++) {
        c->params[c->nparams++] = (struct rb_param){ g->name[a], g->val[a][combo % g->count[a]] };
        combo /= g->count[a];
    }
}

static void case_label(const struct rb_case *c, char *buf, size_t len)
{
    int k = snprintf(buf, len, "%s/%s %s", c->v->algo, c->v->name, rb_prec_name(c->prec));
    for (int p = 0; p < c->nparams && k > 0 && (size_t)k < len; p++)
        k += snprintf(buf + k, len - k, " %s=%lld", c->params[p].name, c->params[p].value);
}

static int is_tested(const struct rb_variant *v)
{
    return strcmp(v->paper, "givens") == 0 && v->backend == GIVENS_TEST_BACKEND;
}

/* RB_TEST_VARIANT=NAME (fused) or ALGO/NAME (backward/fused) sweeps those
 * variants only, so that a sanitizer's run of one kernel need not wait for
 * the others; the registry count and the fused kernels' own checks stay. */
static int is_run(const struct rb_variant *v)
{
    const char *only = getenv("RB_TEST_VARIANT");
    char full[64];
    snprintf(full, sizeof full, "%s/%s", v->algo, v->name);
    return is_tested(v)
           && (!only || !*only || strcmp(only, v->name) == 0 || strcmp(only, full) == 0);
}

/* Results of one case: 2 when admitted, else 1; with run = 0 only counted. */
static int life_cycle(struct rb_case *c, int run)
{
    char label[160];
    struct rb_check chk;
    int rc = c->v->admit(c);
    if (!run)
        return rc ? 1 : 2;
    case_label(c, label, sizeof label);
    if (rc) {
        tap_ok(rc == RB_ESKIP && c->msg[0], "%s: skipped (%s)", label, c->msg);
        return 1;
    }
    memset(&chk, 0, sizeof chk);
    rc = c->v->setup(c);
    if (rc == 0)
        rc = c->v->verify(c, &chk);
    if (!tap_ok(rc == 0 && !chk.pass, "%s: poisoned output fails verify", label))
        tap_diag("rc %d msg '%s'", rc, c->msg);
    if (rc == 0)
        rc = c->v->run(c);
    if (rc == 0)
        rc = c->v->verify(c, &chk);
    if (!tap_ok(rc == 0 && chk.pass && c->device_ms >= 0,
                "%s: run verifies (%.3g <= %.3g), %.3f ms on the device", label, chk.error,
                chk.tolerance, c->device_ms))
        tap_diag("rc %d msg '%s' method '%s'", rc, c->msg, chk.method);
    c->v->teardown(c);
    c->v->teardown(c);
    return 2;
}

/* All sizes, precisions and tunables of v; the number of results. */
static int sweep(const struct rb_variant *v, struct rb_ctx *ctx, uint64_t seed, int run)
{
    struct grid g;
    struct rb_case c;
    int results = 0;
    grid_make(&g, v);
    for (int p = 0; p < 2; p++)
        for (int k = 0; k < NSIZES; k++)
            for (int t = 0; t < grid_total(&g); t++) {
                make_case(&c, v, ctx, precs[p], sizes[k][0], sizes[k][1], &g, t, seed + k);
                results += life_cycle(&c, run);
            }
    return results;
}

/* The case's parameter `name` set to `value`. */
static void case_set(struct rb_case *c, const char *name, long long value)
{
    for (int p = 0; p < c->nparams; p++)
        if (strcmp(c->params[p].name, name) == 0)
            c->params[p].value = value;
}

/* The tested backend's Givens variant algo/name, or NULL. */
static const struct rb_variant *find(const char *algo, const char *name)
{
    const struct rb_variant *v;
    for (size_t i = 0; (v = rb_registry_get(i)); i++)
        if (is_tested(v) && !strcmp(v->algo, algo) && !strcmp(v->name, name))
            return v;
    return NULL;
}

/* One result: the runtime describes every kernel of the variant's run. */
static void occupancy_known(const struct rb_variant *v, struct rb_ctx *ctx, uint64_t seed)
{
    struct grid g;
    struct rb_case c;
    struct rb_occ occ;
    memset(&occ, 0, sizeof occ);
    grid_make(&g, v);
    make_case(&c, v, ctx, RB_PREC_F32, 64, 0, &g, 0, seed);
    int rc = v->admit(&c) || v->setup(&c);
    if (!rc)
        v->occupancy(&c, &occ);
    int ok = !rc && occ.available && occ.count >= 2;
    for (int k = 0; ok && k < occ.count; k++)
        ok = occ.k[k].regs > 0 && occ.k[k].active_blocks >= 1 && occ.k[k].occupancy > 0;
    tap_ok(ok, "%s/%s: occupancy of %d kernels (%s: %d regs, %.2f)", v->algo, v->name,
           occ.count, occ.count ? occ.k[0].kernel : "-", occ.count ? occ.k[0].regs : -1,
           occ.count ? occ.k[0].occupancy : -1.0);
    if (!ok)
        tap_diag("rc %d msg '%s' why '%s'", rc, c.msg, occ.why);
    v->teardown(&c);
}

/* One result: admit refuses the case with RB_ESKIP and a reason. */
static void refused(const struct rb_variant *v, struct rb_ctx *ctx, enum rb_prec prec, int n,
                    int m, const char *tunable, long long value, const char *what)
{
    struct grid g;
    struct rb_case c;
    grid_make(&g, v);
    make_case(&c, v, ctx, prec, n, m, &g, 0, 1);
    if (tunable)
        case_set(&c, tunable, value);
    int rc = v->admit(&c);
    tap_ok(rc == RB_ESKIP && c.msg[0], "%s/%s: %s is skipped (%s)", v->algo, v->name, what,
           c.msg);
}

/* ctx set up, and the seed; without a device (`available` says why) the
 * whole test is skipped. */
static uint64_t test_start(struct rb_ctx *ctx, int (*available)(struct rb_ctx *, char *, size_t))
{
    char why[512];
    rb_ctx_init(ctx);
    if (!available(ctx, why, sizeof why))
        tap_skip_all("%s", why);
    return tap_seed();
}

/* The plan, then the seed that repeats the run. */
static void plan_print(int planned, uint64_t seed)
{
    tap_plan(planned);
    tap_diag("seed %llu (RB_TEST_SEED=%llu repeats it)", (unsigned long long)seed,
             (unsigned long long)seed);
}

/* Results that test_variants gives; *nv: the backend's variants, *nrun:
 * those it sweeps. */
static int plan_variants(struct rb_ctx *ctx, uint64_t seed, int *nv, int *nrun)
{
    const struct rb_variant *v;
    int planned = 0;
    *nv = *nrun = 0;
    for (size_t i = 0; (v = rb_registry_get(i)); i++)
        if (is_tested(v)) {
            (*nv)++;
            if (is_run(v)) {
                (*nrun)++;
                planned += sweep(v, ctx, seed, 0) + 2;
            }
        }
    return planned;
}

/* Each variant: its sweep, m > n refused, its occupancy. */
static void test_variants(struct rb_ctx *ctx, uint64_t seed)
{
    const struct rb_variant *v;
    for (size_t i = 0; (v = rb_registry_get(i)); i++) {
        if (!is_run(v))
            continue;
        sweep(v, ctx, seed, 1);
        refused(v, ctx, RB_PREC_F32, 8, 9, NULL, 0, "m > n");
        occupancy_known(v, ctx, seed);
    }
}

/* One result: U of forward/fused (slots, cols) equals forward/paper's U,
 * both read back with the backend's `fetch`. */
static void fused_matches_paper(struct rb_ctx *ctx, int (*fetch)(struct rb_case *, const void **),
                                enum rb_prec prec, int n, int slots, int cols, uint64_t seed)
{
    const struct rb_variant *vp = find("forward", "paper"), *vf = find("forward", "fused");
    struct rb_case cp, cf;
    struct grid gp, gf;
    const void *up = NULL, *uf = NULL;
    grid_make(&gp, vp);
    grid_make(&gf, vf);
    make_case(&cp, vp, ctx, prec, n, 0, &gp, 0, seed);
    make_case(&cf, vf, ctx, prec, n, 0, &gf, 0, seed);
    case_set(&cf, "slots", slots);
    case_set(&cf, "cols", cols);
    int rc = vp->admit(&cp) || vf->admit(&cf) || vp->setup(&cp) || vf->setup(&cf)
             || vp->run(&cp) || vf->run(&cf) || fetch(&cp, &up) || fetch(&cf, &uf);
    double err = rc ? INFINITY : 0, eps = prec == RB_PREC_F64 ? 2.2e-16 : 1.2e-7;
    for (size_t k = 0; !rc && k < (size_t)n * n; k++) {
        double a = prec == RB_PREC_F64 ? ((const double *)up)[k] : ((const float *)up)[k];
        double b = prec == RB_PREC_F64 ? ((const double *)uf)[k] : ((const float *)uf)[k];
        double d = fabs(a - b);
        if (!(d <= err))
            err = isnan(d) ? INFINITY : d;
    }
    if (!tap_ok(!rc && err <= 4 * n * eps, "%s n=%d: fused U (slots=%d cols=%d) = paper U "
                "(max |diff| %.3g <= %.3g)", rb_prec_name(prec), n, slots, cols, err,
                4 * n * eps))
        tap_diag("paper '%s' fused '%s'", cp.msg, cf.msg);
    vp->teardown(&cp);
    vf->teardown(&cf);
}

/* The whole test of a backend with CUDA's six Givens variants (paper,
 * fused and apply, forward and backward): each through test_variants; the
 * fused kernels' refusals; the fused U against the paper's: column groups
 * sharing a block (n = 256, slots 8, cols 8; n = 1024, slots 16, cols 16),
 * one slot per thread at odd n (n = 257, slots 1).  Skips
 * without a device; the exit status. */
static int givens_gpu_test_main(int (*available)(struct rb_ctx *, char *, size_t),
                                int (*fetch)(struct rb_case *, const void **), const char *name)
{
    struct rb_ctx ctx;
    uint64_t seed = test_start(&ctx, available);
    int nv, nrun, planned = 2 + plan_variants(&ctx, seed, &nv, &nrun);
    const struct rb_variant *fused = find("forward", "fused");
    const struct rb_variant *fused_bwd = find("backward", "fused");
    planned += (fused ? 5 : 0) + (fused_bwd ? 2 : 0);
    plan_print(planned, seed);
    tap_ok(nv == 6 && fused && fused_bwd && find("forward", "paper")
           && find("backward", "paper") && find("forward", "apply") && find("backward", "apply"),
           "%d %s Givens variants registered", nv, name);
    tap_ok(nrun > 0, "%d of them swept (RB_TEST_VARIANT '%s')", nrun,
           getenv("RB_TEST_VARIANT") ? getenv("RB_TEST_VARIANT") : "");
    test_variants(&ctx, seed);
    if (fused) {
        refused(fused, &ctx, RB_PREC_F64, 64, 0, "cols", 16, "cols=16 in f64 (8 groups)");
        refused(fused, &ctx, RB_PREC_F32, 4096, 0, "slots", 8, "1024 threads per block");
        fused_matches_paper(&ctx, fetch, RB_PREC_F32, 256, 8, 8, seed + 100);
        fused_matches_paper(&ctx, fetch, RB_PREC_F64, 257, 1, 2, seed + 101);
        fused_matches_paper(&ctx, fetch, RB_PREC_F32, 1024, 16, 16, seed + 102);
    }
    if (fused_bwd) {
        refused(fused_bwd, &ctx, RB_PREC_F64, 64, 0, "cols", 16, "cols=16 in f64 (16 groups)");
        /* The first grid point has slots 16: groups of 2 columns, so 6 is
         * three groups, not the wide backward of slots 8. */
        refused(fused_bwd, &ctx, RB_PREC_F32, 64, 0, "cols", 6, "cols=6 at slots 16 (3 groups)");
    }
    rb_ctx_release(&ctx);
    return tap_done();
}

#endif
