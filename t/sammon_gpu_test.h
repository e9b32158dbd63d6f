/* SPDX-License-Identifier: MIT */
/* The test driver of the GPU Sammon variants (t/sammon_cuda.c,
 * t/sammon_hip.c): every variant of the backend SAMMON_TEST_BACKEND, which
 * the test defines first, through the harness's life cycle on a device, in
 * f32 and f64, at each block (16, 64, 256, 1024) or tile (32, 64, 128) and
 * at sizes that leave partial blocks and tiles (odd N, N below a block, n
 * off the vector width, iters 1 and 3; the stored variant with precompute 0
 * and 1 on alternate sizes; 210 iterations at N = 4608, whose last step
 * alone is checked, from the iterate the variant kept before it): the
 * poisoned output fails verify;
 * two runs (each restarting from y0) verify against the fp64 reference with
 * a device time; teardown twice; refusals carry a reason; the runtime knows
 * the kernels' occupancy. */
#ifndef SAMMON_GPU_TEST_H
#define SAMMON_GPU_TEST_H

#include <stdint.h>
#include <string.h>
#include "harness/ctx.h"
#include "harness/error.h"
#include "harness/registry.h"
#include "t/tap.h"

/* points, dim, outdim, iters; every tunable value, or the first only. */
struct size {
    int N, n, m, iters, all;
};

static const struct size sizes[] = {
    { 2, 1, 1, 1, 1 },          /* the smallest case */
    { 5, 3, 2, 3, 1 },          /* N below every block and tile */
    { 33, 7, 3, 1, 1 },         /* odd N, rows off the 16-byte vector width */
    { 130, 64, 2, 3, 1 },       /* vector loads, two tiles and a bit */
    { 601, 17, 2, 1, 1 },       /* a multiple of no tile, one tile j per split */
    { 4099, 5, 2, 1, 0 },       /* several tiles j per split */
    { 4608, 64, 2, 210, 0 },    /* beyond the reference of all steps: the last checked */
};
#define NSIZES ((int)(sizeof sizes / sizeof *sizes))
static const enum rb_prec precs[] = { RB_PREC_F32, RB_PREC_F64 };

static const long long blocks[] = { 16, 64, 256, 1024 };
static const long long tiles[] = { 32, 64, 128 };

static int is_tested(const struct rb_variant *v)
{
    return strcmp(v->paper, "sammon") == 0 && v->backend == SAMMON_TEST_BACKEND;
}

/* The variant's one tunable: its name and the values tested. */
static int tunable_values(const struct rb_variant *v, const char **name,
                          const long long **vals)
{
    *name = v->tunables && v->tunables->name ? v->tunables->name : "block";
    if (strcmp(*name, "tile") == 0) {
        *vals = tiles;
        return (int)(sizeof tiles / sizeof *tiles);
    }
    *vals = blocks;
    return (int)(sizeof blocks / sizeof *blocks);
}

static void make_case(struct rb_case *c, const struct rb_variant *v, struct rb_ctx *ctx,
                      enum rb_prec prec, const struct size *z, const char *tunable,
                      long long value, uint64_t seed)
{
    memset(c, 0, sizeof *c);
    c->v = v;
    c->ctx = ctx;
    c->prec = prec;
    c->seed = seed;
    c->device_ms = c->transfer_ms = c->build_ms = -1;
    c->params[c->nparams++] = (struct rb_param){ "points", z->N };
    c->params[c->nparams++] = (struct rb_param){ "dim", z->n };
    c->params[c->nparams++] = (struct rb_param){ "outdim", z->m };
    c->params[c->nparams++] = (struct rb_param){ "iters", z->iters };
    c->params[c->nparams++] = (struct rb_param){ tunable, value };
    for (const struct rb_axis *a = v->tunables; a && a->name; a++)
        if (strcmp(a->name, "precompute") == 0)
            c->params[c->nparams++] = (struct rb_param){ "precompute", (z - sizes) % 2 };
}

static void case_label(const struct rb_case *c, char *buf, size_t len)
{
    int k = snprintf(buf, len, "%s %s", c->v->name, rb_prec_name(c->prec));
    for (int p = 0; p < c->nparams && k > 0 && (size_t)k < len; p++)
        k += snprintf(buf + k, len - k, " %s=%lld", c->params[p].name, c->params[p].value);
}

/* Results of one case: 2 when admitted, else 1; with run = 0 only counted. */
static int life_cycle(struct rb_case *c, int run)
{
    char label[160];
    struct rb_check chk;
    int rc = c->v->admit ? c->v->admit(c) : 0;
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
    /* The harness repeats run(): each must start again from y0. */
    if (rc == 0)
        rc = c->v->run(c);
    if (rc == 0)
        rc = c->v->run(c);
    if (rc == 0)
        rc = c->v->verify(c, &chk);
    if (!tap_ok(rc == 0 && chk.pass && c->device_ms >= 0,
                "%s: two runs verify (%.3g <= %.3g), %.3f ms on the device", label, chk.error,
                chk.tolerance, c->device_ms))
        tap_diag("rc %d msg '%s' method '%s'", rc, c->msg, chk.method);
    c->v->teardown(c);
    c->v->teardown(c);
    return 2;
}

/* All sizes, precisions and tunable values of v; the number of results. */
static int sweep(const struct rb_variant *v, struct rb_ctx *ctx, uint64_t seed, int run)
{
    const char *tunable;
    const long long *vals;
    int nvals = tunable_values(v, &tunable, &vals), results = 0;
    struct rb_case c;
    for (int p = 0; p < 2; p++)
        for (int k = 0; k < NSIZES; k++)
            for (int t = 0; t < (sizes[k].all ? nvals : 1); t++) {
                make_case(&c, v, ctx, precs[p], &sizes[k], tunable, vals[t], seed + k);
                results += life_cycle(&c, run);
            }
    return results;
}

/* The tested backend's Sammon variant `name`, or NULL. */
static const struct rb_variant *find(const char *name)
{
    const struct rb_variant *v;
    for (size_t i = 0; (v = rb_registry_get(i)); i++)
        if (is_tested(v) && !strcmp(v->name, name))
            return v;
    return NULL;
}

/* One result: the runtime describes every kernel of the variant's run
 * (one for the standard ones, the pair kernel and the update otherwise, and
 * the fill before them for stored with precompute 1). */
static void occupancy_known(const struct rb_variant *v, struct rb_ctx *ctx, uint64_t seed)
{
    const char *tunable;
    const long long *vals;
    struct rb_case c;
    struct rb_occ occ;
    /* stored at sizes[3] takes precompute 1: the fill is in the region too. */
    int want = strncmp(v->name, "standard", 8) == 0 ? 1 : strcmp(v->name, "stored") == 0 ? 3 : 2;
    tunable_values(v, &tunable, &vals);
    memset(&occ, 0, sizeof occ);
    make_case(&c, v, ctx, RB_PREC_F32, &sizes[3], tunable, vals[1], seed);
    int rc = v->admit(&c) || v->setup(&c);
    if (!rc)
        v->occupancy(&c, &occ);
    int ok = !rc && occ.available && occ.count == want;
    for (int k = 0; ok && k < occ.count; k++)
        ok = occ.k[k].regs > 0 && occ.k[k].active_blocks >= 1 && occ.k[k].occupancy > 0;
    tap_ok(ok, "%s: occupancy of %d kernels (%s: %d regs, %lld B shared, %.2f)", v->name,
           occ.count, occ.count ? occ.k[0].kernel : "-", occ.count ? occ.k[0].regs : -1,
           occ.count ? occ.k[0].smem_static : -1LL, occ.count ? occ.k[0].occupancy : -1.0);
    if (!ok)
        tap_diag("rc %d msg '%s' why '%s'", rc, c.msg, occ.why);
    v->teardown(&c);
}

/* One result: admit refuses the case with RB_ESKIP and a reason. */
static void refused(const struct rb_variant *v, struct rb_ctx *ctx, enum rb_prec prec,
                    long long tile, const char *what)
{
    struct rb_case c;
    make_case(&c, v, ctx, prec, &sizes[3], "tile", tile, 1);
    int rc = v->admit(&c);
    tap_ok(rc == RB_ESKIP && c.msg[0], "%s: %s is skipped (%s)", v->name, what, c.msg);
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

static const char *const names[] = {
    "standard-flat", "standard-transposed", "modified-flat", "modified-transposed", "tiled",
    "tiled-symmetric", "stored",
};
#define NNAMES ((int)(sizeof names / sizeof *names))

/* The whole test: the seven variants registered, each one's sweep and
 * occupancy, the tiled kernels' refusals. */
static void test_all(struct rb_ctx *ctx, uint64_t seed, const char *backend)
{
    const struct rb_variant *v, *tiled[] = { find("tiled"), find("tiled-symmetric"),
                                             find("stored") };
    int planned = 1, nv = 0, named = 0;
    for (int k = 0; k < 3; k++)
        planned += tiled[k] ? 2 : 0;
    for (size_t i = 0; (v = rb_registry_get(i)); i++)
        if (is_tested(v)) {
            nv++;
            planned += sweep(v, ctx, seed, 0) + 1;
        }
    for (int k = 0; k < NNAMES; k++)
        named += find(names[k]) != NULL;
    tap_plan(planned);
    tap_diag("seed %llu (RB_TEST_SEED=%llu repeats it)", (unsigned long long)seed,
             (unsigned long long)seed);
    tap_ok(nv == NNAMES && named == NNAMES, "%d %s Sammon variants registered, the paper's "
           "four, the tiled two and stored", nv, backend);
    for (size_t i = 0; (v = rb_registry_get(i)); i++)
        if (is_tested(v)) {
            sweep(v, ctx, seed, 1);
            occupancy_known(v, ctx, seed);
        }
    for (int k = 0; k < 3; k++)
        if (tiled[k]) {
            refused(tiled[k], ctx, RB_PREC_F64, 128, "tile=128 in f64");
            refused(tiled[k], ctx, RB_PREC_F32, 48, "tile=48");
        }
}

#endif
