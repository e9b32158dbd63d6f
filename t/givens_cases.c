/* SPDX-License-Identifier: MIT */
/* Every registered CPU Givens variant through the harness's life cycle:
 * admit, setup, run, verify (passes), and verify without run (fails: setup
 * poisons the outputs), teardown twice; plus the admit refusals. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "harness/backend/cpu.h"
#include "harness/ctx.h"
#include "harness/error.h"
#include "harness/registry.h"
#include "t/tap.h"

static void make_case(struct rb_case *c, const struct rb_variant *v, struct rb_ctx *ctx,
                      enum rb_prec prec, long long n, long long m, long long threads,
                      uint64_t seed)
{
    memset(c, 0, sizeof *c);
    c->v = v;
    c->ctx = ctx;
    c->prec = prec;
    c->seed = seed;
    c->params[c->nparams++] = (struct rb_param){ "n", n };
    c->params[c->nparams++] = (struct rb_param){ "m", m };
    if (v->tunables)
        c->params[c->nparams++] = (struct rb_param){ "threads", threads };
}

static int is_cpu_givens(const struct rb_variant *v)
{
    return strcmp(v->paper, "givens") == 0
           && (v->backend == RB_BACKEND_SERIAL || v->backend == RB_BACKEND_OMP);
}

/* 3 results per call. */
static void life_cycle(const struct rb_variant *v, struct rb_ctx *ctx, enum rb_prec prec,
                       int n, int m, uint64_t seed)
{
    struct rb_case c;
    struct rb_check chk;
    const char *p = rb_prec_name(prec);
    make_case(&c, v, ctx, prec, n, m, rb_omp_max_threads() > 1 ? 2 : 1, seed);
    int rc = v->admit(&c);
    if (rc == 0)
        rc = v->setup(&c);
    memset(&chk, 0, sizeof chk);
    if (rc == 0)
        rc = v->verify(&c, &chk);
    tap_ok(rc == 0 && !chk.pass, "%s/%s %s %s n=%d m=%d: poisoned output fails verify",
           v->algo, v->name, rb_backend_name(v->backend), p, n, m);
    if (rc == 0)
        rc = v->run(&c);
    if (rc == 0)
        rc = v->verify(&c, &chk);
    if (!tap_ok(rc == 0 && chk.pass, "%s/%s %s %s n=%d m=%d: run verifies (%.3g <= %.3g)",
                v->algo, v->name, rb_backend_name(v->backend), p, n, m, chk.error,
                chk.tolerance))
        tap_diag("rc %d msg '%s' method '%s'", rc, c.msg, chk.method);
    size_t fp = v->footprint(&c);
    tap_ok(fp >= (size_t)n * n * rb_prec_size(prec) && c.device_ms < 0 && c.device[0],
           "footprint %zu bytes, host clock, device '%s'", fp, c.device);
    v->teardown(&c);
    v->teardown(&c);
}

int main(void)
{
    static const int sizes[][2] = { { 20, 0 }, { 33, 0 }, { 16, 5 } };
    int ns = (int)(sizeof sizes / sizeof *sizes), nv = 0;
    const struct rb_variant *v;
    for (size_t i = 0; (v = rb_registry_get(i)); i++)
        nv += is_cpu_givens(v);
    uint64_t seed = tap_seed();
    struct rb_ctx ctx;
    rb_ctx_init(&ctx);
    tap_plan(1 + nv * (2 * ns * 3 + 2));
    tap_diag("seed %llu (RB_TEST_SEED=%llu repeats it)", (unsigned long long)seed,
             (unsigned long long)seed);
    tap_ok(nv >= 3, "%d CPU Givens variants registered", nv);
    for (size_t i = 0; (v = rb_registry_get(i)); i++) {
        if (!is_cpu_givens(v))
            continue;
        for (int k = 0; k < ns; k++) {
            life_cycle(v, &ctx, RB_PREC_F32, sizes[k][0], sizes[k][1], seed + k);
            life_cycle(v, &ctx, RB_PREC_F64, sizes[k][0], sizes[k][1], seed + k);
        }
        struct rb_case c;
        make_case(&c, v, &ctx, RB_PREC_F64, 8, 9, 1, seed);
        tap_is(v->admit(&c), RB_ESKIP, "m > n is skipped");
        make_case(&c, v, &ctx, RB_PREC_F64, 8, 0, rb_omp_max_threads() + 1, seed);
        if (v->tunables)
            tap_is(v->admit(&c), RB_ESKIP, "threads above the cores is skipped");
        else
            tap_is(v->admit(&c), 0, "serial ignores threads");
    }
    rb_ctx_release(&ctx);
    return tap_done();
}
