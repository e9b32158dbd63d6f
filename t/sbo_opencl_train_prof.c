/* SPDX-License-Identifier: MIT */
/* The OpenCL SBO training's profile and its deferred read-backs:
 * 1. the same training with the trace called after each pass, with the
 *    trace lagging (RMSE sums of up to SBO_CL_PASSES passes read at once,
 *    more passes than that in one block count), and without a trace gives
 *    bit for bit the same trace, blocks and final RMSE;
 * 2. the case's metrics: a device time per kernel that ran, adding up
 *    with the gaps to the run's device time (an in-order queue), launches
 *    as counted
 *    events, and host syncs: one block-count read per refinement round and
 *    one RMSE read per stopping test, plus at most the GEMM offsets' waits
 *    (exactly that with CLBlast, which has no offsets to upload). */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "harness/registry.h"
#include "impl/sbo/sbo_case.h"
#include "impl/sbo/sbo_opencl_train.h"
#include "datasets/planted.h"
#include "t/tap.h"
#include "t/opencl_test.h"
#include "t/sbo_opencl_train_util.h"

#define MAXPASS 256

struct trace {
    int n, nb[MAXPASS], round[MAXPASS];
    double rmse[MAXPASS];
};

static void keep(int blocks, int round, double rmse, void *arg)
{
    struct trace *t = arg;
    if (t->n < MAXPASS) {
        t->nb[t->n] = blocks;
        t->round[t->n] = round;
        t->rmse[t->n++] = rmse;
    }
}

struct outcome {
    struct trace tr;
    double rmse, *D;
    int nb, rc;
};

/* One training on t; D read back into out->D (L p p). */
static void train(struct env *e, struct sbo_cl_train *t, const struct sbo_opts *base,
                  int with_trace, int defer, struct outcome *out)
{
    struct sbo_opts o = *base;
    memset(&out->tr, 0, sizeof out->tr);
    o.trace = with_trace ? keep : NULL;
    o.trace_arg = &out->tr;
    t->defer_trace = defer;
    out->rmse = NAN;
    out->nb = 0;
    out->rc = sbo_cl_train_run(&e->c, t, &o, &out->nb, &out->rmse);
    if (out->rc == 0)
        out->rc = get_real(e, t, t->D, out->D, (size_t)t->L * t->p * t->p);
    if (out->rc)
        tap_diag("rc %d: %s", out->rc, e->c.msg);
}

static int same_trace(const struct trace *a, const struct trace *b)
{
    return a->n == b->n && memcmp(a->nb, b->nb, a->n * sizeof *a->nb) == 0
           && memcmp(a->round, b->round, a->n * sizeof *a->round) == 0
           && memcmp(a->rmse, b->rmse, a->n * sizeof *a->rmse) == 0;
}

static void deferred(struct env *e, int polar, int L, int R, uint64_t seed)
{
    enum { P = 16, S = 3, M = 1201 };
    const char *name = polar ? "polar" : "paper";
    struct sbo_cl_train t;
    struct rb_planted pl;
    struct sbo_opts o;
    struct outcome r[3];
    env_init(e, RB_PREC_F32, seed);
    sbo_opts_default(&o);
    o.s = S;
    o.L = L;
    o.R = R;
    o.seed = seed;
    size_t nd = (size_t)L * P * P;
    for (int k = 0; k < 3; k++)
        r[k].D = calloc(nd, sizeof *r[k].D);
    int made = rb_planted_make(&pl, P, M, L, S, 25.0, seed) == 0;
    int rc = made ? env_open(e, &t, P, S, L, M) : RB_ENOMEM;
    if (rc == 0) {
        t.polar = polar;
        if ((rc = put_real(e, &t, t.Y, pl.Y, (size_t)P * M)) == 0) {
            train(e, &t, &o, 1, 0, &r[0]);
            train(e, &t, &o, 1, 1, &r[1]);
            train(e, &t, &o, 0, 1, &r[2]);
        }
        env_close(&t);
    }
    int ok = rc == 0 && r[0].rc == 0 && r[1].rc == 0 && r[2].rc == 0;
    tap_ok(ok && r[0].tr.n == 1 + (L - 1) * (R + 1) && same_trace(&r[0].tr, &r[1].tr),
           "%s L=%d R=%d: the lagging trace is the per-pass trace (%d passes)", name, L, R,
           r[0].tr.n);
    int same = ok;
    for (int k = 1; k < 3 && ok; k++)
        same = same && r[k].nb == r[0].nb && r[k].rmse == r[0].rmse
               && memcmp(r[k].D, r[0].D, nd * sizeof *r[0].D) == 0;
    tap_ok(same && r[0].nb == L, "%s L=%d R=%d: blocks, RMSE %.9g and D bit for bit the same "
           "with and without the trace", name, L, R, ok ? r[0].rmse : NAN);
    for (int k = 0; k < 3; k++)
        free(r[k].D);
    if (made)
        rb_planted_free(&pl);
}

static double metric(const struct rb_case *c, const char *name)
{
    for (int k = 0; k < c->nmetrics; k++)
        if (strcmp(c->metrics[k].name, name) == 0)
            return c->metrics[k].value;
    return NAN;
}

static void metrics(struct rb_ctx *ctx, const char *variant, int clblast, uint64_t seed)
{
    const struct rb_variant *v = NULL, *w;
    for (size_t i = 0; (w = rb_registry_get(i)); i++)
        if (!strcmp(w->paper, "sbo") && !strcmp(w->algo, "train")
            && w->backend == RB_BACKEND_OPENCL && !strcmp(w->name, variant))
            v = w;
    struct rb_case c;
    struct rb_check chk;
    memset(&c, 0, sizeof c);
    memset(&chk, 0, sizeof chk);
    c.v = v;
    c.ctx = ctx;
    c.prec = RB_PREC_F32;
    c.seed = seed;
    c.device_ms = c.transfer_ms = c.build_ms = -1;
    const char *names[] = { "p", "s", "blocks", "signals", "wg", "clblast" };
    const int vals[] = { 16, 3, 3, 1000, 64, clblast };
    for (int k = 0; k < 6; k++)
        c.params[c.nparams++] = (struct rb_param){ names[k], vals[k] };
    int rc = v ? v->setup(&c) : RB_EINVAL;
    struct sbo_state *s = c.state;
    if (rc == 0) {
        s->opts.R = 3;
        rc = v->run(&c);
    }
    if (rc == 0)
        rc = v->verify(&c, &chk);
    if (rc)
        tap_diag("rc %d: %s", rc, c.msg);
    char what[64];
    snprintf(what, sizeof what, "%s f32%s", variant, clblast ? " CLBlast" : "");
    double sum = 0.0;
    int kinds = 0, bad = 0;
    for (int k = 0; rc == 0 && k < SBO_TK_N; k++) {
        char key[32];
        snprintf(key, sizeof key, "ms_%s", sbo_tk_names[k]);
        double ms = metric(&c, key);
        if (isnan(ms))
            continue;
        kinds++;
        bad += !(ms >= 0.0);
        sum += ms;
    }
    double gaps = metric(&c, "ms_gaps"), dev = c.device_ms;
    struct sbo_cl_train *t = rc == 0 ? s->backend : NULL;
    tap_ok(rc == 0 && chk.pass && kinds >= 12 && !bad && gaps >= 0.0
           && fabs(sum + gaps - dev) <= 1e-6 * dev + 1e-3,
           "%s: %d kernel times add to %.1f ms, gaps %.1f ms, run %.1f ms on the device", what,
           kinds, sum, gaps, dev);
    int L = 3, R = 3, least = (L - 1) * R + L, uploads = 3 * L + 2 * (L - 1) * R;
    double syncs = metric(&c, "host_syncs"), launches = metric(&c, "launches");
    tap_ok(t && launches == (double)t->nev && launches > 0 && syncs >= least
           && syncs <= least + (clblast ? 0 : uploads),
           "%s: %.0f launches, %.0f host syncs (counts read %d, RMSEs read %d)", what,
           launches, syncs, (L - 1) * R, L);
    if (v)
        v->teardown(&c);
}

int main(void)
{
    static struct env e;
    struct rb_opencl *cl = cl_test_open(&e.ctx);
    int blas = sbo_cl_have_clblast();
    uint64_t seed = tap_seed();
    tap_plan(4 + 2 * (2 + blas));
    tap_diag("seed %llu (RB_TEST_SEED=%llu repeats it); device %s", (unsigned long long)seed,
             (unsigned long long)seed, cl->name);
    deferred(&e, 1, 2, SBO_CL_PASSES + 3, seed);
    deferred(&e, 0, 3, 3, seed + 1);
    metrics(&e.ctx, "polar", 0, seed + 2);
    metrics(&e.ctx, "paper", 0, seed + 3);
    if (blas)
        metrics(&e.ctx, "polar", 1, seed + 4);
    rb_ctx_release(&e.ctx);
    return tap_done();
}
