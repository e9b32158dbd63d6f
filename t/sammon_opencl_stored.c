/* SPDX-License-Identifier: MIT */
/* The OpenCL `stored` variant on whatever device is there (PoCL in CI): at
 * each tile (32, 64, 128), precompute 0 and 1, and sizes that leave partial
 * tiles (N 20, 33, 100 and 257; n 4, 8 and, through two staging rounds,
 * 17; m 1, 2 and 3; 1, 2 and 3 iterations): a poisoned output fails verify, runs from
 * NaN-poisoned device buffers verify against the fp64 reference, a second
 * run repeats the first bit for bit (no atomics: the partial sums add up in
 * a fixed order), setup's fill is timed into "precompute_ms" unless the
 * timed region does it, the occupancy is known and teardown is safe twice;
 * a tile the kernels are not built for, f64 and a triangle no buffer of
 * the device holds are refused with the reason. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "harness/backend/opencl.h"
#include "harness/ctx.h"
#include "harness/error.h"
#include "harness/registry.h"
#include "impl/sammon/sammon_case.h"
#include "impl/sammon/sammon_opencl.h"
#include "t/tap.h"
#include "t/opencl_test.h"

#define CHECKS_PER_CASE 5

struct size {
    int N, n, m, iters;
};

static const struct size sizes[] = {
    { 33, 4, 2, 3 },
    { 100, 17, 3, 1 },
    { 257, 4, 2, 3 },
    { 20, 8, 1, 2 },            /* m = 1, one tile */
};
#define NSIZES ((int)(sizeof sizes / sizeof *sizes))
static const int tiles[] = { 32, 64, 128 };
#define NTILES ((int)(sizeof tiles / sizeof *tiles))

static void make_case(struct rb_case *c, const struct rb_variant *v, struct rb_ctx *ctx,
                      enum rb_prec prec, const struct size *z, int tile, int pre, uint64_t seed)
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
    c->params[c->nparams++] = (struct rb_param){ "tile", tile };
    c->params[c->nparams++] = (struct rb_param){ "precompute", pre };
}

static int has_metric(const struct rb_case *c, const char *name)
{
    for (int k = 0; k < c->nmetrics; k++)
        if (strcmp(c->metrics[k].name, name) == 0)
            return c->metrics[k].value >= 0;
    return 0;
}

static int poisoned_run(struct rb_case *c, struct rb_check *chk)
{
    struct sammon_state *st = c->state;
    for (size_t k = 0; k < (size_t)st->N * st->m; k++)
        ((float *)st->y)[k] = NAN;
    int rc = c->v->run(c);
    memset(chk, 0, sizeof *chk);
    return rc ? rc : c->v->verify(c, chk);
}

static void life_cycle(const struct rb_variant *v, struct rb_ctx *ctx, const struct size *z,
                       int tile, int pre, uint64_t seed)
{
    struct rb_case c;
    struct rb_check chk;
    char name[160];
    snprintf(name, sizeof name, "stored N=%d n=%d m=%d iters=%d tile=%d precompute=%d", z->N,
             z->n, z->m, z->iters, tile, pre);
    make_case(&c, v, ctx, RB_PREC_F32, z, tile, pre, seed);
    memset(&chk, 0, sizeof chk);
    int rc = v->setup(&c);
    if (rc == 0)
        rc = v->verify(&c, &chk);
    if (!tap_ok(rc == 0 && !chk.pass && c.build_ms >= 0, "%s: poisoned output fails verify",
                name))
        tap_diag("rc %d msg '%s'", rc, c.msg);
    tap_ok(rc == 0 && has_metric(&c, "precompute_ms") == !pre, "%s: setup's fill %s", name,
           pre ? "left to the timed region" : "timed into precompute_ms");
    if (rc == 0)
        rc = poisoned_run(&c, &chk);
    if (!tap_ok(rc == 0 && chk.pass && c.device_ms > 0, "%s: run verifies (%.3g <= %.3g), "
                "%.3f ms", name, chk.error, chk.tolerance, c.device_ms))
        tap_diag("rc %d msg '%s'", rc, c.msg);
    struct sammon_state *st = c.state;
    size_t bytes = st ? (size_t)st->N * st->m * sizeof(float) : 0;
    void *first = rc == 0 ? malloc(bytes) : NULL;
    if (first)
        memcpy(first, st->y, bytes);
    if (rc == 0)
        rc = poisoned_run(&c, &chk);
    tap_ok(rc == 0 && chk.pass && first && memcmp(first, st->y, bytes) == 0,
           "%s: second run verifies, same bits", name);
    free(first);
    struct rb_occ occ;
    memset(&occ, 0, sizeof occ);
    if (rc == 0)
        v->occupancy(&c, &occ);
    v->teardown(&c);
    v->teardown(&c);
    tap_ok(c.state == NULL && rc == 0 && occ.available && occ.count == 2 + pre,
           "%s: occupancy of %d kernels, teardown twice", name, occ.count);
}

static void refused(const struct rb_variant *v, struct rb_ctx *ctx, enum rb_prec prec,
                    const struct size *z, int tile, const char *what)
{
    struct rb_case c;
    make_case(&c, v, ctx, prec, z, tile, 0, 1);
    int rc = v->admit(&c);
    tap_ok(rc == RB_ESKIP && c.msg[0], "%s is refused (%s)", what, c.msg);
}

int main(void)
{
    struct rb_ctx ctx;
    struct rb_opencl *cl = cl_test_open(&ctx);
    const struct rb_variant *v = NULL, *it;
    for (size_t i = 0; (it = rb_registry_get(i)); i++)
        if (!strcmp(it->paper, "sammon") && it->backend == RB_BACKEND_OPENCL
            && !strcmp(it->name, "stored"))
            v = it;
    uint64_t seed = tap_seed();
    tap_plan(1 + NSIZES * NTILES * 2 * CHECKS_PER_CASE + 3);
    tap_diag("seed %llu (RB_TEST_SEED=%llu repeats it); device %s", (unsigned long long)seed,
             (unsigned long long)seed, cl->name);
    if (!tap_ok(v != NULL && v->precs == RB_PREC_F32, "the OpenCL stored variant, f32 only"))
        return tap_done();
    for (int k = 0; k < NSIZES; k++)
        for (int t = 0; t < NTILES; t++)
            for (int pre = 0; pre < 2; pre++)
                life_cycle(v, &ctx, &sizes[k], tiles[t], pre,
                           seed + (uint64_t)(k * NTILES + t) * 2 + (uint64_t)pre);
    const struct size huge = { 2000000, 4, 2, 1 };
    refused(v, &ctx, RB_PREC_F32, &sizes[0], 48, "tile=48");
    refused(v, &ctx, RB_PREC_F64, &sizes[0], 64, "f64");
    refused(v, &ctx, RB_PREC_F32, &huge, 128, "N=2000000 (a 7.3 TiB triangle)");
    rb_ctx_release(&ctx);
    return tap_done();
}
